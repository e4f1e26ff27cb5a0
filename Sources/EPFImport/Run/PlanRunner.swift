import EPFCatalogStore
import EPFFormat
import EPFInput
import Foundation

/// Options of one import run.
public struct ImportOptions: Sendable {
    /// Refuse files whose text would have to be changed to be stored
    /// (invalid UTF-8, NUL bytes) instead of repairing and counting them.
    public var strict = false
    /// Bytes per chunk read from a file.
    public var chunkSize = 8 << 20
    /// Chunks read but not yet loaded, at most: bounds memory.
    public var chunksInFlight = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
    /// Fail a compressed file or archive that has no `.md5` beside it
    /// (otherwise it is imported unverified, with a note).
    public var requireMD5 = false
    /// Apply a FULL file even when it has fewer than half the rows of the
    /// live table it replaces (otherwise the feed is refused: a cut or
    /// wrong download must not empty a catalog).
    public var allowShrink = false
    /// Table files of one feed folder loaded at once, each by its own
    /// loader on its own thread. Only for stores whose loaders may run at
    /// the same time (PostgreSQL: a connection per loader; the lake: a
    /// writer per file); SQLite's share one connection, so 1 there.
    public var parallelTables = 1
    /// Apply an INCREMENTAL file to a table the catalog does not have yet
    /// (otherwise it is refused: alone, it would make a table of one day's
    /// changes that no later FULL of an earlier date could complete).
    public var allowIncrementalWithoutFull = false
    /// Days of the change log to keep (`epf import --keep-history`): each
    /// apply deletes the changes older than this before the newest export
    /// the log holds. nil keeps every change.
    public var keepHistoryDays: Int? = 400
    /// Keep only these storefronts' rows in tables with a `storefront_id`
    /// column (`StorefrontFilter`); nil keeps every row. Recorded in the
    /// journal as the catalog's storefront set. `CatalogImport` sets it
    /// from its `storefronts` and the catalog's set.
    package var storefronts: StorefrontFilter?
    /// The run replaces the catalog's storefront set: a FULL file is then
    /// checked against its live table by all its rows, not only the kept
    /// ones (fewer storefronts than before is not a cut file). Set by
    /// `CatalogImport`, with `storefronts`.
    package var replacesStorefronts = false
    /// How rows end and fields split in the files (EPF Relational unless
    /// `epf import --flat` or `--record-separator`/`--field-separator`).
    /// Part of each load's source identity: a load resumes only when read
    /// the same way. `CatalogImport` sets it from the plan's (see
    /// `ImportPlanner.plan(paths:filter:tablePrefix:separators:extensions:)`).
    package var separators = Separators.relational
    /// Leave out the rows of an INCREMENTAL file that the table's previous
    /// INCREMENTAL file held (`RowSieve`), when the store keeps digests.
    /// Off only in the tests that check it changes nothing.
    package var leavesOutKnownRows = true

    /// The options, each as its property says (`chunksInFlight` from the
    /// number of cores); `parallelTables` at least 1.
    public init(
        strict: Bool = false, chunkSize: Int = 8 << 20, requireMD5: Bool = false, allowShrink: Bool = false,
        parallelTables: Int = 1, allowIncrementalWithoutFull: Bool = false
    ) {
        self.strict = strict
        self.chunkSize = chunkSize
        self.requireMD5 = requireMD5
        self.allowShrink = allowShrink
        self.parallelTables = max(1, parallelTables)
        self.allowIncrementalWithoutFull = allowIncrementalWithoutFull
    }
}

/// Runs an import plan against a catalog store: every file of a unit is
/// loaded and checked into staging, then the unit is applied in one
/// transaction; if any file of the unit fails, none of it is applied.
///
/// It applies every unit of the plan it is given, whatever the journal
/// says: `CatalogImport` schedules a plan against the journal first (what
/// was applied is skipped), then runs it through a `PlanRunner`. SPI
/// (`@_spi(Benchmarks) import EPFImport`): public for the benchmark
/// package, which imports the same files again and again; a user imports
/// with `CatalogImport`.
@_spi(Benchmarks)
public final class PlanRunner {
    /// The catalog the plan goes into.
    package let store: any CatalogStore
    /// How the files are read and applied.
    package let options: ImportOptions
    let events: (ImportEvent) -> Void

