import EPFTestSupport
import Foundation
import Testing

/// The top charts in the shape of Apple's RSS feed generator
/// (`/api/v2/{country}/apps/{chart}/{limit}/apps.json`), from the sample
/// feeds' popularity chart and prices.
@Suite("Top charts as Apple's RSS feed generator serves them")
struct ChartRouteTests {
    /// What public Swift clients of Apple's RSS feed decode: every field a
    /// String, none optional.
    struct AppGroup: Decodable {
        let feed: Feed
    }

    struct Feed: Decodable {
        let title: String
        let results: [FeedResult]
    }

    struct FeedResult: Decodable {
        let id, name, artistName, artworkUrl100: String
    }

    /// The applications of the US chart (genre `genre`) that are free
    /// (price 0) or paid, by rank, read straight from the catalog.
    static func expected(_ path: String, country: Int64 = 143441, genre: Int64 = 36, paid: Bool) throws -> [String] {
        let sql = """
            SELECT c.application_id FROM application_popularity_per_genre AS c
                JOIN application_price AS p ON p.application_id = c.application_id AND p.storefront_id = c.storefront_id
            WHERE c.storefront_id = \(country) AND c.genre_id = \(genre) AND p.retail_price \(paid ? "> 0" : "= 0")
            ORDER BY c.application_rank
            """
        let result = try EPFRunner.run(
            ["sql", "--db", path, "--format", "csv", sql], in: URL(fileURLWithPath: path).deletingLastPathComponent())
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").dropFirst().map(String.init)
    }

    @Test(arguments: ServedBy.allCases) func topFreeAndTopPaidByRank(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        let free = try Self.expected(catalog.path, paid: false)
        let paid = try Self.expected(catalog.path, paid: true)
        #expect(free.count >= 3 && paid.count >= 3, "the samples' US chart has free and paid applications")
        try await catalog.withClient(servedBy, expectsEventLoopAnswers: false) { client in
            let answer = try await client.get("/api/v2/us/apps/top-free/10/apps.json")
            #expect(answer.status == .ok)
            #expect(answer.contentType == "application/json; charset=utf-8")
            let group = try JSONDecoder().decode(AppGroup.self, from: Data(answer.text.utf8))
            #expect(group.feed.title == "Top Free Apps")
            #expect(group.feed.results.map(\.id) == Array(free.prefix(10)))
            #expect(group.feed.results.allSatisfy { !$0.name.isEmpty && !$0.artistName.isEmpty && $0.artworkUrl100.hasPrefix("https://") })

            let feed = try #require(try answer.json["feed"] as? [String: Any])
            #expect(feed["country"] as? String == "us")
            #expect(feed["updated"] as? String == "Sun, 01 Nov 2026 00:00:00 +0000", "the popularity feed's day")
            #expect((feed["id"] as? String)?.hasSuffix("/api/v2/us/apps/top-free/10/apps.json") == true)
            #expect((feed["author"] as? [String: String])?["name"] == "Apple")
            let first = try #require((feed["results"] as? [[String: Any]])?.first)
            #expect(first["kind"] as? String == "apps")
            #expect((first["releaseDate"] as? String)?.count == 10)
            #expect((first["url"] as? String)?.hasPrefix("https://apps.apple.com/us/app/") == true)
            let genres = try #require(first["genres"] as? [[String: String]])
            #expect(genres.first?["url"] == "https://itunes.apple.com/us/genre/id\(genres.first?["genreId"] ?? "")")
            #expect(answer.text.hasPrefix(#"{"feed":{"title":"Top Free Apps","id":"#), "Apple's order of the keys")

            let paidAnswer = try await client.get("/api/v2/us/apps/top-paid/25/apps.json")
            let paidGroup = try JSONDecoder().decode(AppGroup.self, from: Data(paidAnswer.text.utf8))
            #expect(paidGroup.feed.title == "Top Paid Apps")
            #expect(paidGroup.feed.results.map(\.id) == Array(paid.prefix(25)))
            #expect(Set(paidGroup.feed.results.map(\.id)).isDisjoint(with: group.feed.results.map(\.id)))
        }
    }

    @Test func aGenresChartAndAnotherStorefront() async throws {
        let catalog = try SampleCatalog()
        let games = try Self.expected(catalog.path, genre: 6014, paid: false)
        let japan = try Self.expected(catalog.path, country: 143462, paid: true)
        #expect(!games.isEmpty && !japan.isEmpty)
        try await catalog.withClient(.router, expectsEventLoopAnswers: false) { client in
            let genre = try await client.get("/api/v2/us/apps/top-free/100/genre/6014.json")
            #expect(try JSONDecoder().decode(AppGroup.self, from: Data(genre.text.utf8)).feed.results.map(\.id) == games)
            let jp = try await client.get("/api/v2/jp/apps/top-paid/100/apps.json")
            #expect(try JSONDecoder().decode(AppGroup.self, from: Data(jp.text.utf8)).feed.results.map(\.id) == japan)
            #expect(try jp.json["feed"].flatMap { ($0 as? [String: Any])?["country"] as? String } == "jp")
            let head = try await client.get("/api/v2/us/apps/top-free/10/apps.json", method: .head)
            #expect(head.status == .ok && head.text.isEmpty)
        }
    }

    /// A bad value is a 400 in the error shape of Apple's JSON APIs,
    /// naming the value; a catalog without charts a 404 that says what to
    /// import.
    @Test func badValuesAndACatalogWithoutCharts() async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(.router, expectsEventLoopAnswers: false) { client in
            for (path, parameter) in [
                ("/api/v2/us/apps/top-grossing/10/apps.json", "chart"), ("/api/v2/us/apps/top-free/11/apps.json", "limit"),
                ("/api/v2/us/apps/top-free/0/apps.json", "limit"), ("/api/v2/zz/apps/top-free/10/apps.json", "country"),
                ("/api/v2/usa/apps/top-free/10/apps.json", "country"), ("/api/v2/us/apps/top-free/10/genre/games.json", "genre"),
            ] {
                let answer = try await client.get(path)
                #expect(answer.status == .badRequest, "\(path)")
                let errors = try #require(try answer.json["errors"] as? [[String: Any]], "\(path): \(answer.text)")
                #expect(errors.first?["status"] as? String == "400")
                #expect((errors.first?["source"] as? [String: String])?["parameter"] == parameter, "\(path): \(answer.text)")
            }
        }
        let bare = try SampleCatalog(feeds: { _ in [SampleFeeds.pathsInOrder[0]] })
        try await bare.withClient(.router, expectsEventLoopAnswers: false) { client in
            let answer = try await client.get("/api/v2/us/apps/top-free/10/apps.json")
            #expect(answer.status == .notFound)
            #expect(answer.text.contains("application_popularity_per_genre") && answer.text.contains("popularity feed"), "\(answer.text)")
        }
    }
}
