import EPFCatalogStore
import EPFFormat

/// Decides which units of a plan to import, against what the journal says
/// was applied, so that a nightly run over the same download folder imports
/// only what is new and never applies an older day over a newer one.
///
/// For the feeds found in a download folder: the newest FULL of each feed,
/// then the INCREMENTAL days dated after it, in date order; older units are
/// superseded. For every unit: files the journal lists as applied (same
/// feed, date and table, and the same download by `DownloadIdentity`: size,
/// then modification time or md5) are skipped. `force` re-applies them.
package struct ImportSchedule: Sendable {
    /// A unit left out, and why.
    package struct Skip: Sendable, Equatable {
        /// What is left out: the whole unit, or (`partial`) some of its files.
        package var unit: ImportUnit
        package var reason: String
        /// Whether other files of the unit are still imported.
        package var partial = false
        /// For an archive: the tables wanted of it, when the journal knows
        /// what it holds.
        package var archiveTables: Int? = nil

        /// The table files left out (an archive whose tables are not known
        /// counts as one).
        package var fileCount: Int { unit.archive == nil ? unit.files.count : archiveTables ?? 1 }

        /// The unit's path, with the tables left out when only some are:
        /// `itunes20261101 (tables application, genre)`.
        package var what: String {
            partial ? "\(unit.path) (tables \(unit.files.map(\.table).joined(separator: ", ")))" : unit.path
        }
    }

    /// The units to import, in order (files already applied removed).
    package var units: [ImportUnit]
    /// Units (or the applied part of them) left out.
    package var skipped: [Skip]
    /// What each probed unit's first file said, by unit path.
    package var probes: [String: UnitProbe]
    /// How the plan's files are read (`ImportPlan.separators`).
    package var separators: Separators
    /// Journal rows whose download was found with a new modification time
    /// but the same md5: give them to `CatalogStore.confirmUnchanged`, so
    /// the next run need not read the file again.
    package var unchangedDownloads: [(id: Int64, modified: Int64)]

    package init(plan: ImportPlan, applied: [AppliedFile], force: Bool) {
        let fingerprints = FingerprintCache()
        var probes: [String: UnitProbe] = [:]
        func probe(_ unit: ImportUnit) -> UnitProbe? {
            if let known = probes[unit.path] { return known }
            // A file that cannot be probed fails later, with its real error.
            guard let probed = try? UnitProbe.probe(unit, separators: plan.separators) else { return nil }
            probes[unit.path] = probed
            return probed
        }

        let superseded = Self.superseded(plan.units, probe: probe)
        var newest = NewestDays(applied: applied, force: force)
        var units: [ImportUnit] = []
        var skipped: [Skip] = []
        for unit in plan.units {
            if let reason = superseded[unit.path] {
                skipped.append(Skip(unit: unit, reason: reason))
                continue
            }
            let (remaining, skips) =
                unit.archive != nil
                ? Self.scheduleArchive(unit, applied: applied, force: force, fingerprints: fingerprints, newest: &newest)
                : Self.scheduleFiles(
                    unit, applied: applied, force: force, fingerprints: fingerprints, probe: { probe(unit) }, newest: &newest)
            skipped += skips
            if let remaining { units.append(remaining) }
        }
        self.units = units
        self.skipped = skipped
        self.probes = probes
        separators = plan.separators
        self.unchangedDownloads = fingerprints.unchanged.sorted { $0.key < $1.key }.map { (id: $0.key, modified: $0.value) }
    }

    struct TableKey: Hashable {
        var feed: String
        var table: String
    }

    /// The units of a download folder dated before their feed's newest
    /// FULL, by path, with the reason they are superseded.
    static func superseded(_ units: [ImportUnit], probe: (ImportUnit) -> UnitProbe?) -> [String: String] {
        var superseded: [String: String] = [:]
        let treeUnits = units.filter { $0.fromDownloadTree && $0.feed != nil }
        for (index, full) in FeedSupersession.superseded(treeUnits, feed: { $0.feed! }, isFull: { probe($0)?.mode == .full }) {
            let newestFull = treeUnits[full]
            superseded[treeUnits[index].path] = "superseded by the FULL export of \(newestFull.feed!.isoDate) (\(newestFull.path))"
        }
        return superseded
    }

    /// The newest day of each catalog table, per feed: applied before, or
    /// scheduled earlier in this run. A day older than that is never
    /// applied over it (per table: an earlier --include, --table-prefix or
    /// single file must not hold back the other tables).
    struct NewestDays {
        var newest: [TableKey: String] = [:]
        /// `--force`: an older day is applied anyway.
        let force: Bool

        init(applied: [AppliedFile], force: Bool) {
            self.force = force
            for file in applied {
                guard let feed = file.feed, let date = file.feedDate else { continue }
                let key = TableKey(feed: feed, table: file.table)
                newest[key] = max(newest[key] ?? "", date)
            }
        }

        /// Why `table` of `feed`'s day must not be applied, if it is older
        /// than the table's newest day.
        func olderReason(_ feed: FeedName, table: String) -> String? {
            guard !force, let last = newest[TableKey(feed: feed.feed, table: table)], feed.isoDate < last else { return nil }
            return
                "older than the \(feed.feed) export of \(last) that \(table) already has; applying it would put older rows over newer ones (--force applies it anyway)"
        }

        /// `table` of `feed`'s day is scheduled: it is the table's newest.
        mutating func schedule(_ feed: FeedName, table: String) {
            newest[TableKey(feed: feed.feed, table: table)] = feed.isoDate
        }
    }

    /// An archive unit: what is left of it to import (the tables the
    /// journal lists as applied from this very archive are skipped while
    /// it is read), or, when it is left out, why: every table wanted of it
    /// is in, or one is older than its table's newest day.
    static func scheduleArchive(
        _ unit: ImportUnit, applied: [AppliedFile], force: Bool, fingerprints: FingerprintCache, newest: inout NewestDays
    ) -> (remaining: ImportUnit?, skips: [Skip]) {
        // What the journal lists as applied from this very archive.
        guard let archive = unit.archive else { return (unit, []) }
        let identity = DownloadIdentity(archive)
        let fromArchive = applied.filter { file in
            file.feed == unit.feed?.feed && file.feedDate == unit.feed?.isoDate && identity.matches(file, fingerprints: fingerprints)
        }
        var remaining = unit
        if !force { remaining.skipTables = Set(fromArchive.map(\.table)) }
        // Known contents: skip the archive when every table wanted of it is in.
        if !force, let contents = fromArchive.compactMap(\.archiveTables).first {
            let wanted = contents.filter { unit.filter?.accepts($0) ?? true }.map { unit.tablePrefix + $0 }
            let left = wanted.filter { !remaining.skipTables.contains($0) }
            if left.isEmpty {
                return (
                    nil,
                    [
                        Skip(
                            unit: unit, reason: "already applied (the journal lists every table of this archive, with the same content)",
                            archiveTables: wanted.count)
                    ]
                )
            }
            let days = newest
            if let feed = unit.feed, let reason = left.lazy.compactMap({ days.olderReason(feed, table: $0) }).first {
                return (nil, [Skip(unit: unit, reason: reason, archiveTables: wanted.count)])
            }
            for table in left { newest.schedule(unit.feed!, table: table) }
        }
        return (remaining, [])
    }

    /// A unit of table files: what is left of it to import (nil when
    /// nothing), and the skips of its files the journal lists as applied
    /// and of those older than their table's newest day.
    static func scheduleFiles(
        _ unit: ImportUnit, applied: [AppliedFile], force: Bool, fingerprints: FingerprintCache, probe: () -> UnitProbe?,
        newest: inout NewestDays
    ) -> (remaining: ImportUnit?, skips: [Skip]) {
        var remaining = unit
        var older: [(PlannedFile, String)] = []
        remaining.files = unit.files.filter { file in
            if !force,
                applied.contains(where: { entry in
                    Self.isApplied(file, unit: unit, entry: entry, probe: probe, fingerprints: fingerprints)
                })
            {
                return false
            }
            if let feed = unit.feed, let reason = newest.olderReason(feed, table: file.table) {
                older.append((file, reason))
                return false
            }
            return true
        }
        var skips: [Skip] = []
        let done = unit.files.filter { file in !remaining.files.contains(file) && !older.contains { $0.0 == file } }
        if !done.isEmpty {
            var doneUnit = unit
            doneUnit.files = done
            let what = done.count == unit.files.count ? "already applied" : "\(done.count) of its files already applied"
            skips.append(
                Skip(
                    unit: doneUnit, reason: "\(what) (the journal lists the same feed, date and table, with the same content)",
                    partial: done.count < unit.files.count))
        }
        if let (_, reason) = older.first {
            var olderUnit = unit
            olderUnit.files = older.map(\.0)
            skips.append(Skip(unit: olderUnit, reason: reason, partial: older.count < unit.files.count))
        }
        guard !remaining.isEmpty else { return (nil, skips) }
        if let feed = unit.feed {
            for file in remaining.files { newest.schedule(feed, table: file.table) }
        }
        return (remaining, skips)
    }

    /// Whether the journal entry `entry` is `file` of `unit` applied before:
    /// the same feed, date and table, and the same download
    /// (`DownloadIdentity`); a bare table file (no feed in its folder's
    /// name) is known by its first `export_date`.
    static func isApplied(
        _ file: PlannedFile, unit: ImportUnit, entry: AppliedFile, probe: () -> UnitProbe?, fingerprints: FingerprintCache
    ) -> Bool {
        guard entry.table == file.table else { return false }
        if let feed = unit.feed {
            guard entry.feed == feed.feed && entry.feedDate == feed.isoDate else { return false }
        } else {
            guard entry.feed == nil && entry.exportDate != nil && entry.exportDate == probe()?.firstExportDate else { return false }
        }
        return DownloadIdentity(file).matches(entry, fingerprints: fingerprints)
    }

    /// The plan of the units to import.
    package func plan(notes: [String]) -> ImportPlan {
        ImportPlan(units: units, notes: notes, separators: separators)
    }
}
