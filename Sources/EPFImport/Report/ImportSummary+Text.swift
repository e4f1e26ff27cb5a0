import EPFCatalogStore
import EPFReport
import Foundation

/// The import summary as `--format` prints it: a table with a closing line,
/// JSON, or CSV.
extension ImportSummary: RunSummary {
    private var output: TabularOutput {
        TabularOutput(
            columns: ["table", "mode", "status", "rows", "repaired", "skipped", "seconds", "rows/s", "file"],
            rows: files.map { report in
                [
                    .text(report.table), report.mode.map { .text($0) } ?? .null, .text(report.status.rawValue),
                    .integer(Int64(report.rows)), .integer(Int64(report.repaired)), .integer(Int64(report.skipped)),
                    .text(String(format: "%.3f", report.seconds)), .integer(Int64(report.rowsPerSecond.rounded())),
                    .text(report.path),
                ]
            })
    }

    package func table() -> String {
        var text = files.isEmpty ? "" : output.render(.table)
        for report in files where report.resumedRows > 0 {
            text +=
                "resumed: \(report.path): \(Format.count(report.resumedRows)) of its \(Format.count(report.rows)) rows were loaded by an interrupted earlier import; rows/s counts the \(Format.count(report.rows - report.resumedRows)) rows of this run\n"
        }
        return text + closingLine
    }

    /// `14 file(s) applied, 0 failed, 733 rows in 0.05 s -> c.sqlite`, and
    /// what was left out.
    private var closingLine: String {
        var text =
            "\(applied) file(s) applied, \(failed) failed, \(Format.count(rowsApplied)) rows in \(String(format: "%.2f", seconds)) s -> \(catalog)"
        if rowsUnchanged > 0 {
            text += " (\(Format.count(rowsUnchanged)) the same as the catalog's but for export_date: not written)"
        }
        if rowsOfOtherStorefronts > 0 {
            text += " (\(Format.count(rowsOfOtherStorefronts)) rows of other storefronts left out: --storefront)"
        }
        return text
    }

    /// A message per file, its report as the fields (an error for a file
    /// not applied), then the closing line with the counts.
    package func messages() -> [LogMessage] {
        files.map { report in
            LogMessage(
                "\(report.table): \(report.status.rawValue): \(report.path)", level: report.status == .applied ? .info : .error,
                fields: report.logFields)
        }
            + [
                LogMessage(
                    closingLine, level: allApplied ? .info : .error,
                    fields: [
                        "event": .text("summary"), "applied": .integer(Int64(applied)), "failed": .integer(Int64(failed)),
                        "rows": .integer(Int64(rowsApplied)), "seconds": .number(seconds.toThousandths),
                        "catalog": .text(catalog),
                    ])
            ]
    }

    package func csv() -> String { output.render(.csv) }
}

extension FileReport {
    /// A file's report as a log's fields.
    package var logFields: [String: LogMessage.Value] {
        var fields: [String: LogMessage.Value] = [
            "file": .text(path), "table": .text(table), "status": .text(status.rawValue),
            "rows": .integer(Int64(rows)), "seconds": .number(seconds.toThousandths),
        ]
        if repaired > 0 { fields["repaired"] = .integer(Int64(repaired)) }
        if skipped > 0 { fields["skipped"] = .integer(Int64(skipped)) }
        if let unchanged = outcome?.unchanged, unchanged > 0 { fields["unchanged"] = .integer(Int64(unchanged)) }
        if let feed = feed { fields["feed"] = .text(feed) }
        if let date = feedDate { fields["feed_date"] = .text(date) }
        if let error { fields["error"] = .text(error) }
        return fields
    }

}
