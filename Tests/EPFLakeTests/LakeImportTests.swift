import EPFTestSupport
import Foundation
import Testing

/// `epf import --lake DIR` run as a user runs it, the lake then read by
/// DuckDB and pyarrow and compared with the SQLite catalog of the same
/// import.
@Suite struct LakeImportTests {
    let folder: URL

    init() throws { folder = try TemporaryFolder.create("epf-lake") }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func run(_ arguments: [String]) throws -> EPFRunner.Result { try EPFRunner.run(arguments, in: folder) }

    /// Every file under `root`, with its size and modification time,
    /// but the import lock (which each import rewrites with its pid).
    func snapshot(_ root: String) throws -> [String: String] {
        var files: [String: String] = [:]
        let manager = FileManager.default
        for case let relative as String in manager.enumerator(atPath: root)! where relative != "_epf/import.lock" {
            let attributes = try manager.attributesOfItem(atPath: root + "/" + relative)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            files[relative] = "\(attributes[.size] ?? 0) \(modified)"
        }
        return files
    }

    func run(_ arguments: [String], environment: [String: String]) throws -> EPFRunner.Result {
        try EPFRunner.run(arguments, in: folder, environment: environment)
    }

    /// The lake of `lake` read and compared with the SQLite catalog of the
    /// sample feeds (made once at `c.sqlite`): every table equal value by
    /// value, every partition as the journal lists it.
    func expectEqualToSQLite(_ lake: String) throws -> LakeReaders.Comparison {
        let db = path("c.sqlite")
        if !FileManager.default.fileExists(atPath: db) {
            let catalog = try run(["import", "--db", db] + SampleFeeds.pathsInOrder)
            #expect(catalog.status == 0, "\(catalog.stderr)")
        }
        let journal = try LakeReaders.journal(lake)
        #expect(journal.count == 14)
        #expect(Set(journal.compactMap { $0["mode"] as? String }) == ["FULL", "INCREMENTAL"])
        let read = try LakeReaders.compare(lake: lake, sqlite: db)
        #expect(read.tables.count == 11)
        #expect(read.tables.values.allSatisfy { $0.lakeRows > 0 })
        try LakeReaders.expectSame(read, journal: journal)
        return read
    }

    @Test(.enabled(if: ReaderPython.available, ReaderPython.skipReason))
    func sampleFeedsReadByDuckDBEqualTheSQLiteCatalog() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lake = path("lake")
        let imported = try run(["import", "--lake", lake] + SampleFeeds.pathsInOrder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let read = try expectEqualToSQLite(lake)
        #expect(read.types["application.application_id"] == "int32")
        #expect(read.types["application.export_date"] == "int64")
        #expect(read.types["application.itunes_release_date"] == "timestamp[ms, tz=UTC]")
        #expect(read.types["application.title"] == "string")
        #expect(read.types["application_price.retail_price"] == "decimal128(18, 3)")
        #expect(read.types["application_price.storefront_id"] == "int32")
        #expect(read.types["storefront.country_code"] == "string")
    }

