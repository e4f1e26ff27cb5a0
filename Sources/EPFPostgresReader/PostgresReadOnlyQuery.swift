import CLibPQ
import EPFCatalogRead

/// `epf sql` against a PostgreSQL catalog: exactly one statement, in a
/// READ ONLY transaction that is rolled back after.
///
/// - One statement: it is prepared with the extended protocol, which
///   refuses text holding several (`cannot insert multiple commands into a
///   prepared statement`); text with none runs as an empty query.
/// - Read-only: the server refuses every write in a READ ONLY transaction
///   (SQLSTATE 25006), including `nextval`, `LOCK ... EXCLUSIVE`, `NOTIFY`;
///   statements that cannot run in a transaction block (VACUUM, CREATE
///   DATABASE, ALTER SYSTEM) fail as they are. A first `SELECT` takes the
///   snapshot, so that `SET TRANSACTION READ WRITE` is refused too.
/// - Values keep their kind as SQLite would give it: integers
///   (`int2/4/8`, `oid`) as integers, `float4/8` and `numeric` as reals (as
///   SQLite holds decimals), booleans as 1 and 0, everything else (dates,
///   text, arrays, JSON) as PostgreSQL writes it.
package enum PostgresReadOnlyQuery {
    /// Runs `sql` on `connection`, in a transaction of its own (none may
    /// be open), rolled back after.
    package static func run(_ sql: String, on connection: PostgresConnection) throws(ReadOnlyQueryError) -> (
        columns: [String], rows: [[SQLValue]]
    ) {
        do {
            try connection.execute("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; SELECT 1")
        } catch {
            throw .failed(error.message)
        }
        defer { connection.rollback() }
        return try connection.readOnlyQuery(sql)
    }
}

extension PostgresConnection {
    /// Prepares and runs `sql` (one statement) in the open transaction.
    fileprivate func readOnlyQuery(_ sql: String) throws(ReadOnlyQueryError) -> (columns: [String], rows: [[SQLValue]]) {
        let prepared = PQprepare(handle, "", sql, 0, nil)
        defer { PQclear(prepared) }
        guard PQresultStatus(prepared) == PGRES_COMMAND_OK else { throw classify(error(prepared, prefix: nil)) }
        let result = PQexecPrepared(handle, "", 0, nil, nil, nil, 0)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_EMPTY_QUERY:
            throw .noStatement
        case PGRES_COMMAND_OK:
            return ([], [])
        case PGRES_TUPLES_OK:
            guard let result else { return ([], []) }
            let columns = (0..<PQnfields(result)).map { String(cString: PQfname(result, $0)) }
            var rows: [[SQLValue]] = []
            for row in 0..<PQntuples(result) {
                let values = PostgresRow(result, row: row)
                rows.append((0..<values.count).map(values.value))
            }
            return (columns, rows)
        default:
            throw classify(error(result, prefix: nil))
        }
    }

    private func classify(_ failure: PostgresError) -> ReadOnlyQueryError {
        switch failure.sqlState {
        case "25006"?: return .notReadOnly
        case "42601"? where failure.message.contains("multiple commands"): return .severalStatements
        default: return .failed(failure.message)
        }
    }
}
