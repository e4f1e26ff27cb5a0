import CLibPQ
import EPFCatalogStore
import EPFFormat
import Foundation

/// The PostgreSQL connection as the shared SQL algorithms use it. Values
/// travel as text both ways (libpq's text format): a parameter is its
/// text, a result is `.text` or `.null`.
extension PostgresConnection: SQLConnection {
    package func rows(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]] {
        try query(sql, values.map(\.textValue)).map { row in row.map { $0.map(SQLValue.text) ?? .null } }
    }

    @discardableResult
    package func change(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try change(sql, values.map(\.textValue))
    }

    /// `bytes` travel in libpq's binary format (raw, not hex text), the
    /// other values as text.
    package func change(_ sql: String, bytes: [UInt8], _ values: [SQLValue]) throws {
        let texts = values.map(\.textValue)
        let lengths = [Int32(bytes.count)] + texts.map { _ in Int32(0) }
        let formats = [Int32(1)] + texts.map { _ in Int32(0) }
        let result = withParameters(texts) { textPointers in
            bytes.withUnsafeBufferPointer { raw in
                let first = UnsafeRawPointer(raw.baseAddress ?? UnsafePointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
                let pointers = [first] + (0..<texts.count).map { textPointers?[$0] }
                return PQexecParams(handle, sql, Int32(pointers.count), nil, pointers, lengths, formats, 0)
            }
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// The result comes in libpq's binary format: a `bytea` as its bytes.
    package func withBytes<Result>(_ sql: String, _ values: [SQLValue], _ body: (UnsafeRawBufferPointer) throws -> Result) throws
        -> Result?
    {
        let texts = values.map(\.textValue)
        let result = withParameters(texts) { pointers in
            PQexecParams(handle, sql, Int32(texts.count), nil, pointers, nil, nil, 1)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        guard PQntuples(result) > 0, PQgetisnull(result, 0, 0) == 0, let value = PQgetvalue(result, 0, 0) else { return nil }
        return try body(UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, 0, 0))))
    }

    package func begin() throws { try execute("BEGIN") }

    package func commit() throws { try execute("COMMIT") }

    package func backendError(_ error: any Error, while action: String) -> CatalogError? {
        (error as? PostgresError).map { CatalogError($0, while: action) }
    }

    /// A table of the connection's current schema.
    package func tableExists(_ table: String) throws -> Bool {
        try scalar("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1", [table]) != "0"
    }

    package func index(on table: String, columns: [String], uniqueOnly: Bool) throws -> String? {
        let rows = try query(
            """
            SELECT c.relname, (SELECT array_agg(a.attname ORDER BY k.ordinality)::text
                FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ordinality)
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum)
            FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            WHERE i.indrelid = to_regclass($1) AND (i.indisunique OR NOT $2::boolean) AND i.indpred IS NULL
            """, [quoteIdentifier(table), uniqueOnly ? "true" : "false"])
        let wanted = Set(columns)
        for row in rows {
            guard let name = row[0], let list = row[1] else { continue }
            let names = list.dropFirst().dropLast().split(separator: ",").map {
                String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            if Set(names) == wanted && names.count == columns.count { return name }
        }
        return nil
    }

    /// `base`, or `base2`, ... whichever no relation of the schema has.
    package func freeIndexName(base: String) throws(PostgresError) -> String {
        for name in [base, base + "2"] {
            if try scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(name)]) == "f" { return name }
        }
        var suffix = 3
        while try scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(base + String(suffix))]) == "t" {
            suffix += 1
        }
        return base + String(suffix)
    }
}

/// PostgreSQL's spelling of what the shared algorithms write.
package struct PostgresDialect: SQLDialect {
    package func parameter(_ n: Int) -> String { "$\(n)" }
    package func columnType(_ type: ColumnType) -> String { PostgresSchema.columnType(for: type) }

    /// Typed key columns hold NULL for an empty field; two NULL keys are
    /// the same key.
    package var uniqueIndexSuffix: String { " NULLS NOT DISTINCT" }

    /// The staging table's `epf_record` column holds each row's record
    /// number in its file.
    package func keepLastOfEachKey(in staging: String, key: String) -> String {
        let record = quoteIdentifier(PostgresSchema.recordColumn)
        return """
            DELETE FROM \(staging) WHERE \(record) IN (
                SELECT \(record) FROM (
                    SELECT \(record), row_number() OVER (PARTITION BY \(key) ORDER BY \(record) DESC) AS rank
                    FROM \(staging)) AS ranked
                WHERE rank > 1)
            """
    }

    package var serialKey: String { "BIGSERIAL PRIMARY KEY" }
    package var tableNamesQuery: String { "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()" }

    /// `xmax = 0` marks a row the statement inserted (not one it updated);
    /// a row the upsert's `WHERE` skipped is not returned.
    package func countingChanges(_ upsert: String) -> String? {
        """
        WITH changed AS (\(upsert) RETURNING (xmax = 0) AS inserted)
        SELECT count(*) FILTER (WHERE inserted), count(*) FROM changed
        """
    }
}