    /// A runner into `store` (`SQLiteCatalogStore`,
    /// `PostgresCatalogStore`).
    ///
    /// - Parameter events: what happens, as it happens (files started,
    ///   progress, applies, reports); called from the runner's threads,
    ///   one event at a time.
    public init(store: any CatalogStore, options: ImportOptions = ImportOptions(), events: @escaping (ImportEvent) -> Void = { _ in }) {
        self.store = store
        self.options = options
        // Files loading at once (parallelTables > 1) report from several
        // threads; the handler sees one event at a time.
        let lock = NSLock()
        self.events = { event in
            lock.lock()
            defer { lock.unlock() }
            events(event)
        }
    }

    /// Imports every unit of `plan`, in order, and reports every file. Once
    /// a unit of a feed fails, that feed's later units are not read
    /// (reported as blocked), so a later day never goes in before an
    /// earlier one.
    public func run(_ plan: ImportPlan) -> [FileReport] {
        var reports: [FileReport] = []
        var failedFeeds: [String: String] = [:]  // feed -> the unit that failed
        for unit in plan.units where !unit.isEmpty {
            if let feed = unit.feed?.feed, let failed = failedFeeds[feed] {
                let blocked = blockedReports(unit, because: failed)
                for report in blocked { events(.fileFinished(report)) }
                let now = Date()
                recordInJournal(blocked.map { journalEntry($0, started: now, status: .blocked, message: $0.error) })
                events(.unitFinished(path: unit.path, reports: blocked))
                reports += blocked
                continue
            }
            let unitReports = run(unit)
            if let feed = unit.feed?.feed, unitReports.contains(where: { $0.status != .applied }) {
                failedFeeds[feed] = unit.path
            }
            reports += unitReports
        }
        do {
            try store.importFinished()
        } catch {
            events(.note("warning: \(error)"))
        }
        return reports
    }

    func blockedReports(_ unit: ImportUnit, because failed: String) -> [FileReport] {
        let message =
            "blocked: \(failed) of the same feed failed; fix it and run again (a later day is never applied before an earlier one)"
        let files = unit.archive.map { [PlannedFile(path: $0.path, table: "", size: $0.size, format: $0.format)] } ?? unit.files
        return files.map { file in
            FileReport(
                path: file.path, table: file.table, feed: unit.feed?.feed, feedDate: unit.feed?.isoDate, mode: nil,
                exportDate: nil, status: .blocked, size: file.size, rows: 0, repaired: 0, skipped: 0, seconds: 0,
                counts: LoadCounts(), outcome: nil, error: message, warnings: [])
        }
    }

    /// Imports one unit: stages its files, applies them in one transaction
    /// or refuses them all, and reports each file in the order it was read.
    package func run(_ unit: ImportUnit) -> [FileReport] {
        let (staged, failures) = stageFiles(of: unit)
        let reports = failures + applyOrRefuse(staged, of: unit, failed: !failures.isEmpty)
        let ordered = inReadOrder(reports, of: unit, staged: staged)
        events(.unitFinished(path: unit.path, reports: ordered))
        return ordered
    }

    /// A file of a unit once its load is over.
    enum StagedFile {
        /// In staging: the table, the file's report, when its load started.
        case staged(StagedTable, FileReport, Date)
        /// Not staged; the report says why (and is journaled).
        case failed(FileReport)

        var report: FileReport {
            switch self {
            case .staged(_, let report, _), .failed(let report): report
            }
        }
    }

