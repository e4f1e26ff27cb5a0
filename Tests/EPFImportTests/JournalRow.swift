import EPFTestSupport

/// One row of `epf_journal`, the columns the tests look at.
struct JournalRow: Equatable {
    var feed: String?
    var feedDate: String?
    var table: String
    var exportDate: Int64?
    var mode: String?
    var rows: Int64
    var repairedRows: Int64
    var skippedRows: Int64
    var sourcePath: String
    var status: String
    var message: String?

    static func all(in path: String) throws -> [JournalRow] {
        try RawSQLiteReader(path: path).rows(
            """
            SELECT feed, feed_date, table_name, export_date, mode, rows, repaired_rows, skipped_rows, source_path,
                status, message FROM epf_journal ORDER BY id
            """
        ).map { row in
            JournalRow(
                feed: row[0].string, feedDate: row[1].string, table: row[2].string ?? "", exportDate: row[3].integer,
                mode: row[4].string, rows: row[5].integer ?? -1, repairedRows: row[6].integer ?? -1,
                skippedRows: row[7].integer ?? -1, sourcePath: row[8].string ?? "", status: row[9].string ?? "",
                message: row[10].string)
        }
    }
}
