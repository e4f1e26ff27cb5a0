import EPFCatalog
import EPFFormat
import EPFImport
import EPFPostgres
@_spi(Benchmarks) import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

@Suite("Checkpoints, leftovers and secrets against a server", .enabled(if: TestServer.available, TestServer.skipReason))
struct CheckpointTests {
    /// Loads `bytes` batch by batch through a store's loader (reporting
    /// each batch's end as a point where it may commit), calling
    /// `afterBatch` after each, then finishes. A throw drops the loader
    /// as a killed import would: without abandoning or suspending it.
    static func load(
        _ bytes: [UInt8], source: SourceIdentity? = nil, into store: PostgresCatalogStore, afterBatch: (Int) throws -> Void
    ) throws -> StagedTable {
        try bytes.withUnsafeBytes { buffer in
            guard case .header(let header) = try HeaderParser.parse(buffer, isComplete: true) else { throw CancellationError() }
            let target = StagingTarget(table: "application", header: header, sourceName: "application", source: source)
            let loader = try store.makeLoader(for: target, strict: false)
            let parser = RecordParser(header: header)
            let batch = RecordBatch(columnCount: header.columns.count, capacity: 500)
            var position = header.dataOffset
            var records = 0
            var batches = 0
            while position < buffer.count {
                position = parser.parse(buffer, from: position, isFinal: true, recordsBefore: records, into: batch)
                try loader.load(batch, chunk: buffer, firstRecord: records + 1, chunkOffset: 0)
                records += batch.count
                batches += 1
                if batch.footer == nil { try loader.reached(byteOffset: Int64(position), records: records) }
                try afterBatch(batches)
                if batch.footer != nil { break }
            }
            return try loader.finish()
        }
    }

    @Test("Each COPY batch commits with its checkpoint: rows and byte offset agree with the staging table")
    func checkpointsCommitWithBatches() throws {
        let database = try TestDatabase()
        let store = try database.store(PostgresStoreOptions(commitBytes: 256 << 10, flushBytes: 32 << 10))
        let bytes = try FeedGenerator(rows: 2_000, seed: 3).applicationBytes()
        let observer = try database.connect()
        var seen: [(rows: Int, offset: Int, staged: Int)] = []
        let staged = try Self.load(bytes, into: store) { _ in
            let row = try #require(try observer.query("SELECT records::text, byte_offset::text, phase FROM epf_checkpoint").first)
            let staged = Int(try observer.scalar("SELECT count(*) FROM epf_stage_application") ?? "") ?? -1
            seen.append((Int(row[0]!)!, Int(row[1]!)!, staged))
        }
        // Another session sees only committed batches: the staging table
        // always holds exactly the rows the checkpoint names.
        #expect(seen.count >= 4)
        #expect(seen.allSatisfy { $0.rows == $0.staged })
        let committed = seen.filter { $0.rows > 0 }
        #expect(committed.count >= 2)
        for point in committed {
            // The offset is where the record after the last one committed starts.
            let rowEnd = bytes.withUnsafeBufferPointer { buffer in
                point.offset >= 2 && buffer[point.offset - 2] == 0x02 && buffer[point.offset - 1] == 0x0A
            }
            #expect(rowEnd, "offset \(point.offset)")
        }
        let final = try observer.query("SELECT records::text, byte_offset::text, phase FROM epf_checkpoint")
        #expect(final.first?[0] == "2000" && final.first?[2] == "staged")
        _ = try store.apply([staged], journal: [])
        #expect(try observer.scalar("SELECT count(*) FROM epf_checkpoint") == "0")
        #expect(try observer.scalar("SELECT count(*) FROM application") == "2000")
    }

    struct Killed: Error {}

    @Test("What a killed import left is kept to resume; dropped by --restart, or when the import reads other files")
    func leftoversKeptThenDropped() throws {
        let database = try TestDatabase()
        let bytes = try FeedGenerator(rows: 1_000, seed: 3).applicationBytes()
        let observer = try database.connect()
        func killedLoad() throws {
            let store = try database.store(PostgresStoreOptions(commitBytes: 64 << 10))
            // "Kill" after two batches: the loader is dropped without abandon.
            _ = try? Self.load(bytes, into: store) { batches in if batches == 2 { throw Killed() } }
        }
        try killedLoad()
        #expect(try observer.scalar("SELECT count(*) FROM epf_checkpoint") == "1")
        do {
            let store = try database.store()
            #expect(store.droppedLeftovers.isEmpty)
            #expect(store.resumableLoads.map(\.staging) == ["epf_stage_application"])
            #expect(store.resumableLoads.map(\.records) == [1_000])
            #expect(try observer.scalar("SELECT to_regclass('epf_stage_application') IS NULL") == "f")
            // An import that did not read the file drops it when it finishes.
            try store.importFinished()
            #expect(try observer.scalar("SELECT count(*) FROM epf_checkpoint") == "0")
            #expect(try observer.scalar("SELECT to_regclass('epf_stage_application') IS NULL") == "t")
        }
        try killedLoad()
        let restarted = try database.store(restart: true)
        #expect(restarted.droppedLeftovers == ["epf_stage_application"])
        #expect(restarted.resumableLoads.isEmpty)
        #expect(try observer.scalar("SELECT count(*) FROM epf_checkpoint") == "0")
        #expect(try observer.scalar("SELECT to_regclass('epf_stage_application') IS NULL") == "t")
    }

    @Test("Two imports never write one schema at once")
    func oneImportAtATime() throws {
        let database = try TestDatabase()
        let first = try database.store()
        #expect(throws: CatalogError.self) { _ = try database.store() }
        _ = first
    }

    @Test("A search_path that names no existing schema is refused as such, not as another import")
    func missingSchemaIsNamed() throws {
        let database = try TestDatabase()
        let url = database.url + (database.url.contains("?") ? "&" : "?") + "options=-csearch_path%3Dnowhere"
        let error = try #require(throws: CatalogError.self) { try PostgresCatalogStore(target: PostgresTarget(url: url)) }
        #expect(error.kind == .usage)
        #expect(error.description.contains("has no schema to write to: none of its search_path exists"), "\(error)")
        #expect(!error.description.contains("another epf import"), "\(error)")
    }

    @Test("A wrong password is refused without showing it; the journal never holds it")
    func passwordNeverShown() throws {
        let database = try TestDatabase()
        let wrong = database.url.replacingOccurrences(of: "://epf:", with: "://epf:")
            .replacingOccurrences(of: "epf-test-password", with: "not-the-password-42")
        do {
            _ = try PostgresCatalogStore(target: PostgresTarget(url: wrong))
            Issue.record("connected with a wrong password")
        } catch {
            let text = "\(error)"
            #expect(!text.contains("not-the-password-42"), "\(text)")
            #expect(text.contains("postgres://epf@"), "\(text)")
        }
        let reports = try runImport([SampleFeeds.path("itunes20261101")], into: try database.store())
        #expect(reports.allSatisfy { $0.status == .applied })
        let journal = try database.connect().query("SELECT concat_ws(' ', source_path, message, details) FROM epf_journal")
        #expect(!journal.isEmpty)
        #expect(journal.allSatisfy { !($0[0] ?? "").contains("epf-test-password") })
    }
}
