import EPFCatalog
import EPFFormat

/// Decides which units of a plan to import, against what the journal says
/// was applied, so that a nightly run over the same download folder imports
/// only what is new and never applies an older day over a newer one.
///
/// For the feeds found in a download folder: the newest FULL of each feed,
/// then the INCREMENTAL days dated after it, in date order; older units are
/// superseded. For every unit: files the journal lists as applied (same
/// feed, date, table, size and md5) are skipped. `force` re-applies them.
public struct ImportSchedule: Sendable {
    /// A unit left out, and why.
    public struct Skip: Sendable, Equatable {
        public var unit: ImportUnit
        public var reason: String
    }

    /// The units to import, in order (files already applied removed).
    public var units: [ImportUnit]
    /// Units (or the applied part of them) left out.
    public var skipped: [Skip]
    /// What each probed unit's first file said, by unit path.
    public var probes: [String: UnitProbe]

    public init(plan: ImportPlan, applied: [AppliedFile], force: Bool) {
        var probes: [String: UnitProbe] = [:]
        func probe(_ unit: ImportUnit) -> UnitProbe? {
            if let known = probes[unit.path] { return known }
            // A file that cannot be probed fails later, with its real error.
            guard let probed = try? UnitProbe.probe(unit) else { return nil }
            probes[unit.path] = probed
            return probed
        }

        // Superseded: feeds in a download folder dated before their newest FULL.
        var superseded: [String: String] = [:]  // unit path -> reason
        var lastApplied: [String: String] = [:]  // feed -> newest applied date
        for file in applied {
            guard let feed = file.feed, let date = file.feedDate else { continue }
            lastApplied[feed] = max(lastApplied[feed] ?? "", date)
        }
        let treeUnits = plan.units.filter { $0.fromDownloadTree && $0.feed != nil }
        for feed in Set(treeUnits.map { $0.feed!.feed }) {
            let ofFeed = treeUnits.filter { $0.feed!.feed == feed }.sorted { $0.feed! < $1.feed! }
            if let newestFull = ofFeed.last(where: { probe($0)?.mode == .full }) {
                for unit in ofFeed where unit.feed!.date < newestFull.feed!.date {
                    superseded[unit.path] = "superseded by the FULL export of \(newestFull.feed!.isoDate) (\(newestFull.path))"
                }
            }
        }

        var units: [ImportUnit] = []
        var skipped: [Skip] = []
        for unit in plan.units {
            if let reason = superseded[unit.path] {
                skipped.append(Skip(unit: unit, reason: reason))
                continue
            }
            guard !force else {
                units.append(unit)
                continue
            }
            if let archive = unit.archive {
                if unit.fromDownloadTree, let feed = unit.feed, let last = lastApplied[feed.feed], feed.isoDate < last {
                    let applied = applied.contains { $0.feed == feed.feed && $0.feedDate == feed.isoDate }
                    skipped.append(Skip(
                        unit: unit,
                        reason: applied ? "already applied" : "older than the \(feed.feed) export of \(last) the catalog already has; applying it would put older rows over newer ones (--force applies it anyway)"))
                    continue
                }
                let done = applied.contains { file in
                    file.feed == unit.feed?.feed && file.feedDate == unit.feed?.isoDate && file.originSize == archive.size
                        && file.originMD5 == archive.expectedMD5
                }
                if done {
                    skipped.append(Skip(unit: unit, reason: "already applied (the journal lists this archive, same size and md5)"))
                } else {
                    units.append(unit)
                }
                continue
            }
            var remaining = unit
            remaining.files = unit.files.filter { file in
                !applied.contains { entry in
                    guard entry.table == file.table, entry.originSize == file.size, entry.originMD5 == file.expectedMD5 else {
                        return false
                    }
                    if let feed = unit.feed {
                        return entry.feed == feed.feed && entry.feedDate == feed.isoDate
                    }
                    // A bare table file: known by its first export_date.
                    return entry.feed == nil && entry.exportDate != nil && entry.exportDate == probe(unit)?.firstExportDate
                }
            }
            if remaining.files.count < unit.files.count {
                var done = unit
                done.files = unit.files.filter { !remaining.files.contains($0) }
                let what = remaining.files.isEmpty ? "already applied" : "\(done.files.count) of its files already applied"
                skipped.append(Skip(unit: done, reason: "\(what) (the journal lists the same feed, date, table, size and md5)"))
            }
            guard !remaining.isEmpty else { continue }
            if unit.fromDownloadTree, let feed = unit.feed, let last = lastApplied[feed.feed], feed.isoDate < last {
                skipped.append(Skip(
                    unit: remaining,
                    reason: "older than the \(feed.feed) export of \(last) the catalog already has; applying it would put older rows over newer ones (--force applies it anyway)"))
                continue
            }
            units.append(remaining)
        }
        self.units = units
        self.skipped = skipped
        self.probes = probes
    }

    /// The plan of the units to import.
    public func plan(notes: [String]) -> ImportPlan {
        ImportPlan(units: units, notes: notes)
    }
}
