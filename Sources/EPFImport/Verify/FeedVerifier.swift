import EPFCatalogStore
import EPFFormat
import EPFInput
import Foundation

/// Options of `epf verify`.
package struct VerifyOptions: Sendable {
    /// Count invalid UTF-8 and NUL bytes as damage (as `epf import --strict`
    /// would refuse them) instead of as repairs.
    package var strict = false
    /// Fail compressed files and archives that have no `.md5` beside them.
    package var requireMD5 = false
    /// Bytes per chunk read from a file.
    package var chunkSize = 8 << 20
    /// Where the temporary key index goes (default: the system's temporary
    /// folder). It holds the key columns of one file at a time.
    package var temporaryFolder: String?
    /// Memory for the key check: SQLite's page cache of the temporary key
    /// index, which also bounds its sorter (the rest spills to disk).
    package var keyCheckMemory = 16 << 20
    /// Repeated keys listed per file (all of them are counted).
    package var duplicateExamples = 5

    /// What the key-checking store is made with.
    package var keyCheck: KeyCheckSettings {
        KeyCheckSettings(temporaryFolder: temporaryFolder, memory: keyCheckMemory, examples: duplicateExamples)
    }

    package init(strict: Bool = false, requireMD5: Bool = false, chunkSize: Int = 8 << 20, temporaryFolder: String? = nil) {
        self.strict = strict
        self.requireMD5 = requireMD5
        self.chunkSize = chunkSize
        self.temporaryFolder = temporaryFolder
    }
}

/// What verifying one table file found.
package struct VerifyReport: Sendable, Encodable, Equatable {
    package enum Status: String, Sendable, Codable {
        /// `epf import` would store every row as it is.
        case clean
        /// `epf import` would take the file, repairing, skipping or keeping
        /// as text what the counts say.
        case repairable
        /// `epf import` would refuse the file (`error` says where and why).
        case damaged
    }

    package var path: String
    package var table: String
    package var feed: String?
    package var feedDate: String?
    /// FULL or INCREMENTAL, once the header was read.
    package var mode: String?
    package var exportDate: Int64?
    package var status: Status
    package var size: Int64
    /// Data rows read (up to the damage, for a damaged file).
    package var rows: Int
    /// Rows an import would repair (rejoined fields, U+FFFD, NUL removed).
    package var repaired: Int
    /// Rows an import would skip (earlier rows of a repeated key).
    package var skipped: Int
    /// Values an import would keep as text (not of their declared type).
    package var keptAsText: Int
    package var seconds: Double
    package var counts: LoadCounts
    /// Some of the repeated keys (`counts.duplicateKeys` counts them all).
    package var duplicateKeys: [DuplicateKey]
    /// For a damaged file: file, record or header row, byte offset, what is
    /// wrong and what to do, worded as `epf import` words it.
    package var error: String?
    /// Header warnings and repair notes.
    package var warnings: [String]

    /// The verdict on a file that went through the import's reading path.
    init(_ report: FileReport, duplicateKeys: [DuplicateKey]) {
        path = report.path
        table = report.table
        feed = report.feed
        feedDate = report.feedDate
        mode = report.mode
        exportDate = report.exportDate
        size = report.size
        rows = report.rows
        repaired = report.repaired
        skipped = report.skipped
        keptAsText = report.counts.valuesKeptAsText
        seconds = report.seconds
        counts = report.counts
        self.duplicateKeys = duplicateKeys
        warnings = report.warnings
        switch report.status {
        case .failed, .blocked:
            status = .damaged
            error = report.error
        case .applied, .notApplied:
            // Not applied only because another file of its folder is damaged:
            // this file's own verdict stands.
            let counted = report.counts
            status =
                counted.repairedRows > 0 || counted.skippedRows > 0 || counted.valuesKeptAsText > 0 || counted.commentRows > 0
                ? .repairable : .clean
            error = nil
        }
    }

    enum CodingKeys: String, CodingKey {
        case path, table, feed, feedDate, mode, exportDate, status, size, rows, repaired, skipped, keptAsText, seconds
        case counts, duplicateKeys, error, warnings
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(table, forKey: .table)
        try container.encodeIfPresent(feed, forKey: .feed)
        try container.encodeIfPresent(feedDate, forKey: .feedDate)
        try container.encodeIfPresent(mode, forKey: .mode)
        try container.encodeIfPresent(exportDate, forKey: .exportDate)
        try container.encode(status, forKey: .status)
        try container.encode(size, forKey: .size)
        try container.encode(rows, forKey: .rows)
        try container.encode(repaired, forKey: .repaired)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(keptAsText, forKey: .keptAsText)
        try container.encode(seconds.toThousandths, forKey: .seconds)
        try container.encode(counts, forKey: .counts)
        try container.encode(duplicateKeys, forKey: .duplicateKeys)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encode(warnings, forKey: .warnings)
    }
}

