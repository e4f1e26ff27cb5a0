import Foundation
import Testing

/// `epf` run as a user runs it, against PostgreSQL.
@Suite("epf against PostgreSQL", .enabled(if: TestServer.available, TestServer.skipReason))
struct CLITests {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `epf` beside the test bundle (swift test builds it with the tests).
    static func executable() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("epf"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("epf"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("epf"),
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "no epf binary")
    }

    static func run(_ arguments: [String], in folder: URL) throws -> Result {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "EPF_DB")
        process.environment = environment
        let out = folder.appendingPathComponent("out-\(UUID().uuidString)")
        let err = folder.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    @Test("import, import again, tables, history, dry run; the password is never printed")
    func commands() throws {
        let database = try TestDatabase()
        let password = "epf-test-password"
        #expect(database.url.contains(password))
        try withTemporaryFolder { folder in
            let feeds = Fixtures.feedsInOrder.map(Fixtures.feed)
            let first = try Self.run(["import", "--db", database.url, "--format", "json"] + feeds, in: folder)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("\"applied\" : 14"), "\(first.stdout)")
            let again = try Self.run(["import", "--db", database.url] + feeds, in: folder)
            #expect(again.status == 0)
            #expect(again.stderr.contains("nothing to import"))
            let dryRun = try Self.run(["import", "--dry-run", "--db", database.url, "--format", "csv"] + feeds, in: folder)
            #expect(dryRun.status == 0, "\(dryRun.stderr)")
            let tables = try Self.run(["tables", "--db", database.url, "--format", "csv"], in: folder)
            #expect(tables.status == 0, "\(tables.stderr)")
            #expect(tables.stdout.contains("application_price,175,FULL"), "\(tables.stdout)")
            let history = try Self.run(["history", "--db", database.url, "--format", "json", "--table", "application"], in: folder)
            #expect(history.status == 0, "\(history.stderr)")
            #expect(history.stdout.contains("\"mode\":\"INCREMENTAL\"") || history.stdout.contains("\"mode\" : \"INCREMENTAL\""), "\(history.stdout)")
            var readers: [Result] = []
            for arguments in [["lookup", "553910284"], ["search", "chess"], ["sql", "SELECT 1"]] {
                let result = try Self.run([arguments[0], "--db", database.url] + arguments.dropFirst(), in: folder)
                #expect(result.status == 1)
                #expect(result.stderr.contains("SQLite catalogs only"), "\(result.stderr)")
                readers.append(result)
            }
            for result in [first, again, dryRun, tables, history] + readers {
                #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
            }
            #expect(first.stdout.contains("postgres://epf@"))
            // A server that is not there: said without the password.
            let refused = try Self.run(
                ["import", "--db", "postgres://epf:\(password)@127.0.0.1:1/none"] + [feeds[0]], in: folder)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("cannot connect to postgres://epf@127.0.0.1:1/none"), "\(refused.stderr)")
            #expect(!refused.stderr.contains(password))
        }
    }
}
