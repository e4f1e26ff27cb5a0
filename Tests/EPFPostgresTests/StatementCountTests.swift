import EPFCatalog
import EPFImport
import EPFPostgres
import EPFSQLite
@_spi(Benchmarks) import EPFSynthetic
import EPFTestSupport
import Foundation
import Testing

/// A request costs a fixed number of statements, whatever its number of IDs
/// or results: counted by the database itself, every statement
/// it ran (transaction control included), on a catalog with every table a
/// result draws on. SQLite counts through `sqlite3_trace_v2`; PostgreSQL
/// through `pg_stat_statements` (`scripts/pg-test-server` loads it).
///
/// The engine before set-based reads ran seven statements per application:
/// some 350 for each of these requests.
@Suite("Statements per request")
struct StatementCountTests {
    /// The most statements a 50-ID lookup or a 50-result search may run:
    /// SQLite's search runs 11 (the transaction's two, the storefront's
    /// chart read apart for popular-first, the page, and one per related
    /// table), its lookup 9; PostgreSQL's one fewer each.
    static let most = 11

    /// The catalog: the sample feeds (every table, `application_detail` and
    /// the popularity feed among them), then a generated feed of 1,000
    /// applications over them (its titles: many hold "garden").
    static func feeds(in folder: URL) throws -> (paths: [String], generator: FeedGenerator) {
        var generator = FeedGenerator(rows: 1_000, storefronts: 2)
        generator.exportDate = 1_793_836_800_000  // 2026-11-05, after the samples
        let generated = folder.appendingPathComponent("itunes20261105").path
        try FileManager.default.createDirectory(atPath: generated, withIntermediateDirectories: true)
        _ = try generator.writeApplication(to: generated)
        _ = try generator.writePrices(to: generated)
        _ = try generator.writeCatalogTables(to: generated)
        return (SampleFeeds.pathsInOrder + [generated], generator)
    }

    /// Runs the three requests on `catalog`, `count` giving the statements
    /// each ran, and checks them.
    static func expectFixedCounts(
        _ catalog: any CatalogReader, generator: FeedGenerator, backend: String, count: (() throws -> Void) throws -> Int
    )
        throws
    {
        let ids = (0..<50).map { Int64(generator.applicationID($0)) }
        var answer = SearchResponse(results: [])
        let one = try count { answer = try catalog.lookup(ids: [ids[7]], country: "US") }
        #expect(answer.resultCount == 1)
        let fifty = try count { answer = try catalog.lookup(ids: ids, country: "US") }
        #expect(answer.resultCount == 50)
        let search = try count { answer = try catalog.search(term: "garden", country: "US", limit: 50) }
        #expect(answer.resultCount == 50)
        #expect(answer.results.allSatisfy { $0.trackName?.localizedCaseInsensitiveContains("garden") == true })
        #expect(fifty == one, "\(backend): a lookup of 50 IDs ran \(fifty) statements, one of 1 ID \(one)")
        #expect(fifty <= most, "\(backend): a lookup of 50 IDs ran \(fifty) statements")
        #expect(search <= most, "\(backend): a search of 50 results ran \(search) statements")
        print("\(backend): statements for a lookup of 1 ID \(one), of 50 IDs \(fifty), a 50-result search \(search)")
    }

    /// Whether a statement SQLite traced is the engine's: FTS5 reads its
    /// own tables (`'main'.'epf_search_application_config'`, `PRAGMA
    /// 'main'.data_version`) with statements of its own inside the
    /// engine's `MATCH`, as PostgreSQL reads a GIN index inside a
    /// statement; SQLite writes those nested runs after `--`.
    static func isEngines(_ sql: String) -> Bool {
        !sql.hasPrefix("--") && !sql.contains("'main'.")
    }

    @Test("SQLite: a 50-ID lookup and a 50-result search each run at most 11 statements")
    func sqlite() throws {
        try withTemporaryFolder { folder in
            let (paths, generator) = try Self.feeds(in: folder)
            let path = folder.appendingPathComponent("catalog.sqlite").path
            let reports = try runImport(paths, into: try SQLiteCatalogStore(path: path))
            #expect(reports.allSatisfy { $0.status == .applied }, "\(reports.compactMap(\.error))")
            let catalog = try Catalog(path: path)
            let database = try #require(catalog.database)
            try Self.expectFixedCounts(catalog, generator: generator, backend: "SQLite") { body in
                nonisolated(unsafe) var statements = 0
                database.traceStatements { sql in if Self.isEngines(sql) { statements += 1 } }
                defer { database.traceStatements(nil) }
                try body()
                return statements
            }
        }
    }

    @Test(
        "PostgreSQL: a 50-ID lookup and a 50-result search each run at most 11 statements",
        .enabled(if: TestServer.available, TestServer.skipReason))
    func postgres() throws {
        let database = try TestDatabase()
        let generator = try withTemporaryFolder { folder in
            let (paths, generator) = try Self.feeds(in: folder)
            let reports = try runImport(paths, into: try database.store())
            #expect(reports.allSatisfy { $0.status == .applied }, "\(reports.compactMap(\.error))")
            return generator
        }
        let catalog = try PostgresCatalog(target: database.target)
        // The statistics are read from another database, so that reading
        // them is not counted.
        let statistics = try PostgresConnection(PostgresTarget(url: TestServer.url!))
        let oid = try #require(try statistics.scalar("SELECT oid FROM pg_database WHERE datname = $1", [database.name]))
        do {
            try statistics.execute("SELECT pg_stat_statements_reset(0, \(oid), 0)")
        } catch {
            Issue.record(
                "pg_stat_statements is not there to count statements (\(error)): start the test server with scripts/pg-test-server start")
            return
        }
        try Self.expectFixedCounts(catalog, generator: generator, backend: "PostgreSQL") { body in
            try statistics.execute("SELECT pg_stat_statements_reset(0, \(oid), 0)")
            try body()
            return Int(try statistics.scalar("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = \(oid)") ?? "") ?? -1
        }
    }

    @Test(
        "PostgreSQL: a search index of another version is a clear error, whether the page finds something or not",
        .enabled(if: TestServer.available, TestServer.skipReason))
    func anIndexOfAnotherVersion() throws {
        let database = try TestDatabase()
        let reports = try runImport(SampleFeeds.pathsInOrder, into: try database.store())
        #expect(reports.allSatisfy { $0.status == .applied })
        let catalog = try PostgresCatalog(target: database.target)
        #expect(try catalog.search(term: "chess").resultCount > 0)
        try database.connect().execute("COMMENT ON TABLE epf_search_application IS 'epf search v0'")
        for term in ["chess", "zzzz"] {
            let error = try #require(throws: CatalogError.self) { try catalog.search(term: term) }
            #expect(error.kind == .incompatible)
            #expect(error.description.contains("built by an older version of epf"), "\(error)")
        }
        // The reader is still in step with its server after the refusals.
        #expect(try catalog.lookup(ids: [364_709_193]).resultCount == 1)
    }
}
