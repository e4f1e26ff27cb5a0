import EPFTestSupport
import Foundation
import Testing

/// epf-server against clients that would hold it: connections that send
/// no whole request head, one client with many connections, and the
/// attack of scripts/hostile-load, briefly.
@Suite("epf-server against hostile clients", .timeLimit(.minutes(2)))
struct HostileClientTests {
    static let request = "GET /lookup?id=364709193 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// A connection that sends nothing, and one that sends its head a byte
    /// at a time, are closed at the header timeout, not later; a kept-alive
    /// connection idle between requests longer than that is not.
    @Test func noWholeHeadInTimeIsClosed() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, ["--header-timeout", "1"])
        let started = ContinuousClock.now
        let idle = try LoopbackSocket(port: server.port)
        let slow = try LoopbackSocket(port: server.port)
        let trickle = Task.detached {
            for byte in Self.request.utf8.dropLast(2) {
                slow.send(String(UnicodeScalar(byte)))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        #expect(idle.waitForClose(seconds: 4), "the idle connection was not closed")
        #expect(slow.waitForClose(seconds: 4), "the slow sender was not closed")
        let elapsed = ContinuousClock.now - started
        trickle.cancel()
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(3), "\(elapsed)")

        let kept = try LoopbackSocket(port: server.port)
        kept.send(Self.request)
        #expect(kept.readResponse()?.status == 200)
        try await Task.sleep(for: .milliseconds(1600))
        kept.send(Self.request)
        #expect(kept.readResponse()?.status == 200, "a kept-alive connection was closed between requests")
        let log = try server.logText()
        #expect(log.contains("connection(s) that sent no whole request head within 1 s (--header-timeout)"), "\(log)")
    }

    /// A client past its connections is closed as soon as it connects; a
    /// client at another address is answered; a closed connection gives
    /// its place back.
    @Test func oneClientCannotTakeEveryConnection() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, ["--max-connections-per-client", "2"])
        let held = try (0..<2).map { _ in try LoopbackSocket(port: server.port) }
        held[0].send(Self.request)
        #expect(held[0].readResponse()?.status == 200)
        held[1].send(Self.request)
        #expect(held[1].readResponse()?.status == 200)
        let third = try LoopbackSocket(port: server.port)
        #expect(third.waitForClose(seconds: 2), "a third connection from the same address was kept")
        let other = try LoopbackSocket(port: server.port, from: "127.0.0.2")
        other.send(Self.request)
        #expect(other.readResponse()?.status == 200)

        held[0].close()
        try await Task.sleep(for: .milliseconds(300))
        let again = try LoopbackSocket(port: server.port)
        again.send(Self.request)
        #expect(again.readResponse()?.status == 200, "the closed connection's place was not given back")
        let log = try server.logText()
        #expect(
            log.contains("refused 1 connection(s) from clients that had 2 open already (--max-connections-per-client), 1 from 127.0.0.1"),
            "\(log)")
    }

    /// The descriptor limit is raised to the hard one at start, and the
    /// connection limit follows it.
    @Test func theConnectionLimitFollowsTheDescriptorLimit() async throws {
        let catalog = try SampleCatalog()
        let hard = try EPFRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit -Hn"], in: catalog.folder)
        let limit = try #require(Int(hard.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(hard.stdout)")
        let log = catalog.folder.appendingPathComponent("limit.log")
        let process = try EPFRunner.process(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -Sn 256 && exec \"$0\" --db \"$1\" --port 0", try ServerProcessTests.executable.path, catalog.path],
            in: catalog.folder)
        let handle = try EPFRunner.sendOutput(of: process, to: log)
        try process.run()
        defer {
            process.terminate()
            try? handle.close()
        }
        var text = ""
        for _ in 0..<100 where !text.contains("listening on") {
            try await Task.sleep(for: .milliseconds(50))
            text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
        }
        #expect(text.contains("descriptor_limit=\(limit) "), "\(text)")
        // Room for every reader and the rest, at most 16,384.
        func number(_ name: String) -> Int? {
            text.range(of: name + #"=[0-9]+"#, options: .regularExpression).flatMap { Int(text[$0].split(separator: "=")[1]) }
        }
        let connections = try #require(number("max_connections"), "\(text)")
        let readers = try #require(number("readers"), "\(text)")
        #expect(connections <= 16_384 && connections + 4 * readers + 64 <= limit, "\(text)")
        #expect(connections == 16_384 || connections + 4 * readers + 64 == limit, "\(text)")
    }

    /// scripts/hostile_load.py for a few seconds, with fewer connections
    /// than the script's own run (docs/server.md gives those figures):
    /// every lookup answered, every slow sender closed by the header
    /// timeout and a second, nothing left open after.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "no /usr/bin/python3"))
    func theAttackOfTheScriptLocksNoOneOut() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, ["--header-timeout", "2", "--access-log", "off"])
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/hostile_load.py")
        let result = try EPFRunner.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                script.standardizedFileURL.path, "\(server.port)", "\(server.process.processIdentifier)", "--seconds", "6", "--idle", "500",
                "--slow", "100", "--header-timeout", "2",
            ], in: catalog.folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let figures = Dictionary(
            uniqueKeysWithValues: try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("RESULT ") }, "\(result.stdout)")
                .split(separator: " ").dropFirst().map { pair in
                    let parts = pair.split(separator: "=")
                    return (String(parts[0]), Double(parts[1]) ?? -1)
                })
        // Every lookup answered, and lookups kept coming: the old server
        // answered 8 in the script's run and timed 2 out. How many is a
        // speed, which the whole suite on two cores moves (28 to 47 in a
        // loaded run, 60 and more alone): scripts/hostile-load measures it.
        #expect((figures["lookups"] ?? 0) > 10, "\(figures)")
        #expect(figures["failures"] == 0, "\(figures)")
        // Past 64 from its address, refused; the 64 held, closed at the
        // header timeout: none held longer than it and a second.
        #expect((figures["refused"] ?? 0) > 0, "\(figures)")
        #expect((figures["idle_closed"] ?? 0) + (figures["slow_closed"] ?? 0) > 0, "\(figures)")
        #expect((figures["held_max_s"] ?? 99) <= 3, "\(figures)")
        #expect((figures["sockets_after"] ?? 99) <= (figures["sockets_before"] ?? 0) + 2, "\(figures)")
    }
}
