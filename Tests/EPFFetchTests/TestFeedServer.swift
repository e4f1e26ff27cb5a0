import EPFTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A local EPF server for the tests: nginx (not as a daemon, on a free
/// loopback port, with basic auth) serving v5 trees built from the sample
/// feeds at test time, each file as `NAME.tbz` + `NAME.tbz.md5`:
///
/// - `/v5/current/`: `itunes20261101/`, `pricing20261101/`,
///   `popularity20261101/` (FULL) and `incremental/current/itunes20261102/`.
/// - `/bad-md5/current/`: `itunes20261101/` whose `genre.tbz.md5` is wrong.
/// - `/missing/current/`: `itunes20261101/` whose listing (a page of its
///   own, `listing.html`) also names `ghost.tbz`, which is not there.
///
/// `/moved/` redirects to `/v5/current/` on `localhost` (another host).
///
/// nginx logs each request with its `Range` header and basic-auth user:
/// `access.log`.
final class TestFeedServer {
    static let nginx: String? = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static var available: Bool { nginx != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }
    static let skipReason: Comment = "no nginx (or openssl) on this machine: scripts/install-system-packages installs them"

    static let user = "partner"
    static let password = "Pa55-w0rd-not-to-print"

    let root: URL
    let www: URL
    let port: Int
    private let process: Process

    init() throws {
        root = try TemporaryFolder.create("epf-fetch-server")
        www = root.appendingPathComponent("www")
        let v5 = www.appendingPathComponent("v5/current")
        try Self.makeFeed(SampleFeeds.url("itunes20261101"), in: v5)
        try Self.makeFeed(SampleFeeds.url("pricing20261101"), in: v5)
        try Self.makeFeed(SampleFeeds.url("popularity20261101"), in: v5)
        try Self.makeFeed(SampleFeeds.url("itunes20261102"), in: v5.appendingPathComponent("incremental/current"))

        let badMD5 = www.appendingPathComponent("bad-md5/current")
        try Self.makeFeed(SampleFeeds.url("itunes20261101"), in: badMD5)
        try "MD5 (genre.tbz) = 0123456789abcdef0123456789abcdef\n".write(
            to: badMD5.appendingPathComponent("itunes20261101/genre.tbz.md5"), atomically: true, encoding: .utf8)

        let missing = www.appendingPathComponent("missing/current")
        try Self.makeFeed(SampleFeeds.url("itunes20261101"), in: missing)
        let names = try FileManager.default.contentsOfDirectory(atPath: missing.appendingPathComponent("itunes20261101").path).sorted()
        let links = (names + ["ghost.tbz", "ghost.tbz.md5"]).map { "<a href=\"\($0)\">\($0)</a>  01-Nov-2026 04:40  -" }
        try "<html><body><pre><a href=\"../\">../</a>\n\(links.joined(separator: "\n"))\n</pre></body></html>\n".write(
            to: missing.appendingPathComponent("itunes20261101/listing.html"), atomically: true, encoding: .utf8)
        try "MD5 (ghost.tbz) = 0123456789abcdef0123456789abcdef\n".write(
            to: missing.appendingPathComponent("itunes20261101/ghost.tbz.md5"), atomically: true, encoding: .utf8)

        let hash = try runShell("openssl passwd -apr1 '\(Self.password)'")
        #expect(hash.status == 0)
        let line = "\(Self.user):\(String(decoding: hash.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))\n"
        try line.write(to: root.appendingPathComponent("htpasswd"), atomically: true, encoding: .utf8)

        port = try Self.freePort()
        let path = root.path
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log warn;
            events { worker_connections 64; }
            http {
              log_format ranged '$request_method $uri $status range=[$http_range] sent=$body_bytes_sent user=$remote_user';
              access_log \(path)/access.log ranged;
              client_body_temp_path \(path)/temp-body;
              proxy_temp_path \(path)/temp-proxy;
              fastcgi_temp_path \(path)/temp-fastcgi;
              uwsgi_temp_path \(path)/temp-uwsgi;
              scgi_temp_path \(path)/temp-scgi;
              server {
                listen 127.0.0.1:\(port);
                root \(www.path);
                location /moved/ { return 302 http://localhost:\(port)/v5/current/; }
                location / {
                  autoindex on;
                  index listing.html;
                  auth_basic "EPF";
                  auth_basic_user_file \(path)/htpasswd;
                }
              }
            }
            """
        try configuration.write(to: root.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.nginx!)
        process.arguments = ["-c", root.appendingPathComponent("nginx.conf").path, "-e", root.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Up when it accepts a connection (within 10 s).
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(port) {
            guard process.isRunning, Date() < deadline else {
                let log = (try? String(contentsOf: root.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
                stop()
                throw TestServerError(detail: "nginx did not start: \(log)")
            }
            usleep(20_000)
        }
    }

    struct TestServerError: Error, CustomStringConvertible {
        var detail: String
        var description: String { detail }
    }

    /// The base URL of tree `name` (`v5`, `bad-md5`, `missing`).
    func url(_ name: String) -> String { "http://127.0.0.1:\(port)/\(name)/current/" }

    /// The environment that gives `epf` the right credentials.
    var credentials: [String: String] { ["EPF_USERNAME": Self.user, "EPF_PASSWORD": Self.password] }

    /// The access log's lines so far.
    var requests: [String] {
        ((try? String(contentsOf: root.appendingPathComponent("access.log"), encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: root)
    }

    /// `feed`'s table files as `NAME.tbz` + `NAME.tbz.md5` in `parent/<feed>/`.
    static func makeFeed(_ feed: URL, in parent: URL) throws {
        let target = parent.appendingPathComponent(feed.lastPathComponent)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: feed, to: target)
        let made = try runShell(
            "for t in *; do tar -cjf $t.tbz $t && echo \"MD5 ($t.tbz) = $(md5sum < $t.tbz | cut -c1-32)\" > $t.tbz.md5 && rm $t; done",
            in: target)
        #expect(made.status == 0)
    }

    static func freePort() throws -> Int {
        guard let port = freeLoopbackPort() else { throw TestServerError(detail: "no free port") }
        return port
    }

    static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
