import EPFTestSupport
import Foundation
import Testing

@testable import EPFFetch

@Suite("retries")
struct RetryPolicyTests {
    @Test func waitsDoubleUpToTheCap() {
        let policy = RetryPolicy(attempts: 8, firstDelay: 1, maximumDelay: 30)
        #expect((1...7).map { policy.delay(after: $0) } == [1, 2, 4, 8, 16, 30, 30])
    }

    /// Runs `policy` over answers given in turn; returns the calls made,
    /// the waits, and the result.
    func run(_ policy: RetryPolicy, _ answers: [FetchError?]) -> (calls: Int, waits: [TimeInterval], error: FetchError?) {
        var calls = 0
        var waits: [TimeInterval] = []
        do {
            try policy.run(
                "f.tbz", onRetry: { _ in }, sleep: { waits.append($0) },
                { () throws(FetchError) in
                    calls += 1
                    if let error = answers[min(calls, answers.count) - 1] { throw error }
                })
            return (calls, waits, nil)
        } catch {
            return (calls, waits, error)
        }
    }

    @Test func passingFailuresAreTriedAgain() {
        let policy = RetryPolicy(attempts: 5, firstDelay: 1, maximumDelay: 30)
        let twice = run(policy, [FetchError(.status(500), "500"), FetchError(.transport, "lost"), nil])
        #expect(twice.calls == 3 && twice.waits == [1, 2] && twice.error == nil)
        let always = run(policy, [FetchError(.status(503), "the server answered HTTP 503")])
        #expect(always.calls == 5 && always.waits == [1, 2, 4, 8])
        #expect(always.error?.kind == .status(503))
        #expect(always.error?.detail == "the server answered HTTP 503 (gave up after 5 tries)")
    }

    @Test func otherFailuresAreNot() {
        let policy = RetryPolicy(attempts: 5)
        for error in [
            FetchError(.unauthorized, "401"), FetchError(.notFound, "404"), FetchError(.status(400), "400"),
            FetchError(.md5Mismatch, "md5"), FetchError(.file, "disk"), FetchError(.malformed, "html"),
        ] {
            let result = run(policy, [error, nil])
            #expect(result.calls == 1 && result.waits.isEmpty && result.error?.detail == error.detail, "\(error.kind)")
        }
    }
}

/// `epf fetch` against `FaultServer`: 500s, dropped connections, retries
/// that run out.
@Suite("epf fetch retries", .enabled(if: FaultServer.available, FaultServer.skipReason), .timeLimit(.minutes(2)))
struct FetchRetryTests {
    static let application = "/fault/current/itunes20261101/application.tbz"
    static let genre = "/fault/current/itunes20261101/genre.tbz"

    final class Setup {
        let folder: URL
        let server: FaultServer

        init(faults: [String: [String]]) throws {
            folder = try TemporaryFolder.create("epf-fetch-retry")
            server = try FaultServer(faults: faults)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func fetch(_ arguments: [String], to: String = "dl") throws -> EPFRunner.Result {
            try EPFRunner.run(
                ["fetch", "--to", to, "--url", server.url] + arguments, in: folder,
                environment: ["EPF_USERNAME": "", "EPF_PASSWORD": "", "HOME": folder.path, "EPF_TEST_RETRY_DELAY_MS": "10"])
        }

        func requests(_ path: String) -> [String] {
            server.requests.filter { $0.hasPrefix("GET \(path) ") }
        }

        func cleanUp() {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func aFiveHundredTwiceThenSuccess() throws {
        let setup = try Setup(faults: [Self.application: ["500", "500"]])
        defer { setup.cleanUp() }
        let bytes = try setup.server.bytes("itunes20261101/application.tbz")
        let result = try setup.fetch(["--include", "application"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("retry: dl/itunes20261101/application.tbz: "), "\(result.stderr)")
        #expect(result.stderr.contains("the server answered HTTP 500 (try 1 of 5); again in 10 ms"), "\(result.stderr)")
        #expect(result.stderr.contains("the server answered HTTP 500 (try 2 of 5); again in 20 ms"), "\(result.stderr)")
        #expect(result.stderr.contains("fetched: dl/itunes20261101/application.tbz (\(bytes.count) bytes)"), "\(result.stderr)")
        #expect(
            setup.requests(Self.application) == [
                "GET \(Self.application) 500 range=[-] sent=0", "GET \(Self.application) 500 range=[-] sent=0",
                "GET \(Self.application) 200 range=[-] sent=\(bytes.count)",
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("dl/itunes20261101/application.tbz"))) == bytes)
    }

    /// The connection dropped after 1000 bytes: the retry asks for the
    /// rest from byte 1000, the bytes already in the `.part`; no byte comes
    /// twice.
    /// Every request names epf with the version `epf --version` prints
    /// (FoundationNetworking's own would say "epf (unknown version)").
    @Test func requestsNameEpfAndItsVersion() throws {
        let setup = try Setup(faults: [:])
        defer { setup.cleanUp() }
        let result = try setup.fetch(["--include", "application"])
        #expect(result.status == 0, "\(result.stderr)")
        let version = try EPFRunner.run(["--version"], in: URL(fileURLWithPath: setup.path("."))).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(!version.isEmpty)
        #expect(!setup.server.agents.isEmpty)
        #expect(setup.server.agents.allSatisfy { $0 == "epf/\(version)" }, "\(setup.server.agents)")
    }

    @Test func aDroppedConnectionIsResumedWithRange() throws {
        let setup = try Setup(faults: [Self.application: ["drop:1000"]])
        defer { setup.cleanUp() }
        let bytes = try setup.server.bytes("itunes20261101/application.tbz")
        #expect(bytes.count > 2000)
        let result = try setup.fetch(["--include", "application"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("retry: dl/itunes20261101/application.tbz: "), "\(result.stderr)")
        #expect(result.stderr.contains("fetched: dl/itunes20261101/application.tbz (\(bytes.count) bytes, resumed)"), "\(result.stderr)")
        #expect(
            setup.requests(Self.application) == [
                "GET \(Self.application) 200 range=[-] sent=1000",
                "GET \(Self.application) 206 range=[bytes=1000-] sent=\(bytes.count - 1000)",
            ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("dl/itunes20261101/application.tbz"))) == bytes)
        #expect(!FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/application.tbz.part")))
    }

