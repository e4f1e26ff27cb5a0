import EPFTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP server with faults on request, for the retry tests: a
/// Python `http.server` script (written and started by the test, on a free
/// loopback port, no auth) serving a folder with folder listings, `Range`
/// requests (206, 416) and, per path, a queue of faults the next requests
/// of that path get, one each:
///
/// - `500`: an HTTP 500;
/// - `drop:N`: the answer's headers as for the whole body (or the range
///   asked), N bytes of it, then the connection is closed;
/// - `slow:MS`: the answer after MS milliseconds;
/// - `stall:N`: the answer's headers as for the whole body (or the range
///   asked), N bytes of it, then nothing more (the connection held open
///   for a minute), so a client can be killed mid-download for sure;
/// - `500!` / `drop!:N` / `slow!:MS`: the same for every request, forever.
///
/// The most requests it answered at once so far: `peak`.
///
/// Each request is logged: `GET PATH STATUS range=[RANGE] sent=BYTES`, and
/// its `User-Agent` beside (`agents`).
final class FaultServer {
    static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") }
    static let skipReason: Comment = "no /usr/bin/python3 on this machine"

    let root: URL
    let www: URL
    let port: Int
    private let process: Process

    /// Serves `www` (a folder the test fills), faults as `faults[path]`.
    init(faults: [String: [String]]) throws {
        root = try TemporaryFolder.create("epf-fault-server")
        www = root.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        let tree = www.appendingPathComponent("fault/current")
        try TestFeedServer.makeFeed(SampleFeeds.url("itunes20261101"), in: tree)
        try Self.script.write(to: root.appendingPathComponent("server.py"), atomically: true, encoding: .utf8)
        let configuration = try JSONSerialization.data(withJSONObject: faults)
        port = try TestFeedServer.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            root.appendingPathComponent("server.py").path, www.path, "\(port)", String(decoding: configuration, as: UTF8.self),
            root.appendingPathComponent("access.log").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !TestFeedServer.accepts(port) {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw TestFeedServer.TestServerError(detail: "the fault server did not start")
            }
            usleep(20_000)
        }
    }

    var url: String { url("fault") }

    /// The base URL of the tree `www/NAME/current/` (`fault`, or one a test adds).
    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)/current/" }

    /// The access log's lines so far.
    var requests: [String] {
        ((try? String(contentsOf: root.appendingPathComponent("access.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
    }

    /// The `User-Agent` of each request so far, in the log's order (`-`
    /// for none).
    var agents: [String] {
        ((try? String(contentsOf: root.appendingPathComponent("access.log.agents"), encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
    }

    /// The most requests answered at once so far.
    var peak: Int {
        Int(((try? String(contentsOf: root.appendingPathComponent("access.log.peak"), encoding: .utf8)) ?? "0")) ?? 0
    }

    /// The bytes of a file of the tree (`itunes20261101/application.tbz`).
    func bytes(_ path: String) throws -> Data { try Data(contentsOf: www.appendingPathComponent("fault/current/" + path)) }

    func stop() {
        // SIGKILL: the test process may block SIGTERM, and a child inherits that.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: root)
    }

    static let script = #"""
        import http.server, json, os, sys, threading, time

        root, port, faults, log_path = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]
        lock = threading.Lock()
        state = {"now": 0, "peak": 0}

        class Handler(http.server.SimpleHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=root, **kwargs)

            def log_message(self, *args):
                pass

            def log(self, status, sent):
                with lock, open(log_path, "a") as log:
                    log.write("GET %s %d range=[%s] sent=%d\n" % (self.path, status, self.headers.get("Range") or "-", sent))
                with lock, open(log_path + ".agents", "a") as agents:
                    agents.write("%s\n" % (self.headers.get("User-Agent") or "-"))

            def next_fault(self):
                with lock:
                    queue = faults.get(self.path) or []
                    if not queue:
                        return None
                    fault = queue[0]
                    if "!" not in fault:
                        queue.pop(0)
                    return fault.replace("!", "")

            def do_GET(self):
                with lock:
                    state["now"] += 1
                    state["peak"] = max(state["peak"], state["now"])
                    with open(log_path + ".peak", "w") as peak:
                        peak.write(str(state["peak"]))
                try:
                    self.answer()
                finally:
                    with lock:
                        state["now"] -= 1

            def answer(self):
                fault = self.next_fault()
                if fault and fault.startswith("slow:"):
                    time.sleep(int(fault[5:]) / 1000)
                    fault = None
                if fault == "500":
                    self.send_response(500)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    self.log(500, 0)
                    return
                local = os.path.join(root, self.path.lstrip("/"))
                if os.path.isdir(local):
                    self.log(200, 0)
                    return super().do_GET()
                if not os.path.isfile(local):
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    self.log(404, 0)
                    return
                with open(local, "rb") as file:
                    body = file.read()
                start, status = 0, 200
                asked = self.headers.get("Range")
                if asked and asked.startswith("bytes=") and asked.endswith("-"):
                    start = int(asked[6:-1])
                    if start >= len(body):
                        self.send_response(416)
                        self.send_header("Content-Range", "bytes */%d" % len(body))
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        self.log(416, 0)
                        return
                    status = 206
                self.send_response(status)
                if status == 206:
                    self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(body) - 1, len(body)))
                self.send_header("Content-Length", str(len(body) - start))
                self.end_headers()
                rest = body[start:]
                if fault and fault.startswith("drop:"):
                    rest = rest[: int(fault[5:])]
                if fault and fault.startswith("stall:"):
                    rest = rest[: int(fault[6:])]
                self.wfile.write(rest)
                self.wfile.flush()
                self.log(status, len(rest))
                if fault and fault.startswith("stall:"):
                    time.sleep(60)
                    self.close_connection = True
                if fault and fault.startswith("drop:"):
                    self.close_connection = True

        http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """#
}
