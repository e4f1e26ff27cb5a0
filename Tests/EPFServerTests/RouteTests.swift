import EPFCatalog
import EPFLocation
import EPFTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("epf-server routes")
struct RouteTests {
    @Test(arguments: ServedBy.allCases) func lookupOfOneAndSeveralIDs(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            let one = try await client.get("/lookup?id=364709193")
            #expect(one.status == .ok)
            #expect(one.contentType == "text/javascript; charset=utf-8")
            #expect(try one.json["resultCount"] as? Int == 1)
            #expect(try one.results.first?["trackId"] as? Int == 364_709_193)
            #expect(try one.results.first?["kind"] as? String == "software")

            let several = try await client.get("/lookup?id=412039587,364709193&country=JP")
            #expect(try several.results.compactMap { $0["trackId"] as? Int } == [412_039_587, 364_709_193])
            #expect(try several.results.first?["formattedPrice"] as? String == "¥120")

            let unknown = try await client.get("/lookup?id=1")
            #expect(unknown.status == .ok)
            #expect(unknown.text == "{\"resultCount\":0,\"results\":[]}\n")

            let byBundle = try await client.get("/lookup?bundleId=com.example.chess")
            #expect(byBundle.status == .ok)
            #expect(try byBundle.json["resultCount"] as? Int == 0)
        }
    }

    @Test(arguments: ServedBy.allCases) func storefrontNotImportedIsA400ThatSaysSo(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog(importOptions: ["--storefront", "US,JP"])
        try await catalog.withClient(servedBy) { client in
            for path in ["/lookup?id=364709193&country=DE", "/search?term=chess&country=de"] {
                let refused = try await client.get(path)
                #expect(refused.status == .badRequest, "\(path)")
                #expect(
                    try refused.json["errorMessage"] as? String == "storefront DE was not imported into this catalog (it has US, JP)",
                    "\(refused.text)")
                #expect(try refused.json["queryParameters"] != nil)
            }
            let japan = try await client.get("/lookup?id=364709193&country=JP")
            #expect(japan.status == .ok)
            #expect(try japan.json["resultCount"] as? Int == 1)
        }
    }

    @Test(arguments: ServedBy.allCases) func lookupByProductLinkUsesItsStorefront(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            let link = "https%3A%2F%2Fapps.apple.com%2Fjp%2Fapp%2Fx%2Fid412039587%3Fmt%3D8"
            let japan = try await client.get("/lookup?url=\(link)")
            #expect(japan.status == .ok, "\(japan.text)")
            let app = try #require(try japan.results.first)
            #expect(app["trackId"] as? Int == 412_039_587)
            #expect(app["currency"] as? String == "JPY")
            // country wins over the link's storefront.
            let us = try await client.get("/lookup?url=\(link)&country=US")
            #expect(try us.results.first?["currency"] as? String == "USD")
        }
    }

    /// Popular first: the storefront's chart by rank, then the rest; the
    /// country's chart, not another's.
    @Test(arguments: ServedBy.allCases) func searchPutsTheStorefrontsChartFirst(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog(feeds: { [try ChessCharts.write(in: $0)] })
        try await catalog.withClient(servedBy) { client in
            for (country, order) in [("us", ChessCharts.unitedStates), ("jp", ChessCharts.japan)] {
                let answer = try await client.get("/search?term=chess&country=\(country)")
                #expect(try answer.results.compactMap { ($0["trackId"] as? Int).map(Int64.init) } == order, "\(country): \(answer.text)")
                let page = try await client.get("/search?term=chess&country=\(country)&limit=2&offset=1")
                #expect(try page.results.compactMap { ($0["trackId"] as? Int).map(Int64.init) } == Array(order[1...2]))
            }
        }
    }

    /// `GET /metrics`: every request counted by route template and status,
    /// on either path, the durations' histogram, and the catalog's
    /// freshness; the scrape itself is not counted.
    @Test(arguments: ServedBy.allCases) func metricsCountEveryRequest(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            for _ in 0..<7 { _ = try await client.get("/lookup?id=364709193") }
            _ = try await client.get("/lookup?id=abc")
            _ = try await client.get("/search?term=chess")
            _ = try await client.get("/no/such/path/123")
            _ = try await client.get("/api/v2/us/apps/top-free/10/apps.json")
            let scrape = try await client.get("/metrics")
            #expect(scrape.status == .ok)
            #expect(scrape.contentType == "text/plain; version=0.0.4; charset=utf-8")
            let lines = Set(scrape.text.split(separator: "\n").map(String.init))
            for expected in [
                #"epf_http_requests_total{route="/lookup",status="200"} 7"#, #"epf_http_requests_total{route="/lookup",status="400"} 1"#,
                #"epf_http_requests_total{route="/search",status="200"} 1"#, #"epf_http_requests_total{route="other",status="404"} 1"#,
                #"epf_http_requests_total{route="/api/v2/{country}/apps/{chart}/{limit}/apps.json",status="200"} 1"#,
                #"epf_http_request_duration_seconds_count{route="/lookup"} 8"#,
                #"epf_http_request_duration_seconds_bucket{route="/lookup",le="+Inf"} 8"#,
                "epf_http_requests_in_flight 0.0", "epf_catalog_export_date_seconds 1793577600.0",
            ] {
                #expect(lines.contains(expected), "\(expected) in \(scrape.text)")
            }
            #expect(!scrape.text.contains("/no/such/path"), "no raw path is a label")
            #expect(!scrape.text.contains(#"route="/metrics""#))
            let imported = try #require(lines.first { $0.hasPrefix("epf_catalog_last_import_timestamp_seconds ") })
            let seconds = try #require(Double(imported.split(separator: " ")[1]))
            #expect(abs(seconds - Date().timeIntervalSince1970) < 600, "imported minutes ago: \(imported)")
        }
    }

    /// A reader learns the catalog's tables when it opens; the pool's ask
    /// again once a second, so a feed imported for the first time while
    /// the server runs (here the popularity chart) is used without a
    /// restart.
    @Test(arguments: ServedBy.allCases) func aFeedsFirstImportIsUsedWithoutARestart(servedBy: ServedBy) async throws {
        let chartFile = "application_popularity_per_genre"
        let catalog = try SampleCatalog(feeds: { folder in
            let feed = try ChessCharts.write(in: folder)
            return try FileManager.default.contentsOfDirectory(atPath: feed).filter { $0 != chartFile }.map { "\(feed)/\($0)" }
        })
        try await catalog.withClient(servedBy) { client in
            func order() async throws -> [Int64] {
                try await client.get("/search?term=chess&country=us").results.compactMap { ($0["trackId"] as? Int).map(Int64.init) }
            }
            #expect(try await order() == [3, 5, 2, 4], "the index's order, without the chart")
            let chart = catalog.folder.appendingPathComponent("itunes20261101/\(chartFile)").path
            let imported = try EPFRunner.run(["import", "--db", catalog.path, chart], in: catalog.folder)
            #expect(imported.status == 0, "\(imported.stderr)")
            try await Task.sleep(for: .milliseconds(1200))
            for _ in 0..<4 { #expect(try await order() == ChessCharts.unitedStates, "the chart first, once imported") }
        }
    }

    @Test(arguments: ServedBy.allCases) func searchLatinCJKAndAccents(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            let chess = try await client.get("/search?term=chess&limit=2")
            #expect(chess.status == .ok)
            #expect(chess.contentType == "text/javascript; charset=utf-8")
            #expect(try chess.json["resultCount"] as? Int == 2)
            #expect(try chess.results.allSatisfy { ($0["trackName"] as? String)?.localizedCaseInsensitiveContains("chess") == true })
            let next = try await client.get("/search?term=chess&limit=2&offset=2")
            #expect(
                Set(try next.results.compactMap { $0["trackId"] as? Int }).isDisjoint(
                    with: try chess.results.compactMap { $0["trackId"] as? Int }))

            let cjk = try await client.get("/search?term=%E8%B1%A1%E6%A3%8B&country=JP")
            #expect(try cjk.results.first?["trackName"] as? String == "国际象棋游戏")

            let accents = try await client.get("/search?term=ECHECS+cafe")
            #expect(try accents.results.contains { $0["trackName"] as? String == "Échecs Café" }, "\(accents.text)")

            let movies = try await client.get("/search?term=chess&media=movie")
            #expect(movies.text == "{\"resultCount\":0,\"results\":[]}\n")
            let many = try await client.get("/search?term=chess&limit=1000")
            #expect(many.status == .ok)
        }
    }

    /// Found by scripts/api-check (schemathesis): `offset + limit`
    /// overflowed and the server trapped (SIGILL) instead of answering.
    @Test(arguments: ServedBy.allCases, ["9223372036854775806", "9223372036854775807", "9223372036854775757"])
    func anOffsetNearIntMaxFindsNothing(servedBy: ServedBy, offset: String) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            for limit in ["1", "50", "200", "1000"] {
                let page = try await client.get("/search?term=chess&limit=\(limit)&offset=\(offset)")
                #expect(page.status == .ok, "offset \(offset), limit \(limit): \(page.text)")
                #expect(page.text == "{\"resultCount\":0,\"results\":[]}\n")
            }
            let prefix = try await client.get("/search?term=che&offset=\(offset)")
            #expect(prefix.text == "{\"resultCount\":0,\"results\":[]}\n")
        }
    }

    /// Found by scripts/api-check (schemathesis): a NUL in the term ended
    /// FTS5's query text inside a quoted word ("unterminated string"), and
    /// the server answered 503 as if the catalog could not be read.
    @Test(arguments: ServedBy.allCases) func aNULInTheTermSeparatesWords(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            let chess = try await client.get("/search?term=%00chess")
            #expect(chess.status == .ok, "\(chess.text)")
            #expect(try chess.json["resultCount"] as? Int ?? 0 > 0)
            let split = try await client.get("/search?term=chess%00puz")
            #expect(split.status == .ok, "\(split.text)")
            let spaced = try await client.get("/search?term=chess+puz")
            #expect(split.text == spaced.text)
            let found = try await client.get("/search?term=%00%F1%8C%9D%96.%C3%9A")
            #expect(found.status == .ok, "\(found.text)")
            let only = try await client.get("/search?term=%00")
            #expect(only.status == .ok, "\(only.text)")
            #expect(only.text == "{\"resultCount\":0,\"results\":[]}\n")
        }
    }

    @Test(arguments: ServedBy.allCases) func jsonpWrapsTheResponse(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            let wrapped = try await client.get("/lookup?id=1&callback=jQuery_123.done$")
            #expect(wrapped.status == .ok)
            #expect(wrapped.contentType == "text/javascript; charset=utf-8")
            #expect(wrapped.text == "\n\njQuery_123.done$({\"resultCount\":0,\"results\":[]});")
            let search = try await client.get("/search?term=chess&limit=1&callback=show")
            #expect(search.text.hasPrefix("\n\nshow({\"resultCount\":1,"))
            #expect(search.text.hasSuffix("]});"))

            let unsafe = try await client.get("/lookup?id=1&callback=alert(1)")
            #expect(unsafe.status == .badRequest)
            #expect(try unsafe.errorMessage == "Invalid value(s) for key(s): [callback]")
        }
    }

    @Test(
        arguments: ServedBy.allCases,
        [
            ("/search?term=chess&country=ZZ", "country"),
            ("/lookup?id=364709193&country=ZZ", "country"),
            ("/search?term=chess&limit=abc", "limit"),
            ("/search?term=chess&limit=0", "limit"),
            ("/search?term=chess&offset=-1", "offset"),
            ("/search?term=chess&entity=movie", "resultEntity"),
            ("/search?term=chess&media=vinyl", "mediaType"),
            ("/search?term=chess&lang=x", "language"),
            ("/search?term=chess&explicit=maybe", "explicit"),
            ("/search?term=+", "term"),
            ("/search?term=" + Array(repeating: "chess", count: 33).joined(separator: "+"), "term"),
            ("/search?term=" + String(repeating: "a", count: 1001), "term"),
            ("/search?country=US", "term"),
            ("/search?term=%ZZchess", "term"),
            ("/search?term=%C3", "term"),
            ("/lookup?id=abc", "id"),
            ("/lookup?id=12,-3", "id"),
            ("/lookup?country=US", "id"),
            ("/lookup?url=https%3A%2F%2Fexample.com%2Fid1", "url"),
        ])
    func badValuesAreApples400(servedBy: ServedBy, bad: (uri: String, key: String)) async throws {
        let (uri, key) = bad
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            let answer = try await client.get(uri)
            #expect(answer.status == .badRequest, "\(uri): \(answer.text)")
            #expect(answer.contentType == "text/javascript; charset=utf-8")
            #expect(try answer.errorMessage == "Invalid value(s) for key(s): [\(key)]")
            #expect(try answer.json["queryParameters"] is [String: Any])
        }
    }

    @Test(arguments: ServedBy.allCases) func limitsOnSizeMethodAndLoad(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            let ids = (1...500).map(String.init).joined(separator: ",")
            let tooManyIDs = try await client.get("/lookup?id=\(ids)")
            #expect(tooManyIDs.status == .badRequest)
            #expect(try tooManyIDs.errorMessage == "Invalid value(s) for key(s): [id]")

            let longTerm = try await client.get("/search?term=\(String(repeating: "a", count: 20 * 1024))")
            #expect(longTerm.status == .uriTooLong)
            #expect(try longTerm.errorMessage != nil)

            let post = try await client.get("/lookup?id=364709193", method: .post)
            #expect(post.status == .methodNotAllowed)
            #expect(try post.errorMessage == "Only GET and HEAD are answered")
            #expect(try await client.get("/search?term=chess", method: .put).status == .methodNotAllowed)
            let head = try await client.get("/lookup?id=364709193", method: .head)
            #expect(head.status == .ok)
            #expect(head.text.isEmpty)

            let unknown = try await client.get("/nothing")
            #expect(unknown.status == .notFound)
            #expect(try unknown.errorMessage != nil)
        }
        try await catalog.withClient(servedBy, maxInFlight: 0) { client in
            let refused = try await client.get("/lookup?id=364709193")
            #expect(refused.status == .tooManyRequests)
            #expect(try refused.errorMessage != nil)
        }
    }

    @Test(arguments: ServedBy.allCases) func healthNamesTheLastImportAndFailsWhenTheCatalogIsGone(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy, expectsEventLoopAnswers: false) { client in
            let healthy = try await client.get("/health")
            #expect(healthy.status == .ok)
            let json = try healthy.json
            #expect(json["status"] as? String == "ok")
            #expect(json["catalog"] as? String == catalog.path)
            let day = try #require(json["lastImport"] as? String)
            #expect(day.count == 10 && day.hasPrefix("20"), "\(day)")

            try FileManager.default.removeItem(atPath: catalog.path)
            let gone = try await client.get("/health")
            #expect(gone.status == .serviceUnavailable)
            #expect(try gone.json["status"] as? String == "unavailable")
        }
    }

    @Test(arguments: ServedBy.allCases) func readersSurviveAFullImportSwappingTablesUnderThem(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy, readers: 1) { client in
            let before = try await client.get("/search?term=chess")
            #expect(before.status == .ok)
            // The same FULL feed again: every table staged and swapped in
            // while the reader holds its connection.
            let again = try EPFRunner.run(
                ["import", "--db", catalog.path, "--force", SampleFeeds.path("itunes20261101")], in: catalog.folder)
            #expect(again.status == 0, "\(again.stderr)")
            let after = try await client.get("/search?term=chess")
            #expect(after.status == .ok, "\(after.text)")
            #expect(try after.json["resultCount"] as? Int == before.json["resultCount"] as? Int)
            let lookup = try await client.get("/lookup?id=364709193")
            #expect(try lookup.json["resultCount"] as? Int == 1)
        }
    }
}

@Suite("Readers and imports")
struct ReaderSwapTests {
    /// The pool's retry is a second line: a SQLite reader itself answers
    /// after a FULL import renamed tables under its open connection
    /// (statements are prepared again on the schema change).
    @Test func aSQLiteReaderAnswersAfterAFullSwapWithoutReopening() throws {
        let catalog = try SampleCatalog()
        let reader = try CatalogLocation(catalog.path).openReader(tablePrefix: nil)
        let before = try reader.search(term: "chess", country: "JP")
        let again = try EPFRunner.run(["import", "--db", catalog.path, "--force", SampleFeeds.path("itunes20261101")], in: catalog.folder)
        #expect(again.status == 0, "\(again.stderr)")
        let after = try reader.search(term: "chess", country: "JP")
        #expect(!before.results.isEmpty && !after.results.isEmpty)
        #expect(try reader.lookup(ids: [364_709_193]).resultCount == 1)
    }
}