/// Checks table files without importing them: everything `epf import`
/// checks (header, types, field counts, UTF-8 and NUL bytes, the
/// `#recordsWritten` footer, md5 side files, archives) and key uniqueness,
/// and what it would repair.
///
/// It IS the import's reading path: an `PlanRunner` over a store that writes
/// nothing (a `KeyCheckingStore`), so a file verifies exactly as it would import,
/// with the same errors. Memory stays bounded as in an import (the chunks
/// in flight) plus the key check, which goes through a temporary on-disk
/// SQLite table of the key columns (`SQLiteKeyCheckStore`): its page cache and sorter
/// use at most about `keyCheckMemory`, whatever the file size.
package final class FeedVerifier {
    package let options: VerifyOptions
    let makeStore: (KeyCheckSettings) -> any KeyCheckingStore
    let events: (ImportEvent) -> Void

    /// - Parameters:
    ///   - makeStore: the store that checks as the target catalog would
    ///     store (`SQLiteKeyCheckStore`: keys as the SQLite catalog keeps
    ///     them).
    ///   - events: reading progress, as an import reports it
    ///     (`fileStarted`, `progress`, `buildingKey` for the key check,
    ///     `fileFinished`, `note`).
    package init(
        options: VerifyOptions = VerifyOptions(), makeStore: @escaping (KeyCheckSettings) -> any KeyCheckingStore,
        events: @escaping (ImportEvent) -> Void = { _ in }
    ) {
        self.options = options
        self.makeStore = makeStore
        self.events = events
    }

    /// Verifies every file of `plan`. Unlike an import, a damaged file
    /// blocks nothing: every unit is read.
    package func run(_ plan: ImportPlan) -> [VerifyReport] {
        let store = makeStore(options.keyCheck)
        var importOptions = ImportOptions(
            strict: options.strict, chunkSize: options.chunkSize, requireMD5: options.requireMD5, allowShrink: true,
            allowIncrementalWithoutFull: true)
        importOptions.chunksInFlight = ImportOptions().chunksInFlight
        importOptions.separators = plan.separators
        let events = self.events
        let runner = PlanRunner(store: store, options: importOptions) { event in
            switch event {
            case .applying, .unitFinished: break  // nothing is applied
            default: events(event)
            }
        }
        var reports: [VerifyReport] = []
        for unit in plan.units where !unit.isEmpty {
            for report in runner.run(unit) {
                reports.append(VerifyReport(report, duplicateKeys: store.duplicateKeys[report.path] ?? []))
            }
        }
        return reports
    }

    /// Plans `paths` as `epf import` would (download folders, feed folders,
    /// archives, table files) and verifies them.
    package func run(paths: [String], filter: TableFilter? = nil) throws(PlanError) -> [VerifyReport] {
        let all: TableFilter
        if let filter { all = filter } else { all = try TableFilter() }
        return run(try ImportPlanner.plan(paths: paths, filter: all))
    }
}
