import EPFFetch
import EPFTestSupport
import Foundation
import Testing

/// `epf fetch` against a local nginx with basic auth (`TestFeedServer`).
@Suite("epf fetch", .enabled(if: TestFeedServer.available, TestFeedServer.skipReason), .timeLimit(.minutes(2)))
struct FetchCommandTests {
    /// The tables of the sample feeds.
    static let tables = [
        "application", "application_detail", "application_device_type", "artist", "artist_application", "device_type", "genre",
        "genre_application", "storefront", "application_price", "application_popularity_per_genre",
    ]

    /// A test's own folder and server.
    final class Setup {
        let folder: URL
        let server: TestFeedServer

        init() throws {
            folder = try TemporaryFolder.create("epf-fetch")
            server = try TestFeedServer()
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func epf(_ arguments: [String], environment: [String: String]? = nil) throws -> EPFRunner.Result {
            try EPFRunner.run(arguments, in: folder, environment: environment ?? server.credentials)
        }

        func fetch(_ tree: String = "v5", _ arguments: [String] = [], environment: [String: String]? = nil) throws -> EPFRunner.Result {
            try epf(["fetch", "--to", "dl", "--url", server.url(tree)] + arguments, environment: environment)
        }

        /// Each table's rows, sorted, as CSV.
        func catalog(_ database: String) throws -> [String: [Substring]] {
            var rows: [String: [Substring]] = [:]
            for table in FetchCommandTests.tables {
                let result = try epf(["sql", "--db", database, "--format", "csv", "SELECT * FROM \(table)"])
                #expect(result.status == 0, "\(result.stderr)")
                rows[table] = result.stdout.split(separator: "\n").sorted()
            }
            return rows
        }

        func cleanUp() {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func dryRunPrintsThePlanAndDownloadsNothing() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let result = try setup.fetch("v5", ["--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(
            lines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["feed", "date", "mode", "table", "size", "md5", "path"])
        #expect(lines.count == 1 + 14)
        let size =
            try FileManager.default.attributesOfItem(
                atPath: setup.server.www.appendingPathComponent("v5/current/itunes20261101/application.tbz").path)[.size] as! NSNumber
        #expect(
            lines[1].split(separator: " ", omittingEmptySubsequences: true) == [
                "itunes", "2026-11-01", "FULL", "application", "\(size.int64Value)", "yes", "dl/itunes20261101/application.tbz",
            ])
        #expect(lines.last?.hasSuffix("dl/incremental/current/itunes20261102/genre_application.tbz") == true)
        #expect(result.stdout.contains("INCREMENTAL"))
        #expect(!FileManager.default.fileExists(atPath: setup.path("dl")))
        // Only listings were read.
        #expect(setup.server.requests.allSatisfy { $0.hasPrefix("GET /v5/current/") && $0.contains("/ 200 ") }, "\(setup.server.requests)")

        let json = try setup.fetch("v5", ["--dry-run", "--feed", "pricing", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["path"] as? String } == ["dl/pricing20261101/application_price.tbz"])
    }

    /// The whole tree, then `epf import` of it: the same catalog as an
    /// import of the server's own tree. A second fetch downloads nothing.
    @Test func fetchThenImportIsTheSameCatalogAndASecondFetchDownloadsNothing() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let first = try setup.fetch()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("epf fetch: 14 file(s) downloaded"), "\(first.stderr)")
        #expect(!first.stderr.contains(TestFeedServer.password) && !first.stdout.contains(TestFeedServer.password))
        let files = FileManager.default.enumerator(atPath: setup.path("dl"))!.compactMap { $0 as? String }
        #expect(files.filter { $0.hasSuffix(".tbz") }.count == 14)
        #expect(files.filter { $0.hasSuffix(".tbz.md5") }.count == 14)
        #expect(!files.contains { $0.hasSuffix(".part") || $0.hasSuffix(".tmp") })

        let fetched = try setup.epf(["import", "dl", "--db", "fetched.sqlite"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(!fetched.stderr.contains("note:"), "\(fetched.stderr)")  // every .md5 beside its file
        let source = try setup.epf(["import", setup.server.www.appendingPathComponent("v5/current").path, "--db", "source.sqlite"])
        #expect(source.status == 0, "\(source.stderr)")
        #expect(try setup.catalog("fetched.sqlite") == setup.catalog("source.sqlite"))
        #expect(try setup.catalog("fetched.sqlite")["application"]?.count ?? 0 > 1)

        let before = setup.server.requests.count
        let second = try setup.fetch()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("epf fetch: 0 file(s) downloaded (0 bytes), 14 already there, 0 failed"), "\(second.stderr)")
        let again = setup.server.requests.dropFirst(before)
        #expect(!again.contains { $0.contains(".tbz ") }, "\(Array(again))")
    }

