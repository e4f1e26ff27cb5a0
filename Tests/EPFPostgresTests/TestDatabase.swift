import EPFPostgres
import Foundation

/// A database of its own for one test, dropped afterwards.
final class TestDatabase {
    let name: String
    let url: String
    var target: PostgresTarget { PostgresTarget(url: url) }

    /// A new database, empty or a copy of `template` (which nobody may be
    /// connected to).
    init(template: TestDatabase? = nil) throws {
        name = "epf_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        url = TestServer.url(database: name)
        let admin = try PostgresConnection(PostgresTarget(url: TestServer.url!))
        try admin.execute("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0.name)" } ?? ""))
    }

    deinit {
        if let admin = try? PostgresConnection(PostgresTarget(url: TestServer.url!)) {
            _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    func connect() throws -> PostgresConnection { try PostgresConnection(target) }

    func store(_ options: PostgresStoreOptions = PostgresStoreOptions(), restart: Bool = false) throws -> PostgresCatalogStore {
        try PostgresCatalogStore(target: target, options: options, restart: restart)
    }
}
