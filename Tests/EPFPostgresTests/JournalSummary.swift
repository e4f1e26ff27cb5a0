import EPFPostgres
import EPFTestSupport

/// The journal rows both stores must agree on: table, mode, rows,
/// repaired, skipped, status, source (in order).
func journalSummary(sqlite path: String) throws -> [[String?]] {
    try RawSQLiteReader(path: path).rows(
        "SELECT table_name, mode, rows, repaired_rows, skipped_rows, status, source_path, details FROM epf_journal ORDER BY id"
    ).map { $0.map(\.textForm) }
}

func journalSummary(postgres connection: PostgresConnection) throws -> [[String?]] {
    try connection.query(
        "SELECT table_name, mode, rows::text, repaired_rows::text, skipped_rows::text, status, source_path, details FROM epf_journal ORDER BY id"
    )
}
