import EPFTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("epf-server as a process")
struct ServerProcessTests {
    /// `epf-server` beside the built `epf`.
    static var executable: URL {
        get throws {
            let server = try EPFRunner.executable.deletingLastPathComponent().appendingPathComponent("epf-server")
            try #require(FileManager.default.isExecutableFile(atPath: server.path), "epf-server was not built beside epf")
            return server
        }
    }

    @Test func servesOnAFreePortAndStopsOnSIGTERM() async throws {
        let catalog = try SampleCatalog()
        // The startup line names the port the system chose.
        let server = try await RunningServer(catalog, ["--readers", "2", "--idle-timeout", "1"])
        let process = server.process
        let url = server.base
        let port = server.port

        // A client that sends half a request and nothing more holds no
        // one else up, and its connection is closed once idle.
        let slow = try LoopbackSocket(port: port)
        slow.send("GET /lookup?id=364709193 HTTP/1.1\r\nHost: 127.0.0.1\r\n")

        let session = URLSession(configuration: .ephemeral)
        let (body, response) = try await session.data(from: try #require(URL(string: "\(url)/lookup?id=364709193")))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/javascript; charset=utf-8")
        let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(json["resultCount"] as? Int == 1)

        let (_, bad) = try await session.data(from: try #require(URL(string: "\(url)/search?term=chess&country=ZZ")))
        #expect((bad as? HTTPURLResponse)?.statusCode == 400)
        session.invalidateAndCancel()
        #expect(slow.waitForClose(seconds: 10), "the idle connection was not closed")

        // Pipelined requests, answered by both paths (the router: /health;
        // the event loop: /lookup, /search), come back in order; the last
        // asks to close.
        let pipelined = try LoopbackSocket(port: port)
        pipelined.send(
            "GET /health HTTP/1.1\r\nHost: a\r\n\r\nGET /lookup?id=364709193 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /search?term=chess&limit=1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let answers = try (0..<3).map { _ in try #require(pipelined.readResponse(), "a response is missing") }
        #expect(answers.map(\.status) == [200, 200, 200])
        #expect(answers[0].body.contains(#""status":"ok""#), "\(answers[0].body)")
        #expect(answers[1].body.contains(#""trackId":364709193"#), "\(answers[1].body)")
        #expect(answers[2].body.contains(#""resultCount":1"#), "\(answers[2].body)")
        // Both paths write the same Date and Server (Hummingbird's for the
        // router, ServerHeaders' for the event loop): the same fields, the
        // same IMF-fixdate, now.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for answer in answers {
            let fields = Dictionary(
                answer.head.split(separator: "\r\n").dropFirst().compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }, uniquingKeysWith: { first, _ in first })
            #expect(fields["server"] == "epf-server", "\(answer.head)")
            let date = try #require(fields["date"], "no Date in \(answer.head)")
            let parsed = try #require(formatter.date(from: date), "Date \(date) is no IMF-fixdate")
            #expect(formatter.string(from: parsed) == date, "Date \(date) is not written as IMF-fixdate writes it")
            #expect(abs(parsed.timeIntervalSinceNow) < 5, "Date \(date) is not now")
        }
        #expect(pipelined.waitForClose(seconds: 10), "Connection: close did not close")

        // A connection in use outlives the idle timeout (1 s): the
        // requests the event loop answers count as activity. Requests go
        // every 200 ms for 2.5 s; a gap of 800 ms or more (this process
        // starved on a loaded machine) would let the connection be idle
        // for real, so the check stops there.
        let busy = try LoopbackSocket(port: port)
        let opened = ContinuousClock.now
        var last = opened
        while ContinuousClock.now - opened < .milliseconds(2500), ContinuousClock.now - last < .milliseconds(800) {
            busy.send("GET /lookup?id=364709193 HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(busy.readResponse()?.status == 200, "a busy connection was closed after \(ContinuousClock.now - opened)")
            last = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(200))
        }

        process.terminate()  // SIGTERM
        process.waitUntilExit()
        let text = try server.logText()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(text)")
        // One line per request, with its request id.
        #expect(text.contains("GET /lookup 200"), "\(text)")
        #expect(text.contains("hb.request.id="), "\(text)")
    }

    /// `epf compact` on the catalog the server reads: the server's readers
    /// keep their connections (and their map of the file) through it and
    /// answer every request, with the same answer; `/health` stays ok (the
    /// file is the same file), and the file shrinks under them.
    @Test func answersWhileEPFCompactRunsOnItsCatalog() async throws {
        let catalog = try SampleCatalog()
        let feed = catalog.folder.appendingPathComponent("itunes20261201").path
        let generated = try EPFRunner.run(["generate", "--out", feed, "--rows", "8000", "--storefronts", "1"], in: catalog.folder)
        try #require(generated.status == 0, "\(generated.stderr)")
        for options in [[], ["--force"]] {
            let imported = try EPFRunner.run(["import", "--db", catalog.path] + options + [feed], in: catalog.folder)
            try #require(imported.status == 0, "\(imported.stderr)")
        }
        let size = { ((try? FileManager.default.attributesOfItem(atPath: catalog.path)[.size]) as? Int) ?? 0 }
        let sizeBefore = size()
        let server = try await RunningServer(catalog, ["--readers", "2", "--access-log", "off"])
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let search = try #require(URL(string: "\(server.base)/search?term=chess&limit=5"))
        let health = try #require(URL(string: "\(server.base)/health"))
        let (expected, first) = try await session.data(from: search)
        try #require((first as? HTTPURLResponse)?.statusCode == 200)

        let compaction = try EPFRunner.process(
            ["compact", "--db", catalog.path], in: catalog.folder, environment: ["EPF_TEST_COMPACT_STEP_MS": "3000"])
        compaction.standardOutput = FileHandle.nullDevice
        compaction.standardError = FileHandle.nullDevice
        try compaction.run()
        var during = 0
        var failures: [String] = []
        while compaction.isRunning {
            let (body, response) = try await session.data(from: search)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if status != 200 || body != expected { failures.append("\(status): \(String(decoding: body.prefix(300), as: UTF8.self))") }
            // Asked while the compaction ran (the loop's condition): with
            // the whole suite on two cores, an answer may come only after
            // the compaction has ended. That is this process starved, not
            // the server waiting: alone on two cores with four busy loops,
            // 148 searches during an 11 s compaction of 269 MB (1 s pauses)
            // took at most 32 ms each.
            during += 1
        }
        compaction.waitUntilExit()
        #expect(compaction.terminationStatus == 0)
        #expect(failures.isEmpty, "searches failed during the compaction: \(failures.prefix(3))")
        // A search takes milliseconds (at most 13 ms during a compaction
        // of 270 MB, measured), but with the whole suite running on two
        // cores one took over a second: every search that overlapped the
        // compaction must have answered; at least one must have.
        #expect(during >= 1, "no search ran while the compaction did")
        #expect(size() < sizeBefore * 2 / 3, "the file shrank under the server: \(sizeBefore) -> \(size())")
        let (afterBody, _) = try await session.data(from: search)
        #expect(afterBody == expected)
        let (healthBody, healthResponse) = try await session.data(from: health)
        #expect((healthResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: healthBody, as: UTF8.self).contains(#""status":"ok""#), "\(String(decoding: healthBody, as: UTF8.self))")
    }

    /// Past `--max-connections`, a new connection is not accepted (its
    /// request waits in the listen backlog) until an open one closes.
    @Test func connectionsBeyondTheMaximumWaitForOneToClose() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, ["--max-connections", "1", "--idle-timeout", "30"])
        let port = server.port
        let open = try LoopbackSocket(port: port)
        open.send("GET /lookup?id=364709193 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(open.readResponse()?.status == 200)

        let waiting = try LoopbackSocket(port: port)
        waiting.send("GET /lookup?id=364709193 HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(waiting.readResponse(seconds: 1) == nil, "a connection beyond --max-connections was answered")
        open.close()
        #expect(waiting.readResponse()?.status == 200, "the waiting connection was not answered once the other closed")
    }

    /// A request longer than NIO's decoder reads (32 kB of request line and
    /// header fields) reaches neither path, and is still answered in the
    /// API's shape, then the connection closed (schemathesis once sent a
    /// 42 kB `id=`, and got a bare 400 with no content type).
    @Test func aRequestTooLongToReadIsAnsweredInTheAPIsShape() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, [])
        let socket = try LoopbackSocket(port: server.port)
        socket.send("GET /lookup?id=\(String(repeating: "1", count: 40 * 1024)) HTTP/1.1\r\nHost: a\r\n\r\n")
        let answer = try #require(socket.readResponse())
        #expect(answer.status == 414)
        #expect(answer.head.contains("Content-Type: text/javascript; charset=utf-8"), "\(answer.head)")
        #expect(answer.head.contains("Connection: close"), "\(answer.head)")
        #expect(answer.body == "{\"errorMessage\":\"The request line and header fields are longer than 32768 bytes\"}\n")
        #expect(socket.readResponse(seconds: 2) == nil)
    }

    /// HEAD is answered as GET is, headers only: the same status, type and
    /// `Content-Length`, and no body (the next answer on the connection
    /// comes right after the head), whichever path answers the GET.
    @Test func headIsAnsweredWithTheHeadOfGet() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, [])
        for path in ["/lookup?id=364709193", "/search?term=chess&limit=2", "/lookup?id=1", "/health"] {
            let socket = try LoopbackSocket(port: server.port)
            socket.send(
                "GET \(path) HTTP/1.1\r\nHost: a\r\n\r\nHEAD \(path) HTTP/1.1\r\nHost: a\r\n\r\nGET /health HTTP/1.1\r\nHost: a\r\n\r\n")
            let get = try #require(socket.readResponse(), "\(path)")
            let head = try #require(socket.readResponse(hasBody: false), "\(path)")
            let next = try #require(socket.readResponse(), "\(path)")
            #expect(head.status == get.status && get.status == 200, "\(path): \(head.head)")
            #expect(head.head.contains("Content-Type: text/javascript; charset=utf-8"), "\(path): \(head.head)")
            #expect(LoopbackSocket.contentLength(head.head) == get.body.utf8.count, "\(path): \(head.head)")
            #expect(next.status == 200 && next.body.contains("\"status\""), "\(path): \(next.head) \(next.body)")
        }
    }

    /// A request that ends its connection is answered, then the connection
    /// closed, whichever path answers it: `Connection: close` in any case
    /// or list, and HTTP/1.0 without `keep-alive`. HTTP/1.1 without it and
    /// HTTP/1.0 with `keep-alive` stay open.
    @Test func requestsThatEndTheirConnectionCloseIt() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, [])
        let cases: [(request: String, closes: Bool)] = [
            ("GET /lookup?id=364709193 HTTP/1.1\r\nHost: a\r\nConnection: Close\r\n\r\n", true),
            ("GET /health HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, CLOSE\r\n\r\n", true),
            ("GET /lookup?id=364709193 HTTP/1.0\r\nHost: a\r\n\r\n", true),
            ("GET /health HTTP/1.0\r\n\r\n", true),
            ("GET /lookup?id=364709193 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", false),
            ("GET /search?term=chess HTTP/1.1\r\nHost: a\r\n\r\n", false),
        ]
        for (request, closes) in cases {
            let socket = try LoopbackSocket(port: server.port)
            socket.send(request)
            let answer = try #require(socket.readResponse(), "\(request)")
            #expect(answer.status == 200, "\(request)")
            #expect(socket.waitForClose(seconds: closes ? 5 : 1) == closes, "\(request)")
        }
    }

    /// A client that pipelines requests and reads no answer is answered
    /// only as far as the connection takes the answers: the server stops
    /// answering (and reading) until the client reads; then it answers
    /// every request, in order. (The idle timeout is long here: closing a
    /// connection with requests still unread makes the client lose the
    /// answers it has not read.)
    @Test func aClientThatDoesNotReadIsAnsweredAsFarAsItReads() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, ["--idle-timeout", "600"], environment: ["LOG_LEVEL": "info"])
        let socket = try LoopbackSocket(port: server.port)
        let written = DispatchSemaphore(value: 0)
        // Written from a thread: the write blocks once the server stops reading.
        Thread.detachNewThread {
            socket.send(String(repeating: Self.lookup, count: Self.pipelined))
            written.signal()
        }
        let count = try await server.answersOnceTheyStop()
        #expect(count > 0 && count < Self.pipelined, "\(count) of \(Self.pipelined) answered though the client read none")

        var statuses = 0
        while statuses < Self.pipelined, let answer = socket.readResponse(), answer.status == 200 { statuses += 1 }
        #expect(statuses == Self.pipelined)
        #expect(written.wait(timeout: .now() + 60) == .success)
    }

    /// A client that stops reading for good is closed after the idle
    /// timeout, and does not hold up a graceful stop (SIGTERM) past it.
    @Test func aClientThatStopsReadingDoesNotHoldUpSIGTERM() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, ["--idle-timeout", "2"], environment: ["LOG_LEVEL": "info"])
        let stuck = try LoopbackSocket(port: server.port)
        Thread.detachNewThread { stuck.send(String(repeating: Self.lookup, count: Self.pipelined)) }
        _ = try await server.answersOnceTheyStop()
        let stopped = ContinuousClock.now
        server.process.terminate()
        while server.process.isRunning, ContinuousClock.now - stopped < .seconds(60) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!server.process.isRunning, "epf-server still runs 60 s after SIGTERM, held by a client that does not read")
    }

    /// 10,000 lookups pipelined: ~19 MB of answers, more than the socket
    /// buffers hold (4 MB).
    static let pipelined = 10_000
    static let lookup = "GET /lookup?id=364709193 HTTP/1.1\r\nHost: a\r\n\r\n"

    /// A GET with `Expect: 100-continue` and a body is answered at once
    /// (by the router), not after a body the client waits to send.
    @Test func aGetThatExpectsContinueIsAnsweredAtOnce() async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(.eventLoop, expectsEventLoopAnswers: false) { client in
            let answer = try await client.execute(
                uri: "/lookup?id=364709193", method: .get, headers: [.expect: "100-continue", .contentLength: "5"], body: nil
            ) { $0.status }
            #expect(answer == .ok)
        }
    }

    @Test func badOptionsExit64AndAMissingCatalogExits1() throws {
        let folder = try TemporaryFolder.create("epf-server-options")
        defer { try? FileManager.default.removeItem(at: folder) }
        let badPort = try EPFRunner.run(try Self.executable, ["--port", "70000"], in: folder)
        #expect(badPort.status == 64)
        let none = folder.appendingPathComponent("none.sqlite").path
        let missing = try EPFRunner.run(try Self.executable, ["--db", none, "--port", "0"], in: folder)
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("epf-server:"))
        // The path once: the error names it already.
        #expect(missing.stderr.components(separatedBy: none).count == 2, "\(missing.stderr)")
    }

    /// The access log (a line per request) can be turned off, or sent to a
    /// file of its own, on both paths (the event loop's `/lookup`, the
    /// router's `/health`); the other messages stay on standard error.
    @Test func theAccessLogGoesOffOrToAFile() async throws {
        let catalog = try SampleCatalog()
        let off = try await RunningServer(catalog, ["--access-log", "off"])
        _ = try await URLSession.shared.data(from: URL(string: "\(off.base)/lookup?id=364709193")!)
        _ = try await URLSession.shared.data(from: URL(string: "\(off.base)/health")!)
        let quiet = try off.logText()
        #expect(quiet.contains("listening on"), "\(quiet)")
        #expect(!quiet.contains("GET /lookup 200") && !quiet.contains("GET /health 200"), "\(quiet)")

        let file = catalog.folder.appendingPathComponent("access.log")
        let logged = try await RunningServer(catalog, ["--access-log", file.path])
        _ = try await URLSession.shared.data(from: URL(string: "\(logged.base)/lookup?id=364709193")!)
        _ = try await URLSession.shared.data(from: URL(string: "\(logged.base)/health")!)
        var lines = ""
        for _ in 0..<50 where !lines.contains("GET /health 200") {
            try await Task.sleep(for: .milliseconds(100))
            lines = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
        }
        #expect(lines.contains("GET /lookup 200") && lines.contains("GET /health 200"), "\(lines)")
        #expect(lines.contains("hb.request.id="), "\(lines)")
        #expect(!(try logged.logText()).contains("GET /lookup 200"))
    }

    /// `--log-format json`: every line of the log, the server's and the
    /// access log's, is one JSON object with the time, level, label,
    /// message and the fields.
    @Test func theLogCanBeJSONLines() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, ["--log-format", "json"])
        let session = URLSession(configuration: .ephemeral)
        _ = try await session.data(from: try #require(URL(string: "\(server.base)/lookup?id=364709193")))
        session.invalidateAndCancel()
        var lines: [[String: Any]] = []
        for _ in 0..<50 {
            lines = try server.logText().split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            }
            if lines.contains(where: { $0["message"] as? String == "GET /lookup 200" }) { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(lines.allSatisfy { $0["time"] is String && $0["level"] is String && $0["label"] is String && $0["message"] is String })
        let access = try #require(lines.first { $0["message"] as? String == "GET /lookup 200" }, "\(lines)")
        #expect(access["label"] as? String == "epf-server.access" && access["level"] as? String == "info")
        #expect(access["path"] as? String == "/lookup" && access["status"] as? String == "200" && access["hb.request.id"] is String)
        #expect(lines.contains { ($0["message"] as? String)?.hasPrefix("epf-server listening on http://127.0.0.1:") == true })
        #expect(try EPFRunner.run(try Self.executable, ["--log-format", "xml"], in: catalog.folder).status == 64)
    }

    /// `--metrics-port`: `/metrics` on a port of its own (and nothing else
    /// there), not on the API's; it counts the API's requests.
    @Test func metricsOnAPortOfTheirOwn() async throws {
        let catalog = try SampleCatalog()
        let server = try await RunningServer(catalog, ["--metrics-port", "0"])
        let metrics = "http://127.0.0.1:\(try await server.metricsPort())"
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        for _ in 0..<3 { _ = try await session.data(from: try #require(URL(string: "\(server.base)/lookup?id=364709193"))) }
        let (_, beside) = try await session.data(from: try #require(URL(string: "\(server.base)/metrics")))
        #expect((beside as? HTTPURLResponse)?.statusCode == 404)
        let (body, answer) = try await session.data(from: try #require(URL(string: "\(metrics)/metrics")))
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains(#"epf_http_requests_total{route="/lookup",status="200"} 3"#), "\(text)")
        let (_, other) = try await session.data(from: try #require(URL(string: "\(metrics)/lookup?id=364709193")))
        #expect((other as? HTTPURLResponse)?.statusCode == 404)

        let off = try EPFRunner.run(try Self.executable, ["--metrics-port", "9191", "--no-metrics"], in: catalog.folder)
        #expect(off.status == 64 && off.stderr.contains("--no-metrics"), "\(off.stderr)")
        let same = try EPFRunner.run(try Self.executable, ["--port", "9191", "--metrics-port", "9191"], in: catalog.folder)
        #expect(same.status == 64 && same.stderr.contains("--metrics-port must differ from --port"), "\(same.stderr)")
        let wildcard = try EPFRunner.run(
            try Self.executable, ["--host", "0.0.0.0", "--port", "9191", "--metrics-host", "127.0.0.1", "--metrics-port", "9191"],
            in: catalog.folder)
        #expect(wildcard.status == 64, "\(wildcard.stderr)")
        // A metrics port another program holds: the message names it.
        let busy = try EPFRunner.run(
            try Self.executable, ["--db", catalog.path, "--port", "0", "--metrics-port", "\(server.port)"], in: catalog.folder)
        #expect(busy.status == 1)
        #expect(busy.stderr.contains("or on http://127.0.0.1:\(server.port) (--metrics-port)"), "\(busy.stderr)")
        let hostOnly = try EPFRunner.run(try Self.executable, ["--metrics-host", "127.0.0.1"], in: catalog.folder)
        #expect(hostOnly.status == 64 && hostOnly.stderr.contains("--metrics-host needs --metrics-port"), "\(hostOnly.stderr)")
    }

    /// `--log-level` takes swift-log's levels, and nothing else.
    @Test func theLogLevelIsAnOption() throws {
        let folder = try TemporaryFolder.create("epf-server-options")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = try EPFRunner.run(try Self.executable, ["--log-level", "loud"], in: folder)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--log-level must be one of trace, debug, info, notice, warning, error, critical"), "\(bad.stderr)")
        let help = try EPFRunner.run(try Self.executable, ["--help"], in: folder)
        #expect(help.stdout.contains("--log-level") && help.stdout.contains("--access-log"), "\(help.stdout)")
    }

    /// A port another program listens on: exit 1, with the address and
    /// what to do (NIO's own words were "bind(descriptor:ptr:bytes:):
    /// Address already in use) (errno: 98)").
    @Test func aBusyPortSaysWhichAndWhatToDo() throws {
        let catalog = try SampleCatalog()
        let listener = try LoopbackListener()
        defer { listener.close() }
        let result = try EPFRunner.run(try Self.executable, ["--db", catalog.path, "--port", String(listener.port)], in: catalog.folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("cannot listen on http://127.0.0.1:\(listener.port): the address is already in use"), "\(result.stderr)")
        #expect(result.stderr.contains("give another --port"), "\(result.stderr)")
        #expect(!result.stderr.contains("bind(descriptor"), "\(result.stderr)")
    }
}

/// A socket listening on a port of 127.0.0.1 the system chose.
private final class LoopbackListener {
    private let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0, "bind: \(errno)")
        try #require(listen(descriptor, 4) == 0, "listen: \(errno)")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        try #require(named == 0, "getsockname: \(errno)")
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }
}

/// `epf-server` on the sample catalog, on a port of 127.0.0.1 the system
/// chose (read from its startup line), its log in a file of the catalog's
/// folder; stopped when released.
final class RunningServer {
    let process: Process
    let port: Int
    private let log: URL
    private let logHandle: FileHandle

    init(_ catalog: SampleCatalog, _ options: [String], environment: [String: String] = [:]) async throws {
        log = catalog.folder.appendingPathComponent("server-\(UUID().uuidString).log")
        process = try EPFRunner.process(
            try ServerProcessTests.executable, ["--db", catalog.path, "--host", "127.0.0.1", "--port", "0"] + options,
            in: catalog.folder, environment: environment)
        logHandle = try EPFRunner.sendOutput(of: process, to: log)
        try process.run()
        do {
            port = try await Self.port(in: log, after: "listening on")
        } catch {
            process.terminate()
            throw error
        }
    }

    /// The port of the first `AFTER http://127.0.0.1:PORT` the log at
    /// `log` says, once it says it (10 s at most).
    private static func port(in log: URL, after words: String) async throws -> Int {
        for _ in 0..<200 {
            let text = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
            if let range = text.range(of: words + #" http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                return try #require(text[range].split(separator: ":").last.flatMap { Int($0) })
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServerStartTimeout(log: String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self), waitedFor: words)
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? logHandle.close()
    }

    /// `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// What it logged so far.
    func logText() throws -> String { String(decoding: try Data(contentsOf: log), as: UTF8.self) }

    /// The port of `/metrics` (`--metrics-port`), from its startup line.
    func metricsPort() async throws -> Int { try await Self.port(in: log, after: "metrics on") }

    /// The `/lookup` answers it logged, once their count has not grown for
    /// 2 s (or after 5 minutes).
    func answersOnceTheyStop() async throws -> Int {
        func answered() throws -> Int { try logText().components(separatedBy: "GET /lookup 200").count - 1 }
        var count = -1
        var still = 0
        for _ in 0..<600 where still < 4 {
            try await Task.sleep(for: .milliseconds(500))
            let now = try answered()
            still = now == count ? still + 1 : 0
            count = now
        }
        return count
    }
}

/// A TCP connection to 127.0.0.1, written to by hand.
///
/// `@unchecked Sendable`: one test writes from one thread and reads from
/// another, each on the socket's own direction.
final class LoopbackSocket: @unchecked Sendable {
    private let descriptor: Int32

    /// A connection to `port` on 127.0.0.1, from `source` (another
    /// loopback address is another client to the server).
    init(port: Int, from source: String? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try #require(descriptor >= 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0, "bind \(source): \(errno)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "connect: \(errno)")
    }

    private var isOpen = true

    deinit { close() }

    /// Closes the connection (once).
    func close() {
        guard isOpen else { return }
        isOpen = false
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }

    /// Sends `text`; on a connection the server closed, nothing (no
    /// SIGPIPE).
    func send(_ text: String) {
        #if canImport(Glibc)
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
        _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        #endif
    }

    private var pending: [UInt8] = []

    /// The next response (`Content-Length` bodies only; none for the
    /// answer to HEAD, `hasBody` false), nil when the connection closes or
    /// `seconds` pass first.
    func readResponse(seconds: Int = 10, hasBody: Bool = true) -> (status: Int, head: String, body: String)? {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = pending.indices.first(where: { pending[$0...].starts(with: separator) }) {
                let head = String(decoding: pending[..<end], as: UTF8.self)
                let length = hasBody ? Self.contentLength(head) ?? 0 : 0
                let bodyStart = end + separator.count
                if pending.count >= bodyStart + length {
                    let body = String(decoding: pending[bodyStart..<(bodyStart + length)], as: UTF8.self)
                    pending.removeFirst(bodyStart + length)
                    let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                    return (status, head, body)
                }
            }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            pending += buffer[..<count]
        }
    }

    /// The `Content-Length` of a response head.
    static func contentLength(_ head: String) -> Int? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    /// Whether the server closes the connection within `seconds`.
    func waitForClose(seconds: Int) -> Bool {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return true }  // closed by the server
            if count < 0 { return errno == ECONNRESET }  // timed out: still open
        }
    }
}

@Suite("epf serve")
struct ServeCommandTests {
    @Test func runsTheServerBesideEPFWithTheSameOptions() throws {
        let folder = try TemporaryFolder.create("epf-serve")
        defer { try? FileManager.default.removeItem(at: folder) }
        // epf-server's own validation answers: the options went through.
        let badPort = try EPFRunner.run(["serve", "--port", "70000"], in: folder)
        #expect(badPort.status == 64, "\(badPort.stderr)")
        #expect(badPort.stderr.contains("--port must be between 0 and 65535"), "\(badPort.stderr)")
        let help = try EPFRunner.run(["serve", "--help"], in: folder)
        #expect(help.stdout.contains("--max-in-flight"), "\(help.stdout)\(help.stderr)")
    }

    @Test func saysHowToBuildTheServerWhenItIsMissing() throws {
        let folder = try TemporaryFolder.create("epf-serve-alone")
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("epf")
        try FileManager.default.copyItem(at: try EPFRunner.executable, to: alone)
        let result = try EPFRunner.run(alone, ["serve"], in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("swift build -c release --product epf-server"), "\(result.stderr)")
    }
}

/// A server that did not log what a test waited for.
struct ServerStartTimeout: Error, CustomStringConvertible {
    var log: String
    var waitedFor: String
    var description: String { "the server did not log \"\(waitedFor)\": \(log)" }
}
