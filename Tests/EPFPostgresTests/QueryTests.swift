import EPFCatalog
import EPFFormat
import EPFImport
import EPFPostgres
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// `epf lookup` and `epf search` through `CatalogReader`: the same
/// imports into SQLite and PostgreSQL answer with the same JSON.
@Suite("Lookup and search against PostgreSQL answer as SQLite does", .enabled(if: TestServer.available, TestServer.skipReason))
struct QueryTests {
    /// The two catalogs of one import.
    struct Both {
        let sqlite: Catalog
        let postgres: PostgresCatalog
        var stores: [any CatalogReader] { [sqlite, postgres] }
    }

    /// Imports the first `feedCount` sample feeds into both stores and
    /// runs `body` with both opened.
    static func withBoth(feedCount: Int = 4, _ body: (Both, TestDatabase) throws -> Void) throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let paths = SampleFeeds.pathsInOrder.prefix(feedCount)
            let run = try importIntoBoth(Array(paths), folder: folder, database: database)
            #expect(run.postgresReports.allSatisfy { $0.status == .applied }, "\(run.postgresReports.compactMap(\.error))")
            try body(Both(sqlite: try Catalog(path: run.sqlite), postgres: try PostgresCatalog(target: database.target)), database)
        }
    }

    /// The JSON text of `body`'s answer from each store, or its error.
    static func answers(_ both: Both, _ body: (any CatalogReader) throws(CatalogError) -> SearchResponse) -> [String] {
        both.stores.map { store in
            do {
                return String(decoding: try body(store).jsonBytes(), as: UTF8.self)
            } catch {
                return "error: \(error)"
            }
        }
    }

    static func expectSame(
        _ both: Both, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (any CatalogReader) throws(CatalogError) -> SearchResponse
    ) {
        let answers = Self.answers(both, body)
        #expect(answers[0] == answers[1], "\(what)", sourceLocation: sourceLocation)
    }

    static func ids(_ response: SearchResponse) -> [Int64] { response.results.map(\.trackId) }

    @Test("Lookup: every application, in every storefront and language, by IDs and links", arguments: [1, 4])
    func lookup(feedCount: Int) throws {
        try Self.withBoth(feedCount: feedCount) { both, _ in
            let ids = try #require(both.sqlite.database).rows("SELECT application_id FROM application ORDER BY rowid").compactMap(
                \.first?.integerValue)
            #expect(ids.count > 20)
            let shuffled = ids.reversed() + [ids[0], 999_999_999]
            for country in [nil, "US", "JP", "jpn", "143462", "fr", "DEU", "CN"] {
                for language in [nil, "en", "ja", "ja_JP", "zh", "fr_CA", "de", "ko"] {
                    Self.expectSame(both, "lookup in \(country ?? "-") \(language ?? "-")") { (store) throws(CatalogError) in
                        try store.lookup(ids: Array(shuffled), country: country, language: language)
                    }
                }
            }
            Self.expectSame(both, "links") { (store) throws(CatalogError) in
                try store.lookup(
                    links: ["id364709193", "https://apps.apple.com/jp/app/x/id412039587?mt=8", "https://itunes.apple.com/app/id530662175"],
                    country: "JP", language: "ja")
            }
            let full = try both.postgres.lookup(ids: ids, country: "JP", language: "ja")
            // With the pricing feed (4 feeds), the two INCREMENTAL newcomers have
            // no price in JP: lookup leaves them out, as Apple's does.
            #expect(full.results.count == ids.count - (feedCount == 4 ? 2 : 0))
            #expect(full.results.contains { ($0.price != nil || feedCount == 1) && $0.genres != nil && $0.languageCodesISO2A != nil })
        }
    }

    @Test("An unknown country is the same error from both; a malformed language too")
    func unknownCountry() throws {
        try Self.withBoth(feedCount: 1) { both, _ in
            for country in ["ZZ", "XYZ", "999", "0", "Narnia"] {
                let answers = Self.answers(both) { (store) throws(CatalogError) in try store.lookup(ids: [364709193], country: country) }
                #expect(answers[0] == answers[1])
                #expect(answers[1].hasPrefix("error: unknown country"), "\(answers[1])")
                var errors: [CatalogError] = []
                for store in both.stores {
                    do {
                        _ = try store.storefront(for: country)
                    } catch let error as CatalogError {
                        errors.append(error)
                    } catch {}
                }
                #expect(errors.count == 2)
                #expect(errors.allSatisfy { $0.kind == .usage }, "a usage error, not the server's")
            }
            let language = Self.answers(both) { (store) throws(CatalogError) in try store.lookup(ids: [364709193], language: "english!") }
            #expect(language[0] == language[1] && language[0].hasPrefix("error:"))
        }
    }

    @Test("Search: words, prefixes, case and accents, CJK, storefronts, entities, in the same order", arguments: [1, 4])
    func search(feedCount: Int) throws {
        try Self.withBoth(feedCount: feedCount) { both, _ in
            let terms = [
                "chess", "CHESS", "che", "Chess Pro", "chess pu", "puzzle", "puzzles", "p", "photo w", "cafe", "CAFÉ", "echecs", "Échecs",
                "象棋", "棋", "将", "麻将", "パズル", "체스", "weather", "Weather Radar", "dice 🎲", "-", "zzz", "a", "s",
            ]
            for term in terms {
                for country in [nil, "JP", "DE", "143465"] {
                    Self.expectSame(both, "search \(term) in \(country ?? "US")") { (store) throws(CatalogError) in
                        try store.search(term: term, country: country, language: country == "JP" ? "ja" : nil, limit: 50)
                    }
                }
                for entity in SoftwareEntity.allCases {
                    Self.expectSame(both, "search \(term) for \(entity)") { (store) throws(CatalogError) in
                        try store.search(term: term, entity: entity)
                    }
                }
            }
            // What the semantics promise, seen from PostgreSQL.
            let chinese = try both.postgres.search(term: "象棋", country: "CN")
            #expect(Self.ids(chinese) == [412039587], "象棋 finds 国际象棋游戏")
            #expect(Self.ids(try both.postgres.search(term: "cafe")) == Self.ids(try both.postgres.search(term: "ÉCHECS")))
            #expect(try both.postgres.search(term: "CAFÉ").results.first?.trackName == "Échecs Café")
            // `Chess Openings Trainer` (an INCREMENTAL newcomer) has no price in
            // any storefront: with prices imported, no storefront sells it, and
            // lookup leaves it out as Apple's does.
            let unpriced: Int64 = 638402717
            if feedCount == 4 {
                #expect(try both.postgres.lookup(ids: [unpriced]).results.isEmpty)
                #expect(!Self.ids(try both.postgres.search(term: "chess openings")).contains(unpriced))
                #expect(Self.ids(try both.postgres.search(term: "chess", limit: 200)).count >= 5)
            }
        }
    }

    @Test("Popular first: the storefront's chart by rank, then the index's order; every page of it; the same in both")
    func popularFirst() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            let run = try importIntoBoth([ChessCharts.write(in: folder)], folder: folder, database: database)
            #expect(run.postgresReports.allSatisfy { $0.status == .applied }, "\(run.postgresReports.compactMap(\.error))")
            let both = Both(sqlite: try Catalog(path: run.sqlite), postgres: try PostgresCatalog(target: database.target))
            for store in both.stores {
                for (country, order) in [("US", ChessCharts.unitedStates), ("USA", ChessCharts.unitedStates), ("JP", ChessCharts.japan)] {
                    #expect(Self.ids(try store.search(term: "chess", country: country)) == order, "\(type(of: store)) \(country)")
                    // `che` finds the same five: the chart's first, then
                    // the index's order (whole words and beginnings alike).
                    #expect(Self.ids(try store.search(term: "che", country: country)) == order)
                    for limit in 1...3 {
                        for offset in 0...6 {
                            let page = Self.ids(try store.search(term: "chess", country: country, limit: limit, offset: offset))
                            #expect(page == Array(order.dropFirst(offset).prefix(limit)), "\(country) limit \(limit) offset \(offset)")
                        }
                    }
                    let storefront = try store.storefront(for: country)
                    #expect(try store.searchCount(term: "chess", in: storefront, entity: nil) == order.count)
                }
                // The filters hold in the chart's part too: 5 is for iPad only,
                // 1 is not sold in the US.
                let iPhone = try store.search(term: "chess", inCountry: "JP", language: nil, entity: .software, limit: 50, offset: 0)
                #expect(Self.ids(iPhone) == ChessCharts.japanForIPhone)
                let storefront = try store.storefront(for: "JP")
                #expect(try store.searchCount(term: "chess", in: storefront, entity: .software) == ChessCharts.japanForIPhone.count)
                // A chart as long as asked, though its first is not in the catalog.
                let chart = try store.chart(.topFree, inCountry: "US", genre: 36, limit: 2, language: nil)
                #expect(chart.results.map(\.trackId) == ChessCharts.usFreeChart)
                // Weather has a rank in both charts but does not match.
                #expect(Self.ids(try store.search(term: "weather", country: "US")) == [6])
                #expect(Self.ids(try store.search(term: "pro", country: "US")) == [4, 2])
            }
        }
    }

    @Test("Top charts: the same applications, order and JSON from both; free and paid apart")
    func charts() throws {
        try Self.withBoth { both, _ in
            for country in ["US", "JP", "FR"] {
                for genre: Int64 in [36, 6014] {
                    let answers = try both.stores.map { store in
                        try [ChartKind.topFree, .topPaid].map { kind in
                            String(
                                decoding: try store.chart(kind, inCountry: country, genre: genre, limit: 100, language: nil).jsonBytes(
                                    feedURL: "/x"), as: UTF8.self)
                        }
                    }
                    #expect(answers[0] == answers[1], "\(country) genre \(genre)")
                }
            }
            let free = try both.postgres.chart(.topFree, inCountry: "US", genre: 36, limit: 100, language: nil)
            let paid = try both.postgres.chart(.topPaid, inCountry: "US", genre: 36, limit: 100, language: nil)
            #expect(!free.results.isEmpty && !paid.results.isEmpty)
            #expect(free.results.allSatisfy { $0.price == 0 } && paid.results.allSatisfy { ($0.price ?? 0) > 0 })
            #expect(
                try both.sqlite.chart(.topFree, inCountry: "US", genre: 36, limit: 2, language: nil).results.map(\.trackId)
                    == free.results.prefix(2).map(\.trackId))
            #expect(free.updated == 1_793_491_200_000, "the popularity feed's export_date")
        }
    }

    @Test("Paging across the boundary of whole-word and prefix-only matches gives the same pages")
    func paging() throws {
        try Self.withBoth { both, _ in
            for term in ["puzzle", "p", "chess", "photo"] {
                let all = try both.sqlite.search(term: term, limit: 500)
                let words = try both.sqlite.search(term: term, limit: 500).results.filter { result in
                    (result.trackName ?? "").lowercased().split(whereSeparator: { !$0.isLetter }).contains { $0 == Substring(term) }
                }
                if term == "puzzle" {
                    // Whole-word matches, then `Puzzles` (a prefix only).
                    #expect(!words.isEmpty && words.count < all.results.count, "\(term): both kinds of match")
                }
                #expect(Self.ids(try both.postgres.search(term: term, limit: 500)) == Self.ids(all))
                let count = all.results.count
                for limit in [1, 2, 3, 5] {
                    for offset in 0...(count + 1) {
                        Self.expectSame(both, "\(term) limit \(limit) offset \(offset)") { (store) throws(CatalogError) in
                            try store.search(term: term, country: nil, language: nil, entity: nil, limit: limit, offset: offset)
                        }
                    }
                }
                Self.expectSame(both, "\(term) limit 0") { (store) throws(CatalogError) in try store.search(term: term, limit: 0) }
            }
        }
    }

    @Test("An INCREMENTAL file keeps the index in step: new titles found, changed titles found by their new words")
    func incrementalIndex() throws {
        let database = try TestDatabase()
        try withTemporaryFolder { folder in
            func file(_ name: String, mode: String, rows: [[String]]) throws -> String {
                let feed = folder.appendingPathComponent(name, isDirectory: true)
                try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
                let bytes = tableFileBytes(
                    columns: ["export_date", "application_id", "title"], types: ["BIGINT", "BIGINT", "VARCHAR(1000)"],
                    key: ["application_id"], mode: mode, rows: rows)
                try Data(bytes).write(to: feed.appendingPathComponent("application"))
                return feed.path
            }
            let full = try file(
                "itunes20260101", mode: "FULL",
                rows: [
                    ["1", "10", "Chess Pro"], ["1", "11", "Chess Max"], ["1", "12", "Chessboard"], ["1", "13", "Old Name"],
                    ["1", "14", ""],
                ])
            let incremental = try file(
                "itunes20260102", mode: "INCREMENTAL",
                rows: [
                    ["2", "15", "Chess Ace"], ["2", "13", "Chess Zen"], ["2", "16", "Chess Fox"], ["2", "10", "Chess Pro"],
                    ["2", "14", "Chess Elk"],
                ])
            let run = try importIntoBoth([full, incremental], folder: folder, database: database)
            #expect(run.postgresReports.allSatisfy { $0.status == .applied }, "\(run.postgresReports.compactMap(\.error))")
            let both = Both(sqlite: try Catalog(path: run.sqlite), postgres: try PostgresCatalog(target: database.target))
            let expected = try both.sqlite.search(term: "chess")
            #expect(Self.ids(expected).count == 7)
            #expect(Self.ids(try both.postgres.search(term: "chess")) == Self.ids(expected))
            #expect(Self.ids(try both.postgres.search(term: "old")).isEmpty)
            #expect(Self.ids(try both.postgres.search(term: "zen")) == [13])
            let connection = try database.connect()
            #expect(try connection.scalar("SELECT count(*) FROM epf_search_application") == "7")
            #expect(try connection.scalar("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'epf_search_epf_stage%'") == "0")
        }
    }

    /// A journal record without its times, which differ between the two
    /// imports.
    static func untimed(_ record: JournalRecord) -> [String] {
        [
            String(record.id), record.feed ?? "-", record.feedDate ?? "-", record.table, record.mode ?? "-",
            record.exportDate.map(String.init) ?? "-", record.status.rawValue, String(record.rows), String(record.repairedRows),
            String(record.skippedRows), record.sourcePath, record.sourceSize.map(String.init) ?? "-", record.message ?? "-",
        ]
    }

    @Test("Catalog.journal reads the same records from both catalogs: every file of the four sample feeds, newest first")
    func journal() throws {
        try Self.withBoth { both, database in
            let sqlite = try both.sqlite.journal()
            let postgres = try both.postgres.journal()
            // itunes20261101's 9 files, pricing's and popularity's one each,
            // itunes20261102's 3: 14 rows, numbered in the order applied.
            #expect(postgres.map(\.id) == Array((1...14).reversed()))
            #expect(sqlite.map(Self.untimed) == postgres.map(Self.untimed))
            #expect(postgres.allSatisfy { $0.status == .applied && ($0.seconds ?? -1) >= 0 })
            // An applied file's message is its warnings: the FULL application
            // of 2026-11-01 has a row with a stray field separator.
            #expect(postgres.filter { $0.message != nil }.map(\.id) == [1])
            #expect(postgres.last?.message?.contains("stray field separator") == true)
            #expect(postgres.prefix(3).allSatisfy { $0.feed == "itunes" && $0.feedDate == "2026-11-02" && $0.mode == "INCREMENTAL" })
            #expect(Set(postgres.prefix(3).map(\.table)) == ["application", "application_detail", "genre_application"])
            #expect(
                postgres[3...4].map { "\($0.feed ?? "")/\($0.table)" } == [
                    "popularity/application_popularity_per_genre", "pricing/application_price",
                ])
            #expect(postgres.suffix(9).allSatisfy { $0.feed == "itunes" && $0.feedDate == "2026-11-01" && $0.mode == "FULL" })
            // What the rows say is what the stores wrote: the same columns,
            // read raw, oldest first.
            let raw = try journalSummary(postgres: try database.connect())
            #expect(
                postgres.reversed().map {
                    [
                        $0.table, $0.mode, String($0.rows), String($0.repairedRows), String($0.skippedRows), $0.status.rawValue,
                        $0.sourcePath,
                    ]
                } == raw.map { Array($0.prefix(7)) })
            let application = try both.postgres.journal(feed: "itunes", table: "application")
            #expect(application.map(\.mode) == ["INCREMENTAL", "FULL"])
            let file = String(
                decoding: try Data(contentsOf: SampleFeeds.url("itunes20261101").appendingPathComponent("application")), as: UTF8.self)
            let footer = try #require(file.range(of: "#recordsWritten:"))
            #expect(application.last?.rows == Int(file[footer.upperBound...].prefix { $0.isNumber }))
            #expect(try both.postgres.journal(limit: 2).map(\.id) == [14, 13])
            #expect(try both.postgres.journal(status: .failed).isEmpty)

            // A file the importer refused, as it records one: read back with
            // its message, on its own under `status`.
            try database.store().record([
                JournalEntry(
                    feed: "pricing", feedDate: "2026-11-02", table: "application_price", exportDate: nil, mode: nil, rows: 0,
                    repairedRows: 0, skippedRows: 0, sourcePath: "pricing20261102/application_price", sourceSize: 42,
                    startedAt: "2026-11-02T01:00:00.000Z", finishedAt: "2026-11-02T01:00:00.125Z", status: .failed,
                    message: "the file ends inside a row", details: nil)
            ])
            let failed = try both.postgres.journal(status: .failed)
            #expect(failed.map(\.id) == [15])
            #expect(failed.first?.message == "the file ends inside a row" && failed.first?.sourceSize == 42)
            #expect(failed.first?.seconds == 0.125 && failed.first?.startedAt == "2026-11-02T01:00:00.000Z")
            #expect(try both.postgres.journal(feed: "pricing").map(\.id) == [15, 10])
        }
    }
}
