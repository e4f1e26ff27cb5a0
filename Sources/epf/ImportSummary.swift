import EPFCatalog
import EPFImport
import Foundation

/// The per-file summary of an import, as a table, JSON or CSV.
struct ImportSummary {
    var reports: [FileReport]
    var catalog: String
    var elapsed: Duration

    var applied: Int { reports.filter { $0.status == .applied }.count }
    var failed: Int { reports.filter { $0.status == .failed }.count }

    private var output: TabularOutput {
        TabularOutput(
            columns: ["table", "mode", "status", "rows", "repaired", "skipped", "seconds", "rows/s", "file"],
            rows: reports.map { report in
                [
                    .text(report.table), report.mode.map { .text($0) } ?? .null, .text(report.status.rawValue),
                    .integer(Int64(report.rows)), .integer(Int64(report.repaired)), .integer(Int64(report.skipped)),
                    .text(String(format: "%.3f", report.seconds)), .integer(Int64(report.rowsPerSecond.rounded())),
                    .text(report.path),
                ]
            })
    }

    func table() -> String {
        var text = reports.isEmpty ? "" : output.render(.table)
        let rows = reports.filter { $0.status == .applied }.reduce(0) { $0 + $1.rows }
        for report in reports where report.resumedRows > 0 {
            text += "resumed: \(report.path): \(Format.count(report.resumedRows)) of its \(Format.count(report.rows)) rows were loaded by an interrupted earlier import; rows/s counts the \(Format.count(report.rows - report.resumedRows)) rows of this run\n"
        }
        text += "\(applied) file(s) applied, \(failed) failed, \(Format.count(rows)) rows in \(String(format: "%.2f", Format.seconds(elapsed))) s -> \(catalog)"
        let filtered = reports.filter { $0.status == .applied }.reduce(0) { $0 + $1.counts.filteredRows }
        if filtered > 0 { text += " (\(Format.count(filtered)) rows of other storefronts left out: --storefront)" }
        return text
    }

    func csv() -> String { output.render(.csv) }

    func json() -> String {
        struct Document: Encodable {
            var catalog: String
            var seconds: Double
            var applied: Int
            var failed: Int
            var files: [FileReport]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(
            catalog: catalog, seconds: (Format.seconds(elapsed) * 1000).rounded() / 1000, applied: applied, failed: failed,
            files: reports)
        return String(decoding: (try? encoder.encode(document)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }
}
