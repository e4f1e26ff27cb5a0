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
        let log = catalog.folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        let process = try EPFRunner.process(
            try Self.executable, ["--db", catalog.path, "--host", "127.0.0.1", "--port", "0", "--readers", "2"], in: catalog.folder)
        process.standardError = logHandle
        process.standardOutput = logHandle
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The startup line names the port the system chose.
        var base: String?
        for _ in 0..<200 where base == nil {
            let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
            if let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                base = String(text[range])
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let startup = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        let url = try #require(base, "no startup line: \(startup)")

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

        process.terminate()  // SIGTERM
        process.waitUntilExit()
        try logHandle.close()
        let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(text)")
        // One line per request, with its request id.
        #expect(text.contains("GET /lookup 200"), "\(text)")
        #expect(text.contains("hb.request.id="), "\(text)")
    }

    @Test func badOptionsExit64AndAMissingCatalogExits1() throws {
        let folder = try TemporaryFolder.create("epf-server-options")
        defer { try? FileManager.default.removeItem(at: folder) }
        let badPort = try EPFRunner.run(try Self.executable, ["--port", "70000"], in: folder)
        #expect(badPort.status == 64)
        let missing = try EPFRunner.run(try Self.executable, ["--db", folder.appendingPathComponent("none.sqlite").path, "--port", "0"], in: folder)
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("epf-server:"))
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