    /// Small chunks and 4 KB row groups: the larger tables are written in
    /// several row groups, and read back the same.
    @Test(.enabled(if: ReaderPython.available, ReaderPython.skipReason))
    func manyRowGroupsReadBackTheSame() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lake = path("lake")
        let small = ["EPF_TEST_CHECKPOINT_BYTES": "4096", "EPF_TEST_CHUNK_BYTES": "2048"]
        let imported = try run(["import", "--lake", lake] + SampleFeeds.pathsInOrder, environment: small)
        #expect(imported.status == 0, "\(imported.stderr)")
        let read = try expectEqualToSQLite(lake)
        #expect(read.rowGroups["application_popularity_per_genre/export_date=2026-11-01/mode=FULL"] ?? 0 > 2, "\(read.rowGroups)")
        #expect(read.rowGroups["application/export_date=2026-11-01/mode=FULL"] ?? 0 > 2, "\(read.rowGroups)")
    }

    /// Killed after a row group of a file was written, then killed inside
    /// an apply (days renamed into place, journal not written): each rerun
    /// removes what was left, writes the unjournaled files again, and the
    /// lake ends equal to the SQLite catalog.
    @Test(.enabled(if: ReaderPython.available, ReaderPython.skipReason), arguments: ["checkpoint:3", "in-apply:2"])
    func aKilledImportIsCompletedByTheRerun(fault: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lake = path("lake")
        let small = ["EPF_TEST_CHECKPOINT_BYTES": "4096", "EPF_TEST_CHUNK_BYTES": "2048"]
        let killed = try run(
            ["import", "--lake", lake] + SampleFeeds.pathsInOrder, environment: small.merging(["EPF_TEST_FAULT": fault]) { $1 })
        #expect(killed.status == 9, "\(killed.stderr)")
        let journalled = (try? LakeReaders.journal(lake).count) ?? 0
        #expect(journalled < 14)
        if fault.hasPrefix("checkpoint") {
            #expect(try snapshot(lake).keys.contains { $0.hasSuffix(".tmp") })
        }
        let rerun = try run(["import", "--lake", lake] + SampleFeeds.pathsInOrder)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!(try snapshot(lake)).keys.contains { $0.hasSuffix(".tmp") })
        _ = try expectEqualToSQLite(lake)
    }

    @Test func aRerunWritesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lake = path("lake")
        let first = try run(["import", "--lake", lake] + SampleFeeds.pathsInOrder)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try snapshot(lake)
        #expect(before.keys.filter { $0.hasSuffix("/part-00000.parquet") }.count == 14)
        #expect(!before.keys.contains { $0.hasSuffix(".tmp") })
        let again = try run(["import", "--lake", lake] + SampleFeeds.pathsInOrder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("nothing to import"))
        #expect(try snapshot(lake) == before)
        // --dry-run reads the same journal.
        let dry = try run(["import", "--dry-run", "--lake", lake] + SampleFeeds.pathsInOrder)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try snapshot(lake) == before)
    }

    /// An import killed after its last journal line but before the views'
    /// rename leaves `_epf/views.sql.tmp` (and views.sql as it was before,
    /// here none): the rerun, with nothing to apply, removes the temporary
    /// file and writes the views from the journal.
    @Test func aRerunRewritesViewsAKilledImportLeftHalfWritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let lake = path("lake")
        let first = try run(["import", "--lake", lake] + SampleFeeds.pathsInOrder)
        #expect(first.status == 0, "\(first.stderr)")
        let views = lake + "/_epf/views.sql"
        let written = try String(contentsOfFile: views, encoding: .utf8)
        try FileManager.default.moveItem(atPath: views, toPath: views + ".tmp")
        let again = try run(["import", "--lake", lake] + SampleFeeds.pathsInOrder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("nothing to import"))
        #expect(again.stderr.contains("views.sql.tmp"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: views + ".tmp"))
        #expect(try String(contentsOfFile: views, encoding: .utf8) == written)
    }

    /// A table file cut before its `#recordsWritten` footer, then one whose
    /// footer counts a row too many (EPF-FORMAT.md, "Known damage"): the
    /// feed folder fails whole, with no partition, no journal line and no
    /// temporary file; the undamaged feed beside it is applied.
    @Test(arguments: ["cut", "miscounted"])
    func aDamagedFileLeavesNoPartition(damage: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = path("itunes20261101")
        try FileManager.default.copyItem(atPath: SampleFeeds.path("itunes20261101"), toPath: feed)
        let application = feed + "/application"
        var bytes = try fileBytes(application)
        let footer = Array("#recordsWritten:25".utf8)
        let at = try #require(bytes.indices.last { bytes[$0...].starts(with: footer) })
        switch damage {
        case "cut": bytes.removeSubrange(at...)
        default: bytes.replaceSubrange(at..., with: Array("#recordsWritten:26\u{02}\n".utf8))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: application))

        let lake = path("lake")
        let result = try run(["import", "--lake", lake, feed, SampleFeeds.path("pricing20261101")])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("recordsWritten"), "\(result.stderr)")
        let files = try snapshot(lake)
        #expect(!files.keys.contains { $0.hasSuffix(".tmp") }, "\(files.keys.sorted())")
        let partitions = files.keys.filter { $0.hasSuffix(".parquet") }
        #expect(partitions == ["application_price/export_date=2026-11-01/mode=FULL/part-00000.parquet"], "\(files.keys.sorted())")
        let journal = try LakeReaders.journal(lake)
        #expect(journal.map { $0["table"] as? String } == ["application_price"])
    }

    @Test func lakeAndDbTogetherAreAUsageError() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run(["import", "--lake", path("lake"), "--db", path("c.sqlite"), SampleFeeds.path("itunes20261101")])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--lake and --db"))
        #expect(!FileManager.default.fileExists(atPath: path("lake")))
        #expect(!FileManager.default.fileExists(atPath: path("c.sqlite")))
    }
}
