import EPFCatalog
@_spi(Benchmarks) import EPFImport
import EPFInput
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// Runs a shell command (the system's tar, bzip2, gzip, md5sum) in `folder`;
/// fails the test with its output when it fails.
@discardableResult
func shell(_ command: String, in folder: URL) throws -> String {
    let run = try runShell(command, in: folder, withStandardError: true)
    let output = String(decoding: run.output, as: UTF8.self)
    guard run.status == 0 else {
        throw RawSQLiteError(description: "`\(command)` failed (\(run.status)): \(output)")
    }
    return output
}

/// Plans `paths`, schedules them against the catalog's journal and imports
/// what the schedule keeps, as `epf import` does.
func runScheduledImport(
    _ paths: [String], catalog: String, options: ImportOptions = ImportOptions(), force: Bool = false,
    include: [String] = [], tablePrefix: String = ""
) throws -> (schedule: ImportSchedule, reports: [FileReport]) {
    let store = try SQLiteCatalogStore(path: catalog)
    let plan = try ImportPlanner.plan(paths: paths, filter: try TableFilter(include: include), tablePrefix: tablePrefix)
    let schedule = ImportSchedule(plan: plan, applied: try store.appliedFiles(), force: force)
    return (schedule, PlanRunner(store: store, options: options).run(schedule.plan(notes: plan.notes)))
}

/// Download folders: feeds found at any depth, applied newest FULL first then
/// the INCREMENTAL days after it, nothing applied twice; archives of every
/// kind give the same catalog as the extracted folders.
@Suite("Download folders and archives")
struct DownloadFolderTests {
    static let allFeeds = SampleFeedsTests.feeds

    /// A download folder laid out like Apple's: fulls under `current/`,
    /// incrementals under `incremental/`.
    static func downloads(_ feeds: [String], in folder: URL) throws -> URL {
        let root = folder.appendingPathComponent("downloads", isDirectory: true)
        for feed in feeds {
            let place = root.appendingPathComponent(feed == "itunes20261102" ? "incremental" : "current", isDirectory: true)
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            _ = try copyFeed(feed, into: place)
        }
        return root
    }

