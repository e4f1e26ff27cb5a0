import EPFCatalog
import EPFLocation
import EPFPostgres
import EPFServer
import EPFTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The server over a PostgreSQL catalog: `$EPF_TEST_POSTGRES`, as for
/// EPFPostgresTests (skipped without it).
@Suite(
    "epf-server over PostgreSQL",
    .enabled(
        if: PostgresTestServer.url != nil,
        "no PostgreSQL server: EPF_TEST_POSTGRES is not set (scripts/pg-test-server start; eval \"$(scripts/pg-test-server env)\")"))
struct PostgresReaderTests {
    /// A reader whose connection the database server ended is opened
    /// again, and the request answered on the new one.
    @Test func aReaderWhoseConnectionWasEndedIsOpenedAgain() async throws {
        let base = try #require(PostgresTestServer.url)
        let name = "epf_test_server_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let admin = try PostgresConnection(PostgresTarget(url: base))
        try admin.execute("CREATE DATABASE \(name)")
        defer { _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        // The same server and user, the new database.
        let withoutQuery = base.split(separator: "?", maxSplits: 1).first.map(String.init) ?? base
        let authority = try #require(withoutQuery.range(of: "://")).upperBound
        let url = String(withoutQuery[..<(withoutQuery[authority...].firstIndex(of: "/") ?? withoutQuery.endIndex)]) + "/" + name

        let folder = try TemporaryFolder.create("epf-server-pg")
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = try EPFRunner.run(["import", "--db", url] + SampleFeeds.pathsInOrder, in: folder)
        try #require(imported.status == 0, "\(imported.stderr)")

        let settings = ServerSettings(location: CatalogLocation(url), readers: 1)
        let pool = try ReaderPool(location: settings.location, tablePrefix: nil, count: 1)
        let app = CatalogServer.application(
            pool: pool, settings: settings, logger: Logger(label: "epf-server-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await app.test(.router) { client in
            let before = try await client.get("/lookup?id=364709193")
            #expect(before.status == .ok, "\(before.text)")
            try PostgresConnection(PostgresTarget(url: base)).execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'")
            let after = try await client.get("/lookup?id=364709193")
            #expect(after.status == .ok, "\(after.text)")
            #expect(after.text == before.text)
            let health = try await client.get("/health")
            #expect(health.status == .ok, "\(health.text)")
        }
        await pool.shutdown()
    }
}

/// `$EPF_TEST_POSTGRES`: a URL whose user may create databases.
enum PostgresTestServer {
    static let url: String? = {
        let value = ProcessInfo.processInfo.environment["EPF_TEST_POSTGRES"] ?? ""
        return value.isEmpty ? nil : value
    }()
}