    /// Loads every file of `unit` into staging: an archive's entries as the
    /// archive is read, several tables at once when `parallelTables` allows.
    /// Returns the staged tables, in the unit's file order, and the reports
    /// of the files that failed (the archive's own, when it is damaged).
    func stageFiles(of unit: ImportUnit) -> (staged: [(StagedTable, FileReport, Date)], failures: [FileReport]) {
        var staged: [(StagedTable, FileReport, Date)] = []
        var failures: [FileReport] = []
        // Guards the two above while files load in parallel.
        let lock = NSLock()

        func stage(_ file: PlannedFile, open: () throws -> OpenedFile) {
            let result = stageFile(file, of: unit, open: open)
            lock.withLock {
                switch result {
                case .staged(let table, let report, let started): staged.append((table, report, started))
                case .failed(let report): failures.append(report)
                }
            }
            events(.fileFinished(result.report))
        }

        if let archive = unit.archive {
            do {
                let (tables, fingerprint) = try readArchive(archive, unit: unit) { file, entry in
                    stage(file) {
                        OpenedFile(
                            source: StreamChunkSource(
                                stream: entry, name: file.path, chunkSize: options.chunkSize, separators: options.separators))
                    }
                }
                // Each journal row of the archive lists all its tables, so a
                // later run knows what is left to import without reading it.
                for index in staged.indices {
                    staged[index].1.archiveTables = tables
                    staged[index].1.originHash = fingerprint
                }
            } catch {
                // The archive itself is damaged: nothing of it is applied.
                let report = FileReport(
                    path: archive.path, table: "", feed: unit.feed?.feed, feedDate: unit.feed?.isoDate, mode: nil,
                    exportDate: nil, status: .failed, size: archive.size, rows: 0, repaired: 0, skipped: 0, seconds: 0,
                    counts: LoadCounts(), outcome: nil, error: describe(error, file: archive.path), warnings: [],
                    originSize: archive.size, originMD5: archive.expectedMD5, originModified: archive.modified)
                failures.append(report)
                journalFailure(report, started: Date())
                events(.fileFinished(report))
            }
        } else if options.parallelTables > 1 && unit.files.count > 1 {
            // Several tables at once; `stage` records results under `lock`.
            inParallel(unit.files.count, width: options.parallelTables, threadName: "epf-table-loader") { index, _ in
                stage(unit.files[index]) { try open(unit.files[index]) }
            }
            // Applied (and journaled) in the unit's file order.
            let order = Dictionary(unit.files.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
            staged.sort { (order[$0.1.path] ?? 0) < (order[$1.1.path] ?? 0) }
        } else {
            for file in unit.files {
                stage(file) { try open(file) }
            }
        }
        return (staged, failures)
    }

    /// Loads one file of `unit` into staging; a failure is journaled and
    /// reported as that file's.
    func stageFile(_ file: PlannedFile, of unit: ImportUnit, open: () throws -> OpenedFile) -> StagedFile {
        let started = Date()
        let clock = ContinuousClock.now
        var report = FileReport(
            path: file.path, table: file.table, feed: unit.feed?.feed, feedDate: unit.feed?.isoDate, mode: nil, exportDate: nil,
            status: .applied, size: file.size, rows: 0, repaired: 0, skipped: 0, seconds: 0,
            counts: LoadCounts(), outcome: nil, error: nil, warnings: [],
            originSize: unit.archive?.size ?? file.size, originMD5: unit.archive?.expectedMD5 ?? file.expectedMD5,
            originModified: unit.archive?.modified ?? file.modified)
        events(.fileStarted(path: file.path, table: file.table, size: file.size))
        do {
            let opened = try open()
            let source = SourceIdentity(
                path: file.path, size: file.size, modified: report.originModified, storefronts: options.storefronts?.ids,
                separators: options.separators.isRelational ? nil : options.separators.stored)
            let table = try load(file, from: opened.source, identity: source, into: &report)
            do {
                if let fingerprint = try opened.finish() { report.originHash = fingerprint }
            } catch {
                store.discard([table])
                throw error
            }
            report.counts = table.counts
            report.seconds = seconds(since: clock)
            return .staged(table, report, started)
        } catch {
            report.status = .failed
            report.error = describe(error, file: file.path)
            report.seconds = seconds(since: clock)
            journalFailure(report, started: started)
            return .failed(report)
        }
    }

    /// Applies the staged tables of `unit` and their journal entries in one
    /// transaction, unless a file of the unit failed (`failed`) or a FULL
    /// table would shrink its live table to less than half; then it refuses
    /// them all, journaled. The reports of the staged files.
    func applyOrRefuse(_ staged: [(StagedTable, FileReport, Date)], of unit: ImportUnit, failed: Bool) -> [FileReport] {
        if failed {
            let reason = "not applied: another file of \(unit.path) failed, and a feed folder is applied whole or not at all"
            return refuse(staged, status: .notApplied, message: reason)
        }
        if let shrinking = shrinkingTable(staged.map(\.0)) {
            let (table, rows, live) = shrinking
            let failedReason =
                "\(table.target.sourceName): this FULL file has \(rows) rows but the live table \(table.target.table) has \(live): applying it would remove more than half of the table. If the export really is that small, run again with --allow-shrink; otherwise download it again"
            let failedFile = staged.filter { $0.0.stagingName == table.stagingName }
            let others = staged.filter { $0.0.stagingName != table.stagingName }
            return refuse(failedFile, status: .failed, message: failedReason)
                + refuse(
                    others, status: .notApplied,
                    message: "not applied: \(table.target.sourceName) failed, and a feed folder is applied whole or not at all")
        }
        guard !staged.isEmpty else { return [] }
        let entries = staged.map { journalEntry($0.1, started: $0.2, status: .applied, message: nil) }
        events(.applying(path: unit.path, tables: staged.count))
        do {
            let outcomes = try store.apply(staged.map(\.0), journal: entries)
            return zip(staged, outcomes).map { staged, outcome in
                var report = staged.1
                report.outcome = outcome
                return report
            }
        } catch {
            return refuse(staged, status: .failed, message: describe(error, file: unit.path))
        }
    }

    /// `reports` in the order the unit's files were read.
    func inReadOrder(_ reports: [FileReport], of unit: ImportUnit, staged: [(StagedTable, FileReport, Date)]) -> [FileReport] {
        let order = Dictionary(reports.map(\.path).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let readOrder = Dictionary(
            (unit.files.map(\.path) + staged.map(\.1.path)).enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return reports.sorted { (readOrder[$0.path] ?? order[$0.path] ?? 0) < (readOrder[$1.path] ?? order[$1.path] ?? 0) }
    }

    /// The first staged FULL table that would shrink its live table to less
    /// than half, unless shrinking is allowed: (table, new rows, live rows).
    /// Rows of other storefronts count when the run changes the catalog's
    /// storefront set (the live table holds the old set's rows).
    func shrinkingTable(_ staged: [StagedTable]) -> (StagedTable, Int, Int)? {
        guard !options.allowShrink else { return nil }
        for table in staged where table.target.header.exportMode == .full {
            let filtered = options.replacesStorefronts ? table.counts.filteredRows : 0
            let rows = table.counts.rowsRead + filtered - table.counts.duplicateKeys
            guard let live = try? store.rowCount(of: table.target.table), live > 0, rows * 2 < live else { continue }
            return (table, rows, live)
        }
        return nil
    }

    /// Drops staged tables that will not be applied and journals their files
    /// with `status`.
    func refuse(_ staged: [(StagedTable, FileReport, Date)], status: FileReport.Status, message: String) -> [FileReport] {
        store.discard(staged.map(\.0))
        let journalStatus: JournalEntry.Status = status == .notApplied ? .notApplied : .failed
        var reports: [FileReport] = []
        var entries: [JournalEntry] = []
        for (_, report, started) in staged {
            var report = report
            report.status = status
            report.error = message
            reports.append(report)
            entries.append(journalEntry(report, started: started, status: journalStatus, message: message))
        }
        recordInJournal(entries)
        return reports
    }

    /// Reads, checks and stages one file, or resumes its interrupted load.
    func load(_ file: PlannedFile, from source: any ChunkSource, identity: SourceIdentity?, into report: inout FileReport) throws
        -> StagedTable
    {
        guard var first = try source.nextChunk() else {
            throw FormatError(.emptyFile, file: file.path, byteOffset: 0, detail: "the file is empty (0 bytes)", hint: "Download it again")
        }
        // The header, from as many chunks as it takes (a chunk may end where
        // the header ends, before the first row).
        var header: EPFHeader?
        while header == nil {
            do throws(FormatError) {
                if case .header(let parsed) = try HeaderParser.parse(first.bytes, isComplete: first.isFinal, separators: options.separators)
                {
                    header = parsed
                }
            } catch var error {
                error.file = file.path
                throw error
            }
            if header == nil {
                // Not final, or the parser would have decided.
                guard let next = try source.nextChunk() else { break }
                first = first.joined(with: next)
            }
        }
        guard let header else {
            throw FormatError(
                .badHeader, file: file.path, byteOffset: 0, detail: "the file ends inside its header",
                hint: "The download was cut short; download the file again")
        }
        report.mode = header.exportMode.rawValue
        report.warnings = header.warnings
        if header.primaryKey.isEmpty && header.exportMode == .incremental {
            let declared = header.declaredPrimaryKey
            throw FormatError(
                .noKey, file: file.path, headerRow: nil, byteOffset: 0,
                detail: declared.isEmpty
                    ? "an INCREMENTAL file with no #primaryKey cannot be applied (rows are matched by key)"
                    : "an INCREMENTAL file whose key columns (\(declared.joined(separator: ", "))) are not among its columns cannot be applied",
                hint: "Import the next FULL file of this table instead")
        }
        if header.exportMode == .incremental, !options.allowIncrementalWithoutFull, try !store.hasTable(file.table) {
            throw IncrementalWithoutFull(table: file.table, feed: report.feed, feedDate: report.feedDate)
        }
        if header.columns.count > store.maximumColumns {
            throw FormatError(
                .tooManyColumns, file: file.path, headerRow: 1, byteOffset: 0,
                detail: "the header names \(header.columns.count) columns, more than a catalog table can hold (\(store.maximumColumns))",
                hint: "Real EPF tables have a few dozen columns: the header is damaged or this is not an EPF table")
        }

        var target = StagingTarget(table: file.table, header: header, sourceName: file.path, feed: report.feed, source: identity)
        target.keepHistoryDays = options.keepHistoryDays
        let loader = try store.makeLoader(for: target, strict: options.strict)
        do {
            try checkFreeSpace(for: file, mode: header.exportMode, resumingAt: loader.resumedFrom)
            if let resume = loader.resumedFrom {
                report.resumedRows = resume.counts.rowsRead
                events(
                    .note(
                        resume.staged
                            ? "resuming \(file.path): staged completely before the import stopped; not read again"
                            : "resuming \(file.path) after record \(resume.records) (byte \(resume.byteOffset)), where the import stopped"))
                events(.resumed(path: file.path))
            }
            // A resumed load keeps no digests: the rows before its
            // checkpoint were read by an earlier run.
            var sieve: RowSieve?
            var churning: Int64?
            if store.keepsRowDigests, options.leavesOutKnownRows, loader.resumedFrom == nil {
                let layout = RowSieve.layout(of: header, storefronts: options.storefronts, separators: options.separators)
                if RowSieve.keyColumns(of: header) != nil {
                    switch try store.rowDigests(of: file.table, layout: layout) {
                    case .churning: churning = layout
                    case .rows(let previous): sieve = RowSieve(header: header, layout: layout, previous: previous)
                    case nil: sieve = RowSieve(header: header, layout: layout, previous: nil)
                    }
                }
            }
            // A resumed FULL load has not seen its first rows: no digests.
            let digester =
                store.keepsRowDigests && loader.resumedFrom == nil ? ApplicationDigester(table: file.table, header: header) : nil
            if loader.resumedFrom?.staged != true {
                try stream(source, first: first, header: header, path: file.path, into: loader, sieve: sieve, digester: digester)
            }
            events(.buildingKey(path: file.path, table: file.table))
            let indexing = ContinuousClock.now
            var staged = try loader.finish()
            report.indexSeconds = seconds(since: indexing)
            staged.target = target
            if let sieve {
                staged.rowDigests = sieve.finish()
                staged.rowDigestLayout = sieve.layout
            } else if let churning {
                staged.rowDigests = .churning
                staged.rowDigestLayout = churning
            }
            staged.applicationDigests = digester?.finish()
            // Rows known from the previous day were read, not stored.
            report.rows = staged.counts.rowsRead + staged.counts.knownRows
            report.repaired = staged.counts.repairedRows
            report.skipped = staged.counts.skippedRows
            report.exportDate = staged.firstExportDate
            report.warnings += staged.counts.notes
            return staged
        } catch {
            // Out of space: keep what is committed, to resume once there is room.
            if let error = error as? CatalogError, error.kind == .full {
                loader.suspend()
            } else {
                loader.abandon()
            }
            throw error
        }
    }

    /// Refuses a file that cannot fit on the catalog's disk before loading
    /// it: about its size again (the staging table, then its key and search
    /// index), less what an interrupted load already committed and the free
    /// room the catalog holds inside (`LoadSpace.reusableBytes`), plus what
    /// the load writes beside it for a while (SQLite's write-ahead log). A
    /// compressed file's size is estimated from typical EPF ratios (bzip2
    /// 7.5x, gzip and zip 4.5x). A FULL file that replaces a live table
    /// needs all of it beside that table: the old one's room is free only
    /// once the new one is in.
    func checkFreeSpace(for file: PlannedFile, mode: ExportMode, resumingAt resume: LoadCheckpoint?) throws {
        guard resume?.staged != true, let free = store.freeBytes() else { return }
        let ratio: Double
        switch file.format {
        case .plain: ratio = 1
        case .bzip2, .tarBzip2: ratio = 7.5
        case .gzip, .tarGzip, .zip: ratio = 4.5
        }
        let remaining = max(0, Double(file.size) * ratio - Double(resume?.byteOffset ?? 0))
        let table = Int64(remaining * 1.25)
        let space = store.loadSpace()
        let reused = min(table, space.reusableBytes)
        let transient = min(table, space.transientBytes)
        let needed = table - reused + transient
        guard needed > free else { return }
        var parts = ["the table's size again, with its indexes"]
        let replacing = mode == .full && (try? store.hasTable(file.table)) == true
        if replacing { parts[0] += ", built beside the \(file.table) it replaces, whose room is free only once the new one is in" }
        if transient > 0 { parts.append("up to \(Self.size(transient)) of write-ahead log while it loads") }
        if reused > 0 { parts.append("less \(Self.size(reused)) the catalog holds free inside and fills first") }
        var hint = "Free space, or import into a catalog on a larger disk (--db); nothing of this file was applied"
        if replacing {
            hint += ". After a FULL re-import, epf compact gives the replaced tables' room back to the disk"
        }
        throw CatalogError(
            .full,
            detail:
                "not enough free disk space to load \(file.table): about \(Self.size(needed)) needed (\(parts.joined(separator: "; "))), \(Self.size(free)) free where the catalog is",
            hint: hint)
    }

    static func size(_ bytes: Int64) -> String {
        bytes >= 1_000_000_000 ? String(format: "%.1f GB", Double(bytes) / 1e9) : String(format: "%.1f MB", Double(bytes) / 1e6)
    }

    /// Parses the chunks on worker threads and hands their batches, in file
    /// order, to the loader on this thread; checks the footer.
    func stream(
        _ source: any ChunkSource, first: Chunk, header: EPFHeader, path: String, into loader: any TableLoader, sieve: RowSieve? = nil,
        digester: ApplicationDigester? = nil
    ) throws {
        var recordsBefore = 0
        var first = first
        var start = header.dataOffset
        if let resume = loader.resumedFrom {
            // Rows before the checkpoint are in staging: read past them.
            while first.fileOffset + Int64(first.bytes.count) <= resume.byteOffset, !first.isFinal, let next = try source.nextChunk() {
                first = next
            }
            guard resume.byteOffset >= first.fileOffset, resume.byteOffset <= first.fileOffset + Int64(first.bytes.count) else {
                throw FormatError(
                    .missingFooter, file: path, record: resume.records, byteOffset: first.fileOffset + Int64(first.bytes.count),
                    detail: "the file ends before byte \(resume.byteOffset), where the interrupted import had come to",
                    hint: "The file changed since; run the import again with --restart")
            }
            start = Int(resume.byteOffset - first.fileOffset)
            recordsBefore = resume.records
        }
        var footer: (count: Int, offset: Int64)?
        var lastProgress = ContinuousClock.now
        var endOffset = Int64(0)
        let pipeline = ParsePipeline(
            header: header, inFlight: options.chunksInFlight, storefronts: options.storefronts, separators: options.separators,
            sieve: sieve, digester: digester)
        try pipeline.run(source: source, first: first, start: start) { parsed in
            let chunk = parsed.chunk
            if let footer, parsed.records > 0 || chunk.bytes.count > 0 {
                throw FormatError(
                    .dataAfterFooter, file: path, record: recordsBefore + 1, byteOffset: chunk.fileOffset,
                    detail: "data follows the #recordsWritten footer at byte \(footer.offset)",
                    hint: "The file holds more than one table or was joined by hand; check the file")
            }
            digester?.add(parsed.applicationRuns)
            var sifted = 0
            for batch in parsed.batches {
                if let sieve {
                    let count = batch.count
                    let known = parsed.known.isEmpty ? [] : parsed.known[sifted..<(sifted + count)]
                    sieve.sift(batch, digests: parsed.digests[sifted..<(sifted + count)], known: known)
                    sifted += count
                }
                try loader.load(
                    batch, chunk: chunk.bytes, firstRecord: recordsBefore + batch.firstRecordInChunk + 1,
                    chunkOffset: chunk.fileOffset)
                if var fault = batch.fault {
                    fault = fault.shifted(records: recordsBefore, bytes: chunk.fileOffset)
                    fault.file = path
                    throw fault
                }
                if let count = batch.footer {
                    footer = (count, chunk.fileOffset + Int64(batch.footerOffset))
                }
            }
            sieve?.endChunk()
            recordsBefore += parsed.records
            endOffset = chunk.fileOffset + Int64(chunk.bytes.count)
            if footer == nil {
                // A record-aligned point: a killed import can resume here.
                try loader.reached(byteOffset: endOffset, records: recordsBefore)
            }
            if ContinuousClock.now - lastProgress > .milliseconds(200) {
                lastProgress = .now
                events(.progress(path: path, bytesRead: parsed.sourcePosition, totalBytes: source.knownSize, rows: recordsBefore))
            }
        }
        events(.progress(path: path, bytesRead: source.bytesRead, totalBytes: source.knownSize, rows: recordsBefore))
        guard let footer else {
            throw FormatError(
                .missingFooter, file: path, record: recordsBefore > 0 ? recordsBefore : nil, byteOffset: endOffset,
                detail: recordsBefore > 0
                    ? "the file ends after record \(recordsBefore) with no #recordsWritten footer"
                    : "the file ends after its header with no rows and no #recordsWritten footer",
                hint: "The download was cut short; download the file again")
        }
        guard footer.count == recordsBefore else {
            throw FormatError(
                .footerMismatch, file: path, byteOffset: footer.offset,
                detail: "#recordsWritten says \(footer.count) records but the file holds \(recordsBefore)",
                hint: "The file is damaged or was cut by hand; download it again")
        }
    }

    // MARK: Reporting

    func describe(_ error: any Error, file: String) -> String {
        switch error {
        case let error as FormatError: return error.description
        case let error as InputError: return error.description
        case let error as CatalogError: return "\(file): \(error.description)"
        default: return "\(file): \(error)"
        }
    }

    func journalFailure(_ report: FileReport, started: Date) {
        recordInJournal([journalEntry(report, started: started, status: .failed, message: report.error)])
    }

    /// Journals files that were not applied. The catalog's data is unchanged
    /// either way; a journal that cannot be written is said, not hidden.
    func recordInJournal(_ entries: [JournalEntry]) {
        do {
            try store.record(entries)
        } catch {
            events(.note("could not record \(entries.count) file(s) in the import journal: \(error)"))
        }
    }

    /// The journal row of a file whose load started at `started` and took
    /// `report.seconds` (its `finished_at`: the load's end, not the
    /// unit's apply, so that `epf history` gives each file's own time).
    func journalEntry(_ report: FileReport, started: Date, status: JournalEntry.Status, message: String?) -> JournalEntry {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let details = try? encoder.encode(
            JournalDetails(
                counts: report.counts, warnings: report.warnings, archiveTables: report.archiveTables,
                storefronts: options.storefronts?.ids,
                separators: options.separators.isRelational ? nil : options.separators.stored))
        return JournalEntry(
            feed: report.feed, feedDate: report.feedDate, table: report.table, exportDate: report.exportDate, mode: report.mode,
            rows: report.rows, repairedRows: report.repaired, skippedRows: report.skipped, sourcePath: report.path,
            sourceSize: report.size, startedAt: Timestamp.string(from: started, milliseconds: true),
            finishedAt: Timestamp.string(from: started.addingTimeInterval(report.seconds), milliseconds: true), status: status,
            message: message ?? (report.warnings.isEmpty ? nil : report.warnings.joined(separator: "; ")),
            details: details.map { String(decoding: $0, as: UTF8.self) }, originSize: report.originSize,
            originMD5: report.originMD5, originHash: report.originHash, originModified: report.originModified)
    }

    func seconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).inSeconds
    }
}

struct JournalDetails: Codable {
    var counts: LoadCounts
    var warnings: [String]
    /// For a feed archive's files: every table file the archive held.
    var archiveTables: [String]?
    /// The storefronts the import kept (`ImportOptions.storefronts`), which
    /// become the catalog's set (`StorefrontSet`); nil: every storefront.
    var storefronts: [Int64]?
    /// The separators the file was read with (`Separators.stored`); nil:
    /// EPF Relational's.
    var separators: String?
}
