import CSQLite
import EPFCatalogStore
import EPFFormat

/// The SQLite connection as the shared SQL algorithms use it.
extension SQLiteDatabase: SQLConnection {
    @discardableResult
    package func change(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try execute(sql, values)
        return changes
    }

    package func change(_ sql: String, bytes: [UInt8], _ values: [SQLValue]) throws {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try bytes.withUnsafeBytes { raw in
            statement.bindStatic(bytes: raw, at: 1)
            for (offset, value) in values.enumerated() { statement.bind(value, at: Int32(offset + 2)) }
            while try statement.step() {}
        }
    }

    package func withBytes<Result>(_ sql: String, _ values: [SQLValue], _ body: (UnsafeRawBufferPointer) throws -> Result) throws
        -> Result?
    {
        let statement = try prepare(sql)
        defer { statement.reset() }
        statement.bind(values)
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return try body(statement.bytes(0))
    }

    /// Runs `sql`; false (and nothing changed) when it breaks a constraint,
    /// such as a unique index over repeated keys.
    package func executeUnlessUniqueViolation(_ sql: String) throws -> Bool {
        do {
            try execute(sql)
            return true
        } catch let error where error.isConstraintViolation {
            return false
        }
    }

    /// `BEGIN IMMEDIATE`: the write lock now, not at the first write, so a
    /// transaction never fails half-way on another writer.
    package func begin() throws { try execute("BEGIN IMMEDIATE") }

    package func commit() throws { try execute("COMMIT") }

    package func backendError(_ error: any Error, while action: String) -> CatalogError? {
        (error as? SQLiteError).map { CatalogError($0, while: action) }
    }
}

/// SQLite's spelling of what the shared algorithms write.
package struct SQLiteDialect: SQLDialect {
    package func parameter(_ n: Int) -> String { "?\(n)" }
    package func columnType(_ type: ColumnType) -> String { SchemaMapping.affinity(for: type) }

    /// `WHERE true` keeps `ON CONFLICT` from being read as the join's;
    /// rowid order applies a key's rows in load order (the last one wins).
    package var upsertSourceClause: String { " WHERE true ORDER BY rowid" }
    package var insertsAboveLargestRowid: Bool { true }

    /// Rows are numbered as loaded: the largest rowid of a key is its last row.
    package func keepLastOfEachKey(in staging: String, key: String) -> String {
        "DELETE FROM \(staging) WHERE rowid NOT IN (SELECT max(rowid) FROM \(staging) GROUP BY \(key))"
    }

    package var integerType: String { "INTEGER" }
    package var bytesType: String { "BLOB" }
    /// SQLite's `IS` is `IS NOT DISTINCT FROM`, which it spells so only
    /// since 3.39.
    package func sameValue(_ left: String, _ right: String) -> String { "\(left) IS \(right)" }
    package var serialKey: String { "INTEGER PRIMARY KEY" }
    package var tableNamesQuery: String { "SELECT name FROM sqlite_schema WHERE type = 'table'" }
}
