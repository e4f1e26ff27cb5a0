import EPFCatalog
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// Client code of Apple's Lookup API (`AppleLookupResponse`, in
/// EPFTestSupport) decodes what the read engine answers.
@Suite("Apple's client models decode our lookups")
struct AppleClientDecodingTests {
    /// Runs `body` on a catalog of every sample feed, imported in order.
    static func withSampleCatalog(_ body: (Catalog) throws -> Void) throws {
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("catalog.sqlite").path
            let reports = try runImport(SampleFeeds.pathsInOrder, catalog: path)
            #expect(reports.allSatisfy { $0.status == .applied })
            try body(try Catalog(path: path))
        }
    }

    @Test func everySampleLookupDecodesWithAClientsModel() throws {
        try Self.withSampleCatalog { catalog in
            let ids = try #require(catalog.database).rows("SELECT application_id FROM application ORDER BY application_id")
                .compactMap(\.first?.integerValue)
            #expect(ids.count == 27)
            // The two INCREMENTAL newcomers have no price anywhere: no storefront sells them.
            let unpriced: Set<Int64> = [638_402_717, 640_559_126]
            for country in ["US", "JP"] {
                for language in [nil, "ja", "en"] {
                    var decoded = 0
                    for id in ids {
                        let bytes = try catalog.lookup(ids: [id], country: country, language: language).jsonBytes()
                        let response = try JSONDecoder().decode(AppleLookupResponse.self, from: Data(bytes))
                        #expect(response.resultCount == response.results.count)
                        #expect(response.results.count == (unpriced.contains(id) ? 0 : 1), "\(id) in \(country)")
                        decoded += response.results.count
                    }
                    #expect(decoded == ids.count - unpriced.count)
                    let all = try JSONDecoder().decode(
                        AppleLookupResponse.self, from: Data(try catalog.lookup(ids: ids, country: country, language: language).jsonBytes())
                    )
                    #expect(all.resultCount == ids.count - unpriced.count)
                }
            }
        }
    }

    /// The first FULL day alone (before the INCREMENTAL day fills them)
    /// has an application whose icon URLs and download size are empty:
    /// it decodes too, with `""` for them, and every other application
    /// has its icon at 60 px, made from the URLs EPF holds.
    @Test func aFullDayWithEmptyFieldsDecodesWithAClientsModel() throws {
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("catalog.sqlite").path
            let reports = try runImport([SampleFeeds.url("itunes20261101").path, SampleFeeds.url("pricing20261101").path], catalog: path)
            #expect(reports.allSatisfy { $0.status == .applied })
            let catalog = try Catalog(path: path)
            let ids = try #require(catalog.database).rows("SELECT application_id FROM application ORDER BY application_id")
                .compactMap(\.first?.integerValue)
            let response = try JSONDecoder().decode(AppleLookupResponse.self, from: Data(try catalog.lookup(ids: ids).jsonBytes()))
            #expect(response.resultCount == ids.count && response.resultCount > 20)
            let empty = try #require(response.results.first { $0.trackId == 586_004_127 })
            #expect(empty.artworkUrl60 == "" && empty.artworkUrl100 == "" && empty.artworkUrl512 == "" && empty.fileSizeBytes == "")
            for result in response.results where result.trackId != 586_004_127 {
                #expect(result.artworkUrl60.hasSuffix("/\(result.trackId)/AppIcon-60x60bb.png"), "\(result.trackId)")
            }
        }
    }

    /// The shape of a JP lookup, as Apple's JP responses write it.
    @Test func aJapaneseLookupIsWrittenAsApplesJapaneseLookups() throws {
        try Self.withSampleCatalog { catalog in
            let paid = String(decoding: try catalog.lookup(ids: [364_709_193], country: "JP").jsonBytes(), as: UTF8.self)
            #expect(paid.contains(#""price":370.00,"#))
            #expect(paid.contains(#""formattedPrice":"¥370""#))
            #expect(paid.contains(#""currency":"JPY""#))
            #expect(paid.contains(#""trackViewUrl":"https://apps.apple.com/jp/app/chess-master-classic/id364709193?uo=4""#))
            #expect(paid.contains(#""artistViewUrl":"https://apps.apple.com/jp/developer/knightfall-games/id284417353?uo=4""#))
            #expect(paid.contains(#""supportedDevices":["iPhone","iPod touch","iPad","Mac"]"#))
            #expect(paid.contains(#""genreIds":["6014","7002","7017"]"#))
            #expect(paid.contains(#""primaryGenreId":6014,"#))
            let free = String(decoding: try catalog.lookup(ids: [498_120_336, 284_882_215], country: "JP").jsonBytes(), as: UTF8.self)
            #expect(free.contains(#""price":0.00,"#))
            #expect(free.contains(#""formattedPrice":"無料""#))
            let us = String(decoding: try catalog.lookup(ids: [284_882_215, 364_709_193]).jsonBytes(), as: UTF8.self)
            #expect(us.contains(#""price":0.00,"#) && us.contains(#""formattedPrice":"Free""#))
            #expect(us.contains(#""price":2.99,"#) && us.contains(#""formattedPrice":"$2.99""#))
            #expect(us.contains("https://apps.apple.com/us/app/chess-master-classic/id364709193?uo=4"))
            let ja = try #require(try catalog.lookup(ids: [364_709_193], country: "JP", language: "ja").results.first)
            #expect(ja.trackCensoredName == "チェスマスター クラシック" && ja.trackCensoredName == ja.trackName)
            #expect(ja.ipadScreenshotUrls?.first?.hasSuffix("/364709193/ja-ipad-1.png") == true)
            #expect(ja.trackContentRating == "4+")
        }
    }
}