    /// A `.part` left by a download cut short is continued with a Range
    /// request; a `.part` that is not the file's start fails the md5, is
    /// deleted and downloaded again from its start; a whole `.part` is
    /// checked and put in place.
    @Test func aPartIsResumedWithRange() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let source = setup.server.www.appendingPathComponent("v5/current/itunes20261101/application.tbz")
        let bytes = try Data(contentsOf: source)
        try FileManager.default.createDirectory(atPath: setup.path("dl/itunes20261101"), withIntermediateDirectories: true)
        try bytes.prefix(1000).write(to: URL(fileURLWithPath: setup.path("dl/itunes20261101/application.tbz.part")))
        let result = try setup.fetch("v5", ["--feed", "itunes", "--include", "application"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("fetched: dl/itunes20261101/application.tbz (\(bytes.count - 1000) bytes, resumed)"), "\(result.stderr)")
        #expect(
            setup.server.requests.contains(
                "GET /v5/current/itunes20261101/application.tbz 206 range=[bytes=1000-] sent=\(bytes.count - 1000) user=\(TestFeedServer.user)"
            ),
            "\(setup.server.requests)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("dl/itunes20261101/application.tbz"))) == bytes)
        #expect(!FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/application.tbz.part")))

        // Not the file's start: resumed, wrong md5, deleted, downloaded whole.
        try FileManager.default.removeItem(atPath: setup.path("dl/itunes20261101/application.tbz"))
        try Data(repeating: 0x41, count: 1000).write(to: URL(fileURLWithPath: setup.path("dl/itunes20261101/application.tbz.part")))
        let again = try setup.fetch("v5", ["--feed", "itunes", "--include", "application"])
        #expect(again.status == 0, "\(again.stderr)")
        let ranged =
            "GET /v5/current/itunes20261101/application.tbz 206 range=[bytes=1000-] sent=\(bytes.count - 1000) user=\(TestFeedServer.user)"
        #expect(setup.server.requests.filter { $0 == ranged }.count == 2)
        #expect(
            setup.server.requests.contains(
                "GET /v5/current/itunes20261101/application.tbz 200 range=[-] sent=\(bytes.count) user=\(TestFeedServer.user)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("dl/itunes20261101/application.tbz"))) == bytes)

        // Whole already (killed between the last byte and the rename): the
        // server answers the range with 416, the md5 matches, it is renamed.
        try FileManager.default.moveItem(
            atPath: setup.path("dl/itunes20261101/application.tbz"), toPath: setup.path("dl/itunes20261101/application.tbz.part"))
        let whole = try setup.fetch("v5", ["--feed", "itunes", "--include", "application"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stderr.contains("fetched: dl/itunes20261101/application.tbz (0 bytes)"), "\(whole.stderr)")
        #expect(
            setup.server.requests.contains {
                $0.hasPrefix("GET /v5/current/itunes20261101/application.tbz 416 range=[bytes=\(bytes.count)-]")
            })
        #expect(try Data(contentsOf: URL(fileURLWithPath: setup.path("dl/itunes20261101/application.tbz"))) == bytes)
    }

    /// An `.md5` that the file never matches: downloaded twice, reported,
    /// nothing of it left; the other files are fetched.
    @Test func wrongMD5IsReportedAndNothingIsLeft() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let result = try setup.fetch("bad-md5")
        #expect(result.status == 1)
        #expect(result.stderr.contains("failed: dl/itunes20261101/genre.tbz: "), "\(result.stderr)")
        #expect(result.stderr.contains("md5 mismatch after downloading it twice"), "\(result.stderr)")
        #expect(result.stderr.contains("epf fetch: 8 file(s) downloaded"), "\(result.stderr)")
        for name in ["genre.tbz", "genre.tbz.part", "genre.tbz.md5"] {
            #expect(!FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/\(name)")), "\(name)")
        }
        #expect(FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/application.tbz")))
        #expect(setup.server.requests.filter { $0.hasPrefix("GET /bad-md5/current/itunes20261101/genre.tbz 200") }.count == 2)
    }

