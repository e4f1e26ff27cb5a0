import EPFCatalogStore
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

    /// A message per file, what it found as fields (a warning for a file
    /// an import would repair, an error for a damaged one), then the
    /// closing line with the counts.
    package func messages() -> [LogMessage] {
        reports.map { report in
            var fields: [String: LogMessage.Value] = [
                "file": .text(report.path), "table": .text(report.table), "status": .text(report.status.rawValue),
                "rows": .integer(Int64(report.rows)), "repaired": .integer(Int64(report.repaired)),
                "skipped": .integer(Int64(report.skipped)), "kept_as_text": .integer(Int64(report.keptAsText)),
                "repeated_keys": .integer(Int64(report.counts.duplicateKeys)), "seconds": .number(report.seconds.toThousandths),
            ]
            if let error = report.error { fields["error"] = .text(error) }
            let level: LogMessage.Level = report.status == .damaged ? .error : report.status == .repairable ? .warning : .info
            return LogMessage("\(report.table): \(report.status.rawValue): \(report.path)", level: level, fields: fields)
        }
            + [
                LogMessage(
                    closingLine, level: count(.damaged) > 0 ? .error : .info,
                    fields: [
                        "event": .text("summary"), "clean": .integer(Int64(count(.clean))),
                        "repairable": .integer(Int64(count(.repairable))), "damaged": .integer(Int64(count(.damaged))),
                        "rows": .integer(Int64(rows)), "seconds": .number(elapsed.inSeconds.toThousandths),
                    ])
            ]
    }

    /// `3 file(s) verified: 2 clean, 1 repairable, 0 damaged; 733 rows in 0.05 s`.
    private var closingLine: String {
        "\(reports.count) file(s) verified: \(count(.clean)) clean, \(count(.repairable)) repairable, "
            + "\(count(.damaged)) damaged; \(Format.count(rows)) rows in \(String(format: "%.2f", elapsed.inSeconds)) s"
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
        return text + closingLine
    }

    package func csv() -> String { output.render(.csv) }
}
