import EPFTestSupport
import Foundation
import Testing

/// `epf search`, and `epf lookup` with links, several IDs and --country.
@Suite("epf search and epf lookup LINK")
struct SearchCommandTests {
    /// The JSON document on standard output.
    static func document(_ result: EPFRunner.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    static func results(_ result: EPFRunner.Result) throws -> [[String: Any]] {
        try #require(try document(result)["results"] as? [[String: Any]])
    }

    @Test func searchPrintsRankedResultsInApplesShape() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["search", "--db", db, "chess", "--limit", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.document(result)["resultCount"] as? Int == 2)
        let apps = try Self.results(result)
        #expect(apps.count == 2)
        #expect(apps.allSatisfy { ($0["trackName"] as? String)?.localizedCaseInsensitiveContains("chess") == true })
        #expect(apps.first?["kind"] as? String == "software")
        #expect(result.stdout.hasPrefix(#"{"resultCount":2,"results":[{"#))

        let next = try cli.run(["search", "--db", db, "chess", "--limit", "2", "--offset", "2"])
        let nextIDs = try Self.results(next).compactMap { $0["trackId"] as? Int }
        #expect(Set(nextIDs).isDisjoint(with: apps.compactMap { $0["trackId"] as? Int }))
    }

    /// Popular first: the storefront's chart by rank, then the rest in the
    /// index's order; JP follows JP's chart.
    @Test func searchPutsTheStorefrontsChartFirst() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let feed = try ChessCharts.write(in: URL(fileURLWithPath: cli.path("feeds")))
        let db = cli.path("charts.sqlite")
        let imported = try cli.run(["import", "--db", db, feed])
        #expect(imported.status == 0, "\(imported.stderr)")
        for (country, order) in [("US", ChessCharts.unitedStates), ("JP", ChessCharts.japan)] {
            let result = try cli.run(["search", "--db", db, "chess", "--country", country])
            #expect(try Self.results(result).compactMap { ($0["trackId"] as? Int).map(Int64.init) } == order, "\(country)")
            let csv = try cli.run(["search", "--db", db, "chess", "--country", country, "--format", "csv", "--offset", "1", "--limit", "2"])
            #expect(csv.stdout.split(separator: "\n").dropFirst().map { Int64($0.split(separator: ",")[0])! } == Array(order[1...2]))
        }
    }

    /// `epf charts` prints the JSON epf-server's chart route answers, or a
    /// table by rank; a catalog without the popularity feed says what to
    /// import.
    @Test func chartsPrintTheRSSFeedShape() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let json = try cli.run(["charts", "--db", db, "--limit", "10"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.hasPrefix(#"{"feed":{"title":"Top Free Apps","id":"/api/v2/us/apps/top-free/10/apps.json""#), "\(json.stdout)")
        let feed = try #require(try Self.document(json)["feed"] as? [String: Any])
        let free = try #require(feed["results"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(!free.isEmpty)
        let table = try cli.run(["charts", "--db", db, "--limit", "10", "--format", "csv"])
        #expect(table.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[1]) } == free)
        #expect(table.stdout.hasPrefix("rank,trackId,trackName,artistName,formattedPrice,primaryGenreName\n1,"))
        let paid = try cli.run(["charts", "--db", db, "--paid", "--country", "JP", "--format", "csv"])
        #expect(paid.status == 0 && paid.stdout.contains("¥"), "\(paid.stdout)")
        #expect(try cli.run(["charts", "--db", db, "--limit", "0"]).status == 64)
        #expect(try cli.run(["charts", "--db", db, "--country", "ZZ"]).status == 64)
        let bare = cli.path("bare.sqlite")
        _ = try cli.run(["import", "--db", bare, SampleFeeds.pathsInOrder[0]])
        let none = try cli.run(["charts", "--db", bare])
        #expect(none.status == 1 && none.stderr.contains("application_popularity_per_genre"), "\(none.stderr)")
    }

    /// `--format table` lines up columns as a terminal shows them: a number
    /// column first keeps its padding, and a CJK character takes two
    /// columns, so the column after a Japanese or Chinese title starts where
    /// its header does.
    @Test func tablesLineUpInTerminalColumns() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let sql = try cli.run([
            "sql", "--db", db, "--format", "table",
            "SELECT application_id AS id, title FROM application WHERE application_id IN (364709193, 412039587) ORDER BY 1",
        ])
        #expect(sql.status == 0, "\(sql.stderr)")
        #expect(sql.stdout.hasPrefix("       id  title\n"), "\(sql.stdout)")
        let search = try cli.run(["search", "--db", db, "象棋", "--format", "table"])
        #expect(search.status == 0, "\(search.stderr)")
        let lines = search.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count >= 2, "\(search.stdout)")
        /// Terminal columns: the CJK ideographs of the samples take two.
        func columns(_ text: Substring) -> Int {
            text.reduce(0) { $0 + (($1.unicodeScalars.first.map { (0x3000...0x9FFF).contains($0.value) } ?? false) ? 2 : 1) }
        }
        func start(of column: String, in line: String) -> Int? { line.range(of: column).map { columns(line[..<$0.lowerBound]) } }
        let header = try #require(start(of: "artistName", in: lines[0]))
        for line in lines.dropFirst() where line.contains("Dragon Well") {
            #expect(start(of: "Dragon Well", in: line) == header, "\(search.stdout)")
        }
    }

    /// One rule for the command line and the API: a page of none is a
    /// usage error (the server answers limit=0 with 400), for history too.
    @Test func aLimitOfZeroIsRefused() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let search = try cli.run(["search", "--db", db, "chess", "--limit", "0"])
        #expect(search.status == 64, "\(search.stderr)")
        #expect(search.stderr.contains("--limit must be 1 or more"), "\(search.stderr)")
        let history = try cli.run(["history", "--db", db, "--limit", "0"])
        #expect(history.status == 64, "\(history.stderr)")
        #expect(history.stderr.contains("--limit must be 1 or more"), "\(history.stderr)")
    }

    /// An offset past the matches says how many there are, not that
    /// nothing matches.
    @Test func anOffsetPastTheMatchesSaysHowManyThereAre() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let all = try Self.results(try cli.run(["search", "--db", db, "chess", "--limit", "200"])).count
        #expect(all > 1)
        let past = try cli.run(["search", "--db", db, "chess", "--offset", "1000"])
        #expect(past.status == 0, "\(past.stderr)")
        #expect(try Self.document(past)["resultCount"] as? Int == 0)
        #expect(
            past.stderr.contains("\(all) applications match 'chess'; --offset 1000 is past them (give --offset \(all - 1) or less)"),
            "\(past.stderr)")
        let none = try cli.run(["search", "--db", db, "zzzzqq", "--offset", "5"])
        #expect(none.stderr.contains("no application matches 'zzzzqq'"), "\(none.stderr)")
    }

    @Test func searchFindsCJKInsideATitleAndPricesInTheCountry() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["search", "--db", db, "象棋", "--country", "JP"])
        #expect(result.status == 0, "\(result.stderr)")
        let app = try #require(try Self.results(result).first)
        #expect(app["trackName"] as? String == "国际象棋游戏")
        #expect(app["formattedPrice"] as? String == "¥120")
        #expect(app["currency"] as? String == "JPY")

        let table = try cli.run(["search", "--db", db, "ECHECS", "--format", "table"])
        #expect(table.status == 0)
        // trackId is a number column: right-aligned, its header too.
        #expect(table.stdout.hasPrefix("  trackId  "), "\(table.stdout)")
        #expect(table.stdout.contains("Échecs Café"))
    }

    @Test func searchWithNoMatchIsEmptyAndExitsZero() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run(["search", "--db", db, "xyzzy"])
        #expect(result.status == 0)
        #expect(result.stdout == "{\"resultCount\":0,\"results\":[]}\n")
        #expect(result.stderr.contains("no application matches 'xyzzy'"))
    }

    @Test func searchRejectsBadValuesAndUnknownCountries() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        #expect(try cli.run(["search", "--db", db, "chess", "--limit", "-1"]).status == 64)
        #expect(try cli.run(["search", "--db", db, " "]).status == 64)
        let unknown = try cli.run(["search", "--db", db, "chess", "--country", "ZZ"])
        #expect(unknown.status == 64)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("unknown country 'ZZ'"))
        let missing = try cli.run(["search", "--db", cli.path("none.sqlite"), "chess"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no catalog there"))
    }

    @Test func lookupTakesLinksAndSeveralIDs() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let result = try cli.run([
            "lookup", "--db", db, "https://apps.apple.com/us/app/guoji-xiangqi-youxi/id412039587?mt=8",
            "https://itunes.apple.com/us/app/x/id364709193?mt=8", "id1", "--country", "JPN",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let apps = try Self.results(result)
        #expect(apps.compactMap { $0["trackId"] as? Int } == [412_039_587, 364_709_193])
        #expect(apps.first?["formattedPrice"] as? String == "¥120")
        #expect(apps.first?["genres"] as? [String] == ["Games", "Board"])
        #expect(result.stderr.contains("no application with Apple ID 1"))

        let csv = try cli.run(["lookup", "--db", db, "id364709193", "--format", "csv"])
        #expect(csv.status == 0)
        #expect(
            csv.stdout == """
                trackId,trackName,artistName,formattedPrice,version,primaryGenreName
                364709193,Chess Master Classic,Knightfall Games,$2.99,3.0.0,Games

                """)
    }

    @Test func lookupOfABadLinkIsAUsageError() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["lookup", "https://example.com/app/id364709193"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("is not an Apple ID or product link"))
    }

    @Test func langMediaAndEntityFollowApplesParameters() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let japanese = try cli.run(["lookup", "--db", db, "364709193", "--lang", "ja_JP"])
        #expect(japanese.status == 0, "\(japanese.stderr)")
        #expect(try Self.results(japanese).first?["trackName"] as? String == "チェスマスター クラシック")
        let badLanguage = try cli.run(["lookup", "--db", db, "364709193", "--lang", "klingon!"])
        #expect(badLanguage.status == 64)
        #expect(badLanguage.stderr.contains("'klingon!' is not a language code"))

        let music = try cli.run(["search", "--db", db, "chess", "--media", "music"])
        #expect(music.status == 0)
        #expect(music.stdout == "{\"resultCount\":0,\"results\":[]}\n")
        #expect(music.stderr.contains("holds applications only"))
        let badMedia = try cli.run(["search", "--db", db, "chess", "--media", "films"])
        #expect(badMedia.status == 64)
        #expect(badMedia.stderr.contains("--media must be one of software, all, movie"))

        let all = try Self.results(try cli.run(["search", "--db", db, "chess", "--media", "all"]))
        let mac = try cli.run(["search", "--db", db, "chess", "--entity", "macSoftware"])
        #expect(mac.status == 0, "\(mac.stderr)")
        let macIDs = try Self.results(mac).compactMap { $0["trackId"] as? Int }
        #expect(!macIDs.isEmpty && macIDs.count < all.count)
        let badEntity = try cli.run(["search", "--db", db, "chess", "--entity", "tvSoftware"])
        #expect(badEntity.status == 64)
        #expect(badEntity.stderr.contains("--entity must be one of software, iPadSoftware, macSoftware"))
    }
}
