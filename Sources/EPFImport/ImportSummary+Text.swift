import EPFCatalog
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
        text +=
            "\(applied) file(s) applied, \(failed) failed, \(Format.count(rowsApplied)) rows in \(String(format: "%.2f", seconds)) s -> \(catalog)"
        if rowsOfOtherStorefronts > 0 {
            text += " (\(Format.count(rowsOfOtherStorefronts)) rows of other storefronts left out: --storefront)"
        }
        return text
    }

    package func csv() -> String { output.render(.csv) }
}
