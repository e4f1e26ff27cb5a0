import EPFCatalog
import EPFReport
import Foundation

/// The per-file report of `epf verify`, as `--format` prints it: a table
/// with its closing lines, JSON, or CSV.
extension VerifySummary: RunSummary {
    private var output: TabularOutput {
        TabularOutput(
            columns: ["table", "mode", "status", "rows", "repaired", "skipped", "as_text", "seconds", "file", "error"],
            rows: reports.map { report in
                [
                    .text(report.table), report.mode.map { .text($0) } ?? .null, .text(report.status.rawValue),
                    .integer(Int64(report.rows)), .integer(Int64(report.repaired)), .integer(Int64(report.skipped)),
                    .integer(Int64(report.keptAsText)), .text(String(format: "%.3f", report.seconds)), .text(report.path),
                    report.error.map { .text($0) } ?? .null,
                ]
            })
    }

    package func table() -> String {
        var text = ""
        if !reports.isEmpty {
            // The errors were said as the files were read; the table stays narrow.
            var narrow = output
            narrow.columns.removeLast()
            narrow.rows = narrow.rows.map { Array($0.dropLast()) }
            text += narrow.render(.table)
        }
        for report in reports {
            for duplicate in report.duplicateKeys {
                text +=
                    "repeated key: \(report.path): (\(duplicate.key.joined(separator: ", "))) in \(duplicate.rows) rows, "
                    + "record \(duplicate.firstRecord) (byte \(duplicate.firstOffset)) to record \(duplicate.lastRecord) "
                    + "(byte \(duplicate.lastOffset)); an import keeps the last\n"
            }
            if report.counts.duplicateKeys > 0 {
                text += "repeated key: \(report.path): \(Format.count(report.counts.duplicateKeys)) row(s) in all would be skipped\n"
            }
        }
        text +=
            "\(reports.count) file(s) verified: \(count(.clean)) clean, \(count(.repairable)) repairable, "
            + "\(count(.damaged)) damaged; \(Format.count(rows)) rows in \(String(format: "%.2f", elapsed.inSeconds)) s"
        return text
    }

    package func csv() -> String { output.render(.csv) }
}