    @Test("A download folder imports each feed in date order and equals the reference")
    func downloadFolderEqualsTheReference() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(Self.allFeeds, in: folder)
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (schedule, reports) = try runScheduledImport([root.path], catalog: catalog)
            #expect(
                schedule.units.map { URL(fileURLWithPath: $0.path).lastPathComponent }
                    == ["itunes20261101", "popularity20261101", "pricing20261101", "itunes20261102"])
            #expect(schedule.skipped.isEmpty)
            #expect(reports.count == 14)
            #expect(reports.allSatisfy { $0.status == .applied })
            try SampleFeedsTests.expectCatalog(at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: Self.allFeeds))
        }
    }

    @Test("Running the same import again imports nothing; a new day imports only that day")
    func secondRunAndNewIncremental() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(Array(Self.allFeeds.prefix(3)), in: folder)
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let first = try runScheduledImport([root.path], catalog: catalog)
            #expect(first.reports.count == 11)
            let journalAfterFirst = try JournalRow.all(in: catalog)

            let second = try runScheduledImport([root.path], catalog: catalog)
            #expect(second.schedule.units.isEmpty)
            #expect(second.reports.isEmpty)
            #expect(second.schedule.skipped.count == 3)
            #expect(second.schedule.skipped.allSatisfy { $0.reason.hasPrefix("already applied") })
            #expect(try JournalRow.all(in: catalog) == journalAfterFirst)

            // The next day's incremental arrives.
            let incremental = root.appendingPathComponent("incremental", isDirectory: true)
            try FileManager.default.createDirectory(at: incremental, withIntermediateDirectories: true)
            _ = try copyFeed("itunes20261102", into: incremental)
            let third = try runScheduledImport([root.path], catalog: catalog)
            #expect(third.schedule.units.map(\.path) == [incremental.appendingPathComponent("itunes20261102").path])
            #expect(third.reports.map(\.table) == ["application", "application_detail", "genre_application"])
            #expect(third.reports.allSatisfy { $0.status == .applied })
            try SampleFeedsTests.expectCatalog(at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: Self.allFeeds))

            // --force applies everything again, to the same catalog.
            let forced = try runScheduledImport([root.path], catalog: catalog, force: true)
            #expect(forced.reports.count == 14)
            try SampleFeedsTests.expectCatalog(at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: Self.allFeeds))
        }
    }

    @Test("Days before the newest FULL are superseded; a day older than the catalog's is not applied")
    func supersededAndOlderDays() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(["itunes20261101", "itunes20261102"], in: folder)
            // A newer full: the same files under a later date.
            try FileManager.default.copyItem(
                at: root.appendingPathComponent("current/itunes20261101"), to: root.appendingPathComponent("current/itunes20261108"))
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (schedule, reports) = try runScheduledImport([root.path], catalog: catalog)
            #expect(schedule.units.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["itunes20261108"])
            #expect(schedule.skipped.count == 2)
            #expect(schedule.skipped.allSatisfy { $0.reason.contains("superseded by the FULL export of 2026-11-08") })
            #expect(reports.count == 9 && reports.allSatisfy { $0.status == .applied })

            // The older incremental on its own, in a new download folder: older than the catalog.
            let late = folder.appendingPathComponent("late", isDirectory: true)
            try FileManager.default.createDirectory(at: late, withIntermediateDirectories: true)
            _ = try copyFeed("itunes20261102", into: late)
            let again = try runScheduledImport([late.path], catalog: catalog)
            #expect(again.schedule.units.isEmpty)
            #expect(again.schedule.skipped.first?.reason.contains("older than the itunes export of 2026-11-08") == true)
        }
    }

    @Test("A failed day blocks the later days of its feed, not other feeds")
    func failedDayBlocksLaterDays() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(["itunes20261101", "itunes20261102", "pricing20261101"], in: folder)
            let incremental = root.appendingPathComponent("incremental")
            try FileManager.default.copyItem(
                at: incremental.appendingPathComponent("itunes20261102"), to: incremental.appendingPathComponent("itunes20261103"))
            // Cut the 2nd's application file short: no footer.
            let damaged = incremental.appendingPathComponent("itunes20261102/application")
            let bytes = try fileBytes(damaged)
            try write(Array(bytes.prefix(bytes.count - 30)), to: damaged)

            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (_, reports) = try runScheduledImport([root.path], catalog: catalog)
            let byFeedDay = Dictionary(grouping: reports) { $0.feed! + ($0.feedDate ?? "") }
            #expect(byFeedDay["itunes2026-11-01"]?.allSatisfy { $0.status == .applied } == true)
            #expect(byFeedDay["pricing2026-11-01"]?.allSatisfy { $0.status == .applied } == true)
            let second = byFeedDay["itunes2026-11-02"] ?? []
            #expect(second.first { $0.table == "application" }?.status == .failed)
            #expect(second.filter { $0.table != "application" }.allSatisfy { $0.status == .notApplied })
            let third = byFeedDay["itunes2026-11-03"] ?? []
            #expect(third.count == 3)
            #expect(third.allSatisfy { $0.status == .blocked })
            #expect(third.first?.error?.contains("itunes20261102 of the same feed failed") == true)
            // Only the full is in: the catalog equals the reference after it (and pricing).
            try SampleFeedsTests.expectCatalog(
                at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: ["itunes20261101", "pricing20261101"]))
        }
    }

    @Test("A FULL that would shrink a table by more than half is refused unless allowed")
    func shrinkingFullIsRefused() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            _ = try runScheduledImport([SampleFeeds.path("itunes20261101")], catalog: catalog)
            let before = try CatalogSnapshot(path: catalog)
            let small = folder.appendingPathComponent("itunes20261108", isDirectory: true)
            try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
            try write(
                tableFileBytes(
                    columns: ["export_date", "storefront_id", "country_code", "name"],
                    types: ["BIGINT", "INTEGER", "VARCHAR(10)", "VARCHAR(200)"],
                    key: ["storefront_id"], mode: "FULL", rows: [["1793491200000", "143441", "USA", "United States"]]),
                to: small.appendingPathComponent("storefront"))
            let refused = try runScheduledImport([small.path], catalog: catalog)
            #expect(refused.reports.count == 1)
            #expect(refused.reports[0].status == .failed)
            #expect(refused.reports[0].error?.contains("has 1 rows but the live table storefront has 7") == true)
            #expect(refused.reports[0].error?.contains("--allow-shrink") == true)
            #expect(try CatalogSnapshot(path: catalog).tables == before.tables)

            let allowed = try runScheduledImport([small.path], catalog: catalog, options: ImportOptions(allowShrink: true))
            #expect(allowed.reports.first?.status == .applied)
            #expect(try RawSQLiteReader(path: catalog).rows("SELECT count(*) FROM storefront") == [[.integer(1)]])
        }
    }

    @Test("Partial downloads and stray files are ignored with a note")
    func partialDownloadsAreIgnored() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(["itunes20261101"], in: folder)
            try write(Array("half".utf8), to: root.appendingPathComponent("current/itunes20261102.tbz.part"))
            try write(Array("half".utf8), to: root.appendingPathComponent("current/itunes20261101/application_price.crdownload"))
            let plan = try ImportPlanner.plan(paths: [root.path], filter: try TableFilter())
            #expect(plan.units.count == 1)
            #expect(plan.units[0].files.count == 9)
            #expect(plan.notes.contains { $0.hasSuffix("itunes20261102.tbz.part: a partial download: ignored") })
            #expect(plan.notes.contains { $0.hasSuffix("application_price.crdownload: a partial download: ignored") })
        }
    }

    // MARK: Archives

    /// How a feed is shipped, and the shell command that makes it from the
    /// extracted folder `feed` in the current folder.
    enum Packing: String, CaseIterable, CustomTestStringConvertible {
        case feedTbz, feedTarGz, feedZip, tableTbz, tableGz, tableBz2, tableZip
        var testDescription: String { rawValue }

        func pack(_ feed: String) -> String {
            switch self {
            case .feedTbz: return "tar -cjf \(feed).tbz \(feed) && md5sum \(feed).tbz > \(feed).tbz.md5 && rm -r \(feed)"
            case .feedTarGz: return "tar -czf \(feed).tar.gz \(feed) && rm -r \(feed)"
            case .tableTbz:
                // Apple's per-table layout, with BSD-style md5 files.
                return
                    "cd \(feed) && for t in *; do tar -cjf $t.tbz $t && echo \"MD5 ($t.tbz) = $(md5sum < $t.tbz | cut -c1-32)\" > $t.tbz.md5 && rm $t; done"
            case .feedZip:
                // Apple's zip name carries an hour: itunes2026110100.zip.
                return
                    "mv \(feed) \(feed)00 && zip -qr \(feed)00.zip \(feed)00 && md5sum \(feed)00.zip > \(feed)00.zip.md5 && rm -r \(feed)00"
            case .tableZip: return "cd \(feed) && for t in *; do zip -q $t.zip $t && rm $t; done"
            case .tableGz: return "gzip \(feed)/*"
            case .tableBz2: return "bzip2 \(feed)/*"
            }
        }
    }

    @Test("Archives of every kind give the catalog of the extracted folders", arguments: Packing.allCases)
    func archivesEqualTheReference(packing: Packing) throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(Self.allFeeds, in: folder)
            for feed in Self.allFeeds {
                let place = root.appendingPathComponent(feed == "itunes20261102" ? "incremental" : "current")
                try shell(packing.pack(feed), in: place)
            }
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (schedule, reports) = try runScheduledImport([root.path], catalog: catalog)
            #expect(schedule.units.count == 4)
            #expect(reports.count == 14)
            for report in reports where report.status != .applied {
                Issue.record("\(report.path): \(report.status): \(report.error ?? "")")
            }
            try SampleFeedsTests.expectCatalog(at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: Self.allFeeds))
            // And nothing the second time.
            let again = try runScheduledImport([root.path], catalog: catalog)
            #expect(again.schedule.units.isEmpty)
        }
    }

    @Test("A wrong md5 fails the archive and applies nothing of it")
    func wrongMD5FailsTheArchive() throws {
        try withTemporaryFolder { folder in
            _ = try copyFeed("itunes20261101", into: folder)
            try shell(
                "tar -cjf itunes20261101.tbz itunes20261101 && echo '0123456789abcdef0123456789abcdef  itunes20261101.tbz' > itunes20261101.tbz.md5",
                in: folder)
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (_, reports) = try runScheduledImport([folder.appendingPathComponent("itunes20261101.tbz").path], catalog: catalog)
            #expect(!reports.isEmpty)
            #expect(reports.allSatisfy { $0.status != .applied })
            let failure = reports.first { $0.status == .failed }
            #expect(failure?.error?.contains("md5 mismatch") == true)
            #expect(failure?.error?.contains("itunes20261101.tbz") == true)
            #expect(try RawSQLiteReader(path: catalog).liveTables().isEmpty)
        }
    }

    @Test("A missing md5 is a note, or an error with requireMD5")
    func missingMD5() throws {
        try withTemporaryFolder { folder in
            _ = try copyFeed("itunes20261101", into: folder)
            try shell("tar -cjf itunes20261101.tbz itunes20261101", in: folder)
            let archive = folder.appendingPathComponent("itunes20261101.tbz").path
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let required = try runScheduledImport([archive], catalog: catalog, options: ImportOptions(requireMD5: true))
            #expect(required.reports.count == 1)
            #expect(required.reports[0].status == .failed)
            #expect(required.reports[0].error?.contains("--require-md5") == true)
            let plain = try runScheduledImport([archive], catalog: catalog)
            #expect(plain.reports.count == 9 && plain.reports.allSatisfy { $0.status == .applied })
        }
    }

    @Test("A corrupt archive fails with the archive's name; the rest of the plan goes on")
    func corruptArchive() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(["itunes20261101", "pricing20261101"], in: folder)
            let current = root.appendingPathComponent("current")
            try shell("tar -cjf itunes20261101.tbz itunes20261101 && rm -r itunes20261101", in: current)
            let archive = current.appendingPathComponent("itunes20261101.tbz")
            var bytes = try fileBytes(archive)
            bytes[bytes.count / 2] ^= 0xFF
            try write(bytes, to: archive)
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (_, reports) = try runScheduledImport([root.path], catalog: catalog)
            let itunes = reports.filter { $0.feed == "itunes" }
            #expect(!itunes.isEmpty && itunes.allSatisfy { $0.status != .applied })
            #expect(itunes.contains { $0.status == .failed && ($0.error ?? "").contains("itunes20261101.tbz") })
            #expect(reports.filter { $0.feed == "pricing" }.map(\.status) == [.applied])
            #expect(try RawSQLiteReader(path: catalog).liveTables() == ["application_price"])
        }
    }

    // MARK: Runs that differ from the last one

    @Test(
        "Tables left out by --include in an earlier run are imported by a later run, folders and archives alike", arguments: [false, true])
    func includeThenEverything(archives: Bool) throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(["itunes20261101", "itunes20261102"], in: folder)
            if archives {
                try shell(Packing.feedTbz.pack("itunes20261101"), in: root.appendingPathComponent("current"))
                try shell(Packing.feedTbz.pack("itunes20261102"), in: root.appendingPathComponent("incremental"))
            }
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let first = try runScheduledImport([root.path], catalog: catalog, include: ["application"])
            #expect(first.reports.map(\.table) == ["application", "application"])
            let second = try runScheduledImport([root.path], catalog: catalog)
            #expect(second.reports.allSatisfy { $0.status == .applied })
            #expect(!second.reports.contains { $0.table == "application" }, "application was applied already")
            try SampleFeedsTests.expectCatalog(
                at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: ["itunes20261101", "itunes20261102"]))
            let third = try runScheduledImport([root.path], catalog: catalog)
            #expect(third.schedule.units.isEmpty)
        }
    }

    @Test("Download folders named in any order are applied in date order")
    func downloadFoldersInAnyOrder() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(Self.allFeeds, in: folder)
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (schedule, reports) = try runScheduledImport(
                [root.appendingPathComponent("incremental").path, root.appendingPathComponent("current").path], catalog: catalog)
            #expect(schedule.units.last?.path.hasSuffix("incremental/itunes20261102") == true)
            #expect(reports.count == 14 && reports.allSatisfy { $0.status == .applied })
            try SampleFeedsTests.expectCatalog(at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: Self.allFeeds))
        }
    }

    @Test("An older day named after a newer one is not applied over it")
    func olderFullAfterNewerDay() throws {
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            _ = try runScheduledImport([SampleFeeds.path("itunes20261101"), SampleFeeds.path("itunes20261102")], catalog: catalog)
            let again = try runScheduledImport([SampleFeeds.path("itunes20261101")], catalog: catalog, force: false)
            #expect(again.reports.isEmpty)
            try SampleFeedsTests.expectCatalog(
                at: catalog, equals: try SampleFeedsTests.referenceCatalog(after: ["itunes20261101", "itunes20261102"]))
        }
    }

    @Test("A second file for one table is noted and passed over; a stray file beside the feeds is noted")
    func duplicateTablesAndStrayFiles() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(["itunes20261101"], in: folder)
            try shell("bzip2 -k genre", in: root.appendingPathComponent("current/itunes20261101"))
            try write(Array("2026-11-23".utf8), to: root.appendingPathComponent("last_run"))
            let plan = try ImportPlanner.plan(paths: [root.path], filter: try TableFilter())
            #expect(plan.units.count == 1 && plan.units[0].files.count == 9)
            #expect(plan.notes.contains { $0.contains("genre.bz2: a second file for table genre") })
            #expect(
                plan.notes.contains {
                    $0.hasSuffix("last_run: a table file outside a feed folder: ignored (name it on its own to import it)")
                })
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (_, reports) = try runScheduledImport([root.path], catalog: catalog)
            #expect(reports.count == 9 && reports.allSatisfy { $0.status == .applied })
        }
    }

    @Test("An unreadable .md5 fails its archive only; blocked days are journaled")
    func badSideFileFailsOnlyItsFeed() throws {
        try withTemporaryFolder { folder in
            let root = try Self.downloads(["itunes20261101", "itunes20261102", "pricing20261101"], in: folder)
            try shell(Packing.feedTbz.pack("itunes20261101"), in: root.appendingPathComponent("current"))
            try write(Array("<html>not found</html>".utf8), to: root.appendingPathComponent("current/itunes20261101.tbz.md5"))
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let (_, reports) = try runScheduledImport([root.path], catalog: catalog)
            #expect(reports.first { $0.feed == "itunes" }?.status == .failed)
            #expect(reports.first { $0.feed == "itunes" }?.error?.contains(".md5 side file is unusable") == true)
            #expect(reports.filter { $0.feedDate == "2026-11-02" }.allSatisfy { $0.status == .blocked })
            #expect(reports.filter { $0.feed == "pricing" }.map(\.status) == [.applied])
            let journal = try JournalRow.all(in: catalog)
            #expect(journal.filter { $0.status == "blocked" }.count == 3)
        }
    }
}