    /// A listed file the server does not have: reported, the rest fetched.
    @Test func notFoundIsReported() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let result = try setup.fetch("missing")
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "failed: dl/itunes20261101/ghost.tbz: http://127.0.0.1:\(setup.server.port)/missing/current/itunes20261101/ghost.tbz: not found on the server (HTTP 404)"
            ), "\(result.stderr)")
        #expect(result.stderr.contains("epf fetch: 9 file(s) downloaded"), "\(result.stderr)")
        #expect(result.stderr.contains("1 failed"))
        // A 404 is not tried again.
        #expect(!result.stderr.contains("retry:"), "\(result.stderr)")
        #expect(setup.server.requests.filter { $0.hasPrefix("GET /missing/current/itunes20261101/ghost.tbz ") }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/ghost.tbz.part")))
        #expect(!FileManager.default.fileExists(atPath: setup.path("dl/itunes20261101/ghost.tbz")))
    }

    /// Refused or missing credentials: a clear message, exit 1, at once,
    /// and the password in no output, wherever it was given.
    @Test func unauthorizedStopsAtOnceAndPrintsNoCredential() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let wrong = "Wr0ng-secret-to-hide"
        let refused = try setup.fetch("v5", [], environment: ["EPF_USERNAME": TestFeedServer.user, "EPF_PASSWORD": wrong])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the server refused the credentials (HTTP 401)"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.path("dl")))

        let none = try setup.fetch("v5", [], environment: ["EPF_USERNAME": "", "EPF_PASSWORD": "", "HOME": setup.folder.path])
        #expect(none.status == 1)
        #expect(none.stderr.contains("the server asks for credentials (HTTP 401): set EPF_USERNAME and EPF_PASSWORD"), "\(none.stderr)")

        let inURL = try setup.epf(
            ["fetch", "--to", "dl", "--url", "http://\(TestFeedServer.user):\(wrong)@127.0.0.1:\(setup.server.port)/v5/current/"],
            environment: ["HOME": setup.folder.path])
        #expect(inURL.status == 1)
        #expect(inURL.stderr.contains("refused the credentials"), "\(inURL.stderr)")

        for result in [refused, none, inURL] {
            for secret in [wrong, TestFeedServer.password, Data("\(TestFeedServer.user):\(wrong)".utf8).base64EncodedString()] {
                #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(result.stderr)")
            }
        }
        // Only the listing was asked for, each time, once: a 401 is not tried again.
        #expect(setup.server.requests.count == 3, "\(setup.server.requests)")
        #expect(![refused, none, inURL].contains { $0.stderr.contains("retry:") })
        #expect(setup.server.requests.allSatisfy { $0.hasPrefix("GET /v5/current/ 401 ") }, "\(setup.server.requests)")

        // A redirect to another host does not take the credentials along.
        let before = setup.server.requests.count
        let moved = try setup.fetch("moved", ["--dry-run"])
        #expect(moved.status == 1)
        #expect(moved.stderr.contains("the server refused the credentials (HTTP 401)"), "\(moved.stderr)")
        let redirected = setup.server.requests.dropFirst(before).map { $0.replacing(#/\ssent=\d+/#, with: "") }
        #expect(redirected == ["GET /moved/current/ 302 range=[-] user=\(TestFeedServer.user)", "GET /v5/current/ 401 range=[-] user=-"])

        // ~/.netrc, when the environment has no credentials.
        try "machine 127.0.0.1 login \(TestFeedServer.user) password \(TestFeedServer.password)\n".write(
            to: setup.folder.appendingPathComponent(".netrc"), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "EPF_USERNAME")
        environment.removeValue(forKey: "EPF_PASSWORD")
        environment["HOME"] = setup.folder.path
        let process = try EPFRunner.process(["fetch", "--to", "dl", "--url", setup.server.url("v5"), "--dry-run"], in: setup.folder)
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(listed.split(separator: "\n").count == 15)
        #expect(!listed.contains(TestFeedServer.password))
    }

    /// The free-space check before downloading: the listed sizes of what is
    /// still to download against the free space (here the figure
    /// `EPF_TEST_DOWNLOAD_FREE_BYTES` gives); refused, nothing downloaded.
    /// `epf sync` adds the catalog's expected growth: the catalog is on the
    /// same disk, so the two add up.
    @Test func aPlanThatDoesNotFitIsRefused() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let tree = setup.server.www.appendingPathComponent("v5/current")
        let total = FileManager.default.enumerator(atPath: tree.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".tbz") }.reduce(
            Int64(0)
        ) {
            $0
                + ((try? FileManager.default.attributesOfItem(atPath: tree.appendingPathComponent($1).path)[.size] as? NSNumber)?.int64Value
                    ?? 0)
        }
        var environment = setup.server.credentials
        environment["EPF_TEST_DOWNLOAD_FREE_BYTES"] = "\(total - 1)"
        let refused = try setup.fetch("v5", [], environment: environment)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "epf fetch: not enough free space for dl: the files to download need \(total) bytes (their listed sizes), \(total - 1) bytes are free; nothing downloaded: free space there, or choose a download folder (--to) on a disk with room"
            ),
            "\(refused.stderr)")
        #expect(!setup.server.requests.contains { $0.contains(".tbz") })

        // The download fits, not with the catalog's growth beside it.
        let growth = Int64((Double(total) * DiskSpace.catalogGrowthFactor(catalogExists: false)).rounded(.up))
        environment["EPF_TEST_DOWNLOAD_FREE_BYTES"] = "\(total + growth - 1)"
        let synced = try setup.epf(["sync", "--to", "dl", "--db", "c.sqlite", "--url", setup.server.url("v5")], environment: environment)
        #expect(synced.status == 1)
        #expect(
            synced.stderr.contains(
                "epf sync: not enough free space for dl and c.sqlite (one disk): the files to download need \(total) bytes (their listed sizes), the catalog needs about \(growth) bytes (\(String(format: "%g", DiskSpace.catalogGrowthFactor(catalogExists: false))) x their listed sizes, to import them into a new catalog), \(total + growth) bytes in all, \(total + growth - 1) bytes are free; nothing downloaded: free space there, or choose a download folder (--to) or a catalog (--db) on a disk with room"
            ),
            "\(synced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.path("c.sqlite")))
        #expect(!setup.server.requests.contains { $0.contains(".tbz") })
        // The catalog on another disk (a tmpfs, when there is one): checked
        // alone, with its own free figure (`EPF_TEST_FREE_BYTES`).
        if let other = try Self.folderOnAnotherDisk(than: setup.folder) {
            defer { try? FileManager.default.removeItem(at: other) }
            let catalog = other.appendingPathComponent("c.sqlite").path
            var apart = environment
            apart["EPF_TEST_DOWNLOAD_FREE_BYTES"] = "\(total)"
            apart["EPF_TEST_FREE_BYTES"] = "\(growth - 1)"
            let short = try setup.epf(["sync", "--to", "dl", "--db", catalog, "--url", setup.server.url("v5")], environment: apart)
            #expect(short.status == 1)
            #expect(
                short.stderr.contains(
                    "epf sync: not enough free space for \(catalog): the catalog needs about \(growth) bytes (9 x their listed sizes, to import them into a new catalog), \(growth - 1) bytes are free; nothing downloaded"
                ),
                "\(short.stderr)")
            #expect(!FileManager.default.fileExists(atPath: catalog))
            #expect(!setup.server.requests.contains { $0.contains(".tbz") })
        }

        environment["EPF_TEST_DOWNLOAD_FREE_BYTES"] = "\(total + growth)"
        let fits = try setup.epf(["sync", "--to", "synced", "--db", "c.sqlite", "--url", setup.server.url("v5")], environment: environment)
        #expect(fits.status == 0, "\(fits.stderr)")

        // It fits: downloaded. Then nothing is left to download: no check fails.
        environment["EPF_TEST_DOWNLOAD_FREE_BYTES"] = "\(total)"
        #expect(try setup.fetch("v5", [], environment: environment).status == 0)
        environment["EPF_TEST_DOWNLOAD_FREE_BYTES"] = "0"
        let again = try setup.fetch("v5", [], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("14 already there"))
        let resynced = try setup.epf(
            ["sync", "--to", "synced", "--db", "c.sqlite", "--url", setup.server.url("v5")], environment: environment)
        #expect(resynced.status == 0, "\(resynced.stderr)")
    }

    /// A new folder on another file system than `folder` (`/dev/shm`), or
    /// nil when there is none.
    static func folderOnAnotherDisk(than folder: URL) throws -> URL? {
        let shm = URL(fileURLWithPath: "/dev/shm")
        guard let here = DiskSpace.device(at: folder.path), let there = DiskSpace.device(at: shm.path), here != there,
            FileManager.default.isWritableFile(atPath: shm.path)
        else { return nil }
        let other = shm.appendingPathComponent("epf-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        return other
    }

    /// On a terminal (`script` gives `epf` one), a status line for the
    /// whole plan, redrawn in place; not on a terminal, none: plain lines.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no /usr/bin/script"))
    func aProgressLineOnATerminalOnly() throws {
        let setup = try Setup()
        defer { setup.cleanUp() }
        let command = [try EPFRunner.executable.path, "fetch", "--to", "dl", "--url", setup.server.url("v5")].joined(separator: " ")
        let onTerminal = try EPFRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"], in: setup.folder, environment: setup.server.credentials
        )
        #expect(onTerminal.status == 0, "\(onTerminal.stdout)")
        #expect(onTerminal.stdout.contains("\r\u{1B}[Kdownloading: "), "\(onTerminal.stdout)")
        #expect(
            onTerminal.stdout.contains(#/downloading: [0-9.]+ [KM]?B of [0-9.]+ [KM]?B, [0-9]+%, [0-9.]+ [KM]?B/s/#), "\(onTerminal.stdout)"
        )
        #expect(onTerminal.stdout.contains("epf fetch: 14 file(s) downloaded"))
        let plain = try setup.epf(["fetch", "--to", "plain", "--url", setup.server.url("v5")])
        #expect(plain.status == 0)
        #expect(!plain.stderr.contains("downloading:") && !plain.stderr.contains("\u{1B}"), "\(plain.stderr)")
        #expect(plain.stderr.contains("epf fetch: 14 file(s) downloaded"))
    }
}
