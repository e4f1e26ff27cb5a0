import EPFCatalogStore
import EPFReport

extension ImportSchedule {
    /// What `epf import --dry-run` prints: every unit of the plan, in the
    /// order it would go, with what would happen to it and why.
    package var listing: TabularOutput {
        var rows: [[SQLValue]] = []
        func row(_ action: String, _ unit: ImportUnit, _ reason: String?) -> [SQLValue] {
            let probe = probes[unit.path]
            let files = unit.archive != nil ? "archive" : "\(unit.files.count)"
            return [
                .text(action), unit.feed.map { .text($0.feed) } ?? .null, unit.feed.map { .text($0.isoDate) } ?? .null,
                probe.map { .text($0.mode.rawValue) } ?? .null, .text(files), .text(unit.path), reason.map { .text($0) } ?? .null,
            ]
        }
        for unit in units { rows.append(row("import", unit, nil)) }
        for skip in skipped { rows.append(row("skip", skip.unit, skip.reason)) }
        return TabularOutput(columns: ["action", "feed", "date", "mode", "files", "path", "reason"], rows: rows)
    }
}
