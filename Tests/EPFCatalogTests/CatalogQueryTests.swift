import EPFCatalog
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// `Catalog`: lookup, search, prices and the JSON shape, on a catalog made
/// of the sample feeds' FULL itunes and pricing days.
@Suite("Catalog queries")
struct CatalogQueryTests {
    /// SampleFeeds/FEED/TABLE.
    static func sampleFile(_ feed: String, _ table: String) throws -> [UInt8] {
        try fileBytes(SampleFeeds.url(feed).appendingPathComponent(table))
    }

    /// A catalog with `tables` of itunes20261101 (and the pricing feed's
    /// `application_price` when `pricing`) applied in one transaction.
    static func sampleCatalog(
        tables: [String] = ["application", "storefront", "genre", "genre_application", "artist", "artist_application"],
        pricing: Bool = true
    ) throws -> TemporaryCatalog {
        let catalog = try TemporaryCatalog()
        var staged = try tables.map { try catalog.stage(bytes: try sampleFile("itunes20261101", $0), as: $0) }
        if pricing {
            staged.append(try catalog.stage(bytes: try sampleFile("pricing20261101", "application_price"), as: "application_price"))
        }
        _ = try catalog.store.apply(staged, journal: [])
        return catalog
    }

    @Test func lookupOfAKnownIDAnswersTitlePriceGenresAndArtist() throws {
        let sample = try Self.sampleCatalog()
        let response = try Catalog(path: sample.path).lookup(ids: [364_709_193])
        #expect(response.resultCount == 1)
        let app = try #require(response.results.first)
        #expect(app.wrapperType == "software")
        #expect(app.kind == "software")
        #expect(app.trackId == 364_709_193)
        #expect(app.trackName == "Chess Master Classic")
        #expect(app.artistName == "Knightfall Games")
        #expect(app.artistId == 284_417_353)
        #expect(app.sellerName == "Knightfall Games Ltd")
        // EPF's view_url (`.../us/app/chess-master-classic/id364709193?mt=8`) as Apple's Lookup writes it.
        #expect(app.trackViewUrl == "https://apps.apple.com/us/app/chess-master-classic/id364709193?uo=4")
        #expect(app.artistViewUrl == "https://apps.apple.com/us/developer/knightfall-games/id284417353?uo=4")
        #expect(app.trackCensoredName == "Chess Master Classic")
        #expect(app.trackContentRating == "4+")
        #expect(app.artworkUrl100?.hasSuffix("/364709193/AppIcon-100x100bb.png") == true)
        #expect(app.price == 2.99)
        #expect(app.currency == "USD")
        #expect(app.formattedPrice == "$2.99")
        #expect(app.version == "2.4.1")
        #expect(app.releaseDate == "2010-04-02T00:00:00Z")
        #expect(app.genres == ["Games", "Board", "Strategy"])
        #expect(app.genreIds == ["6014", "7002", "7017"])
        #expect(app.primaryGenreName == "Games")
        #expect(app.primaryGenreId == 6014)
        #expect(app.contentAdvisoryRating == "4+")
        #expect(app.fileSizeBytes == "48213504")
        #expect(app.description?.contains("500 chess puzzles") == true)
    }

    @Test func aLanguageTakesNamesAndTextsFromApplicationDetail() throws {
        let sample = try Self.sampleCatalog(tables: ["application", "storefront", "application_detail"], pricing: false)
        let catalog = try Catalog(path: sample.path)
        let japanese = try #require(try catalog.lookup(ids: [364_709_193], language: "ja_JP").results.first)
        #expect(japanese.trackName == "チェスマスター クラシック")
        #expect(japanese.releaseNotes?.contains("バージョン2.4.1の新機能") == true)
        #expect(japanese.languageCodesISO2A == ["EN", "FR", "JA"])
        #expect(japanese.screenshotUrls?.first?.hasSuffix("/364709193/ja-1.png") == true)
        #expect(japanese.sellerUrl == "https://www.knightfall-games.example")

        let english = try #require(try catalog.lookup(ids: [364_709_193]).results.first)
        #expect(english.trackName == "Chess Master Classic")
        #expect(english.screenshotUrls?.first?.hasSuffix("/364709193/en-1.png") == true)
        #expect(try catalog.lookup(ids: [364_709_193], language: "fr-CA").results.first?.trackName == "Chess Master Classique")

        // A language the application does not have: the application table's own name, no release notes.
        let korean = try #require(try catalog.lookup(ids: [364_709_193], language: "ko").results.first)
        #expect(korean.trackName == "Chess Master Classic")
        #expect(korean.releaseNotes == nil)
        #expect(korean.languageCodesISO2A == ["EN", "FR", "JA"])

        let error = try #require(throws: CatalogError.self) { try catalog.lookup(ids: [364_709_193], language: "japanese") }
        #expect(error.description.contains("'japanese' is not a language code"))
        // Without application_detail, no such fields.
        let withoutDetail = try Self.sampleCatalog()
        let plain = try #require(try Catalog(path: withoutDetail.path).lookup(ids: [364_709_193]).results.first)
        #expect(plain.releaseNotes == nil && plain.languageCodesISO2A == nil && plain.screenshotUrls == nil)
    }

