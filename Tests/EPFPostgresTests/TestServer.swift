import Foundation
import Testing

/// The PostgreSQL server the tests run against: `$EPF_TEST_POSTGRES`, a
/// URL whose user may create databases (`scripts/pg-test-server start`,
/// then `eval "$(scripts/pg-test-server env)"`; `.ci/run` does both).
enum TestServer {
    static let url: String? = {
        let value = ProcessInfo.processInfo.environment["EPF_TEST_POSTGRES"] ?? ""
        return value.isEmpty ? nil : value
    }()

    static var available: Bool { url != nil }

    static let skipReason: Comment =
        "no PostgreSQL server: EPF_TEST_POSTGRES is not set (scripts/pg-test-server start; eval \"$(scripts/pg-test-server env)\"; .ci/run does both)"

    /// The URL of database `name` on the test server.
    static func url(database name: String) -> String {
        let base = url!
        let withoutQuery = base.split(separator: "?", maxSplits: 1).first.map(String.init) ?? base
        let schemeEnd = withoutQuery.range(of: "://")!.upperBound
        let authorityEnd = withoutQuery[schemeEnd...].firstIndex(of: "/") ?? withoutQuery.endIndex
        return String(withoutQuery[..<authorityEnd]) + "/" + name
    }
}