    /// Failures every time: each file's tries run out and it is reported
    /// by name with what happened; nothing is left under its name (a
    /// dropped file's `.part` holds exactly the bytes received, a prefix
    /// of the file, for the next run); the other files are fetched.
    @Test func retriesThatRunOutAreReportedAndLeaveNothingCorrupt() throws {
        let setup = try Setup(faults: [Self.application: ["500!"], Self.genre: ["drop!:50"]])
        defer { setup.cleanUp() }
        let genre = try setup.server.bytes("itunes20261101/genre.tbz")
        #expect(genre.count > 150)
        let result = try setup.fetch(["--retries", "2"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "failed: dl/itunes20261101/application.tbz: http://127.0.0.1:\(setup.server.port)\(Self.application): the server answered HTTP 500 (gave up after 3 tries)"
            ),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("failed: dl/itunes20261101/genre.tbz: http://127.0.0.1:\(setup.server.port)\(Self.genre): "),
            "\(result.stderr)")
        #expect(result.stderr.contains("(gave up after 3 tries)\n"), "\(result.stderr)")
        #expect(result.stderr.contains("epf fetch: 7 file(s) downloaded"), "\(result.stderr)")
        #expect(result.stderr.contains("2 failed"), "\(result.stderr)")
        #expect(setup.requests(Self.application).count == 3)
        #expect(
            setup.requests(Self.genre) == [
                "GET \(Self.genre) 200 range=[-] sent=50", "GET \(Self.genre) 206 range=[bytes=50-] sent=50",
                "GET \(Self.genre) 206 range=[bytes=100-] sent=50",
            ])
        for name in ["application.tbz", "application.tbz.part", "application.tbz.md5", "genre.tbz", "genre.tbz.md5"] {
            #expect(!FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/\(name)")), "\(name)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("dl/itunes20261101/genre.tbz.part"))) == genre.prefix(150))
        #expect(FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/artist.tbz")))
    }

    /// `--jobs 3`: several files at once (the server answers several
    /// requests at the same time; with `--jobs 1`, one at a time), and a
    /// table at the end with a row per file.
    @Test func severalFilesAtOnceThenASummaryTable() throws {
        let slow = ["application", "application_detail", "artist"].map { "/fault/current/itunes20261101/\($0).tbz" }
        let setup = try Setup(faults: Dictionary(uniqueKeysWithValues: slow.map { ($0, ["slow!:400"]) }))
        defer { setup.cleanUp() }
        let one = try setup.fetch(["--jobs", "1"], to: "one")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(setup.server.peak == 1)
        let three = try setup.fetch(["--jobs", "3"], to: "three")
        #expect(three.status == 0, "\(three.stderr)")
        #expect(setup.server.peak >= 2)
        #expect(three.stderr.contains("epf fetch: 9 file(s) downloaded"), "\(three.stderr)")
        let lines = three.stderr.split(separator: "\n")
        let header = try #require(
            lines.firstIndex { $0.split(separator: " ", omittingEmptySubsequences: true) == ["file", "size", "status", "seconds"] })
        let rows = lines[(header + 1)...].prefix { $0.hasPrefix("three/itunes20261101/") }
        #expect(rows.count == 9, "\(three.stderr)")
        let application = try setup.server.bytes("itunes20261101/application.tbz")
        #expect(
            rows.first.map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(3) } == [
                "three/itunes20261101/application.tbz", "\(application.count)", "fetched",
            ])
        for name in ["application", "genre", "storefront"] {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: setup.path("three/itunes20261101/\(name).tbz")))
                    == setup.server.bytes("itunes20261101/\(name).tbz"))
        }
        #expect(try setup.fetch(["--jobs", "0"], to: "zero").status == 64)
    }
}