    @Test func popularityRanksAreThoseOfTheStorefront() throws {
        let sample = try Self.sampleCatalog()
        _ = try sample.store.apply(
            [
                try sample.stage(
                    bytes: try Self.sampleFile("popularity20261101", "application_popularity_per_genre"),
                    as: "application_popularity_per_genre")
            ], journal: [])
        let catalog = try Catalog(path: sample.path)
        let germany = try #require(try catalog.lookup(ids: [364_709_193], country: "DE").results.first)
        #expect(
            germany.popularity == [
                PopularityRank(genreId: "6014", genreName: "Games", rank: 1), PopularityRank(genreId: "7002", genreName: "Board", rank: 1),
                PopularityRank(genreId: "36", genreName: "Apps", rank: 2),
            ])
        let us = try #require(try catalog.lookup(ids: [364_709_193]).results.first)
        #expect(us.popularity == [PopularityRank(genreId: "7002", genreName: "Board", rank: 7)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(us), as: UTF8.self)
        #expect(json.contains(#""popularity":[{"genreId":"7002","genreName":"Board","rank":7}]"#))
        #expect(
            try catalog.lookup(ids: [364_709_193], country: "CN").results.first?.popularity == [
                PopularityRank(genreId: "7002", genreName: "Board", rank: 7), PopularityRank(genreId: "6014", genreName: "Games", rank: 8),
            ])
        // An application in no chart: no field.
        #expect(try catalog.lookup(ids: [586_004_127], country: "KR").results.first.map { $0.popularity == nil } == true)
    }

    @Test func releaseDatesWithATimeKeepIt() throws {
        let sample = try Self.sampleCatalog()
        let app = try #require(try Catalog(path: sample.path).lookup(ids: [284_882_215]).results.first)
        #expect(app.releaseDate == "2012-03-06T10:00:00Z")
        #expect(app.formattedPrice == "Free")
        #expect(app.price == 0)
    }

    @Test func severalIDsComeBackInTheOrderGivenWithoutUnknownsOrRepeats() throws {
        let sample = try Self.sampleCatalog()
        let response = try Catalog(path: sample.path).lookup(ids: [412_039_587, 1, 364_709_193, 412_039_587])
        #expect(response.resultCount == 2)
        #expect(response.results.map(\.trackId) == [412_039_587, 364_709_193])
        #expect(response.results.map(\.trackName) == ["国际象棋游戏", "Chess Master Classic"])
    }

    @Test func anUnknownIDIsAnEmptyResponse() throws {
        let sample = try Self.sampleCatalog()
        let response = try Catalog(path: sample.path).lookup(ids: [1])
        #expect(response == SearchResponse(results: []))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(response), as: UTF8.self)
        #expect(json == #"{"resultCount":0,"results":[]}"#)
    }

    @Test(arguments: [
        "https://apps.apple.com/us/app/chess-master-classic/id364709193?mt=8",
        "https://itunes.apple.com/us/app/ibooks/id364709193?mt=8",
        "http://itunes.apple.com/app/id364709193",
        "apps.apple.com/jp/app/id364709193#reviews",
        "id364709193",
        "ID364709193",
        "364709193",
        " 364709193\n",
    ])
    func productLinksOfEveryFormGiveTheAppleID(_ link: String) throws {
        #expect(try ProductLink.appleID(from: link) == 364_709_193)
    }

    @Test(arguments: [
        "", "abc", "id", "id-5", "0", "12a", "99999999999999999999",
        "https://example.com/app/id364709193", "https://apps.apple.com/us/app/name", "https://apps.apple.com/us/app/idx",
    ])
    func whatIsNotALinkIsAClearError(_ text: String) throws {
        let error = #expect(throws: CatalogError.self) { try ProductLink.appleID(from: text) }
        #expect(error?.detail == "'\(text)' is not an Apple ID or product link")
        #expect(error?.hint.contains("id364709193") == true)
    }

    @Test func lookupByLinksReadsEachForm() throws {
        let sample = try Self.sampleCatalog()
        let response = try Catalog(path: sample.path).lookup(links: [
            "https://apps.apple.com/us/app/guoji-xiangqi-youxi/id412039587?mt=8", "id530662175", "284882215",
        ])
        #expect(response.results.map(\.trackId) == [412_039_587, 530_662_175, 284_882_215])
        #expect(throws: CatalogError.self) { try Catalog(path: sample.path).lookup(links: ["364709193", "nope"]) }
    }

    @Test func countryAsAlpha2Alpha3OrStorefrontIDPricesInItsCurrency() throws {
        let sample = try Self.sampleCatalog()
        let catalog = try Catalog(path: sample.path)
        for country in ["JP", "jp", "JPN", "143462"] {
            let app = try #require(try catalog.lookup(ids: [412_039_587], country: country).results.first)
            #expect(app.price == 120, "\(country)")
            #expect(app.currency == "JPY")
            #expect(app.formattedPrice == "¥120")
        }
        #expect(try catalog.lookup(ids: [412_039_587], country: "US").results.first?.formattedPrice == "$0.99")
        #expect(try catalog.lookup(ids: [412_039_587]).results.first?.formattedPrice == "$0.99")
        #expect(try catalog.lookup(ids: [364_709_193], country: "FR").results.first?.formattedPrice == "2,99 €")
        #expect(try catalog.lookup(ids: [364_709_193], country: "KR").results.first?.formattedPrice == "₩3,900")
        #expect(try catalog.storefront(for: "gb") == Storefront(id: 143444, countryCode: "GBR", name: "United Kingdom"))
    }

    @Test(arguments: ["ZZ", "BR", "XYZ", "999", "United States"])
    func anUnknownCountryIsAClearError(_ country: String) throws {
        let sample = try Self.sampleCatalog()
        let error = #expect(throws: CatalogError.self) {
            try Catalog(path: sample.path).lookup(ids: [364_709_193], country: country)
        }
        #expect(error?.detail == "unknown country '\(country)'")
        #expect(error?.hint.contains("JPN, KOR, USA") == true)
    }

    @Test func absentTablesLeaveTheirFieldsOut() throws {
        let sample = try Self.sampleCatalog(tables: ["application"], pricing: false)
        let catalog = try Catalog(path: sample.path)
        let response = try catalog.lookup(ids: [364_709_193], country: "143462")
        let app = try #require(response.results.first)
        #expect(app.trackName == "Chess Master Classic")
        #expect(app.price == nil && app.formattedPrice == nil && app.genres == nil && app.artistId == nil)
        let json = String(decoding: try JSONEncoder().encode(response), as: UTF8.self)
        #expect(json.contains(#""trackName":"Chess Master Classic""#))
        #expect(!json.contains("price") && !json.contains("genres") && !json.contains("artistId"))
        #expect(try catalog.search(term: "chess").resultCount == 5)
        // Without a storefront table, only a storefront ID or the US can be priced.
        #expect(throws: CatalogError.self) { try catalog.lookup(ids: [364_709_193], country: "JP") }
    }

    @Test func theJSONDecodesAsApplesShape() throws {
        let sample = try Self.sampleCatalog()
        let response = try Catalog(path: sample.path).lookup(ids: [364_709_193])
        let data = try JSONEncoder().encode(response)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["resultCount"] as? Int == 1)
        let app = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(app["trackId"] as? Int == 364_709_193)
        #expect(app["price"] as? Double == 2.99)
        #expect(app["genreIds"] as? [String] == ["6014", "7002", "7017"])
        #expect(app["fileSizeBytes"] as? String == "48213504")
        #expect(try JSONDecoder().decode(SearchResponse.self, from: data) == response)
    }

    @Test func searchFindsTitlesByWordPrefixCaseDiacriticsAndCJK() throws {
        let sample = try Self.sampleCatalog()
        let catalog = try Catalog(path: sample.path)
        func ids(_ term: String) throws -> Set<Int64> { Set(try catalog.search(term: term).results.map(\.trackId)) }
        let chess: Set<Int64> = [364_709_193, 284_882_215, 541_187_520, 586_004_127, 599_380_512]
        #expect(try ids("chess") == chess)
        #expect(try ids("CHE") == chess)
        #expect(try ids("chess puzz") == [284_882_215])
        #expect(try ids("echecs") == [530_662_175])
        #expect(try ids("CAFÉ") == [530_662_175])
        #expect(try ids("象棋") == [412_039_587])
        #expect(try ids("将棋") == [498_120_336])
        #expect(try ids("체스") == [523_870_911])
        #expect(try ids("xyzzy").isEmpty)
        #expect(try ids("\"*").isEmpty)
        let app = try #require(try catalog.search(term: "象棋", country: "JP").results.first)
        #expect(app.trackName == "国际象棋游戏")
        #expect(app.formattedPrice == "¥120")
    }

    @Test func searchIsRankedAndPagedByLimitAndOffset() throws {
        let sample = try Self.sampleCatalog()
        let catalog = try Catalog(path: sample.path)
        let all = try catalog.search(term: "chess").results.map(\.trackId)
        #expect(all.count == 5)
        // The title of fewest words holding the word ranks first (as bm25 ranks it).
        #expect(all.first == 541_187_520)
        #expect(try catalog.search(term: "chess", limit: 2).results.map(\.trackId) == Array(all[0..<2]))
        #expect(try catalog.search(term: "chess", limit: 2, offset: 2).results.map(\.trackId) == Array(all[2..<4]))
        #expect(try catalog.search(term: "chess", limit: 10, offset: 4).results.map(\.trackId) == [all[4]])
        // A page of none is refused, as the API refuses limit=0.
        #expect(try #require(throws: CatalogError.self) { try catalog.search(term: "chess", limit: 0) }.kind == .usage)
        #expect(throws: CatalogError.self) { try catalog.search(term: "chess", limit: -1) }
        #expect(try catalog.searchCount(term: "chess", in: try catalog.storefront(for: nil), entity: nil) == 5)
    }

    @Test(arguments: [
        (0.0, "USD", "Free"), (0.99, "USD", "$0.99"), (1234.5, "USD", "$1,234.50"), (120, "JPY", "¥120"),
        (1200, "JPY", "¥1,200"), (18, "CNY", "¥18.00"), (2.99, "GBP", "£2.99"), (2.99, "EUR", "2,99 €"),
        (3900, "KRW", "₩3,900"), (4.5, "XTS", "XTS 4.50"),
    ])
    func pricesAreFormattedForTheirCurrency(_ price: Double, _ code: String, _ expected: String) {
        #expect(PriceFormat.format(price, currencyCode: code) == expected)
    }

    @Test func freeIsWrittenInTheStorefrontsWord() {
        #expect(PriceFormat.freeWord(countryCode: "JPN") == "無料")
        #expect(PriceFormat.freeWord(countryCode: "USA") == "Free")
        #expect(PriceFormat.freeWord(countryCode: "FRA") == "Free")
        #expect(PriceFormat.freeWord(countryCode: nil) == "Free")
        #expect(PriceFormat.format(0, currencyCode: "JPY", free: "無料") == "無料")
        #expect(PriceFormat.format(120, currencyCode: "JPY", free: "無料") == "¥120")
    }

    @Test(
        arguments: [
            ("https://apps.apple.com/us/app/chess/id364709193?mt=8", "jp", "https://apps.apple.com/jp/app/chess/id364709193?uo=4"),
            ("https://apps.apple.com/us/developer/k/id284417353?mt=8", "fr", "https://apps.apple.com/fr/developer/k/id284417353?uo=4"),
            ("https://itunes.apple.com/app/id530662175", "jp", "https://itunes.apple.com/app/id530662175?uo=4"),
            ("https://apps.apple.com/us/app/chess/id364709193", nil, "https://apps.apple.com/us/app/chess/id364709193?uo=4"),
            ("not a link", "jp", "not a link"),
        ] as [(String, String?, String)])
    func linksCarryTheStorefront(_ link: String, _ country: String?, _ expected: String) {
        #expect(ProductLink.storefrontLink(link, country: country) == expected)
    }

    @Test func aCatalogWithoutApplicationsIsAClearError() throws {
        let sample = try Self.sampleCatalog(tables: ["genre"], pricing: false)
        let error = #expect(throws: CatalogError.self) { try Catalog(path: sample.path) }
        #expect(error?.detail.contains("has no application table") == true)
    }
}
