import EPFCatalog
import EPFSQLite
import Foundation
import Testing

/// `SearchResponse.jsonBytes()` writes what `JSONEncoder` writes (sorted
/// keys, slashes unescaped), byte for byte, but for `price`: Apple writes
/// prices with two decimals (`"price":0.00`, `"price":2.99`), which
/// `JSONEncoder` cannot write (`0`, `2.99`). So prices are compared by
/// value (the JSON decodes to the same response), and everything else byte
/// for byte with every price's number taken out of both texts.
@Suite("Result JSON")
struct ResultJSONTests {
    static func encoderBytes(_ response: SearchResponse) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(response))
    }

    /// The JSON text with the number of every `"price":` taken out.
    static func withoutPrices(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(
            of: #""price":[-+0-9.eE]+"#, with: #""price":_"#, options: .regularExpression)
    }

    /// `jsonBytes()` is `JSONEncoder`'s text but for the prices' numbers,
    /// and decodes to `response`, prices included (prices of whole cents:
    /// others are rounded to them).
    static func expectEncoderText(
        _ response: SearchResponse, _ comment: Comment? = nil, decodesBack: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let ours = response.jsonBytes()
        #expect(Self.withoutPrices(ours) == Self.withoutPrices(try Self.encoderBytes(response)), comment, sourceLocation: sourceLocation)
        if decodesBack {
            #expect(try JSONDecoder().decode(SearchResponse.self, from: Data(ours)) == response, comment, sourceLocation: sourceLocation)
        }
    }

    @Test func everySampleApplicationEncodesAsJSONEncoderDoes() throws {
        let sample = try CatalogQueryTests.sampleCatalog(
            tables: [
                "application", "storefront", "genre", "genre_application", "artist", "artist_application", "application_detail",
                "device_type", "application_device_type",
            ])
        _ = try sample.store.apply(
            [
                try sample.stage(
                    bytes: try CatalogQueryTests.sampleFile("popularity20261101", "application_popularity_per_genre"),
                    as: "application_popularity_per_genre")
            ], journal: [])
        let catalog = try Catalog(path: sample.path)
        let ids = try sample.rows("SELECT application_id FROM application").compactMap { $0.first?.integerValue }
        #expect(ids.count > 10)
        for country in ["US", "JP", "FR", "DE"] {
            for language in [nil, "ja", "fr"] {
                let response = try catalog.lookup(ids: ids, country: country, language: language)
                #expect(response.results.contains { $0.price != nil })
                try Self.expectEncoderText(response, "\(country) \(language ?? "-")")
            }
        }
        #expect(try catalog.lookup(ids: [1]).jsonBytes() == Array(#"{"resultCount":0,"results":[]}"#.utf8))
    }

    /// Apple's own text: `"price":0.00` and `"price":2.99` (US, 2022:
    /// ttpho/ttpho.github.io `_posts/2022-10-14-maestro-ios.md`), and
    /// `"price":2000.00` in JPY (JP, mcasashi-aso/Booker). Beyond 1e15,
    /// no real price, the shortest text that reads back the same.
    @Test(arguments: [
        (0.0, "0.00"), (0.99, "0.99"), (2.99, "2.99"), (120, "120.00"), (2000, "2000.00"), (1234.5, "1234.50"),
        (0.1 + 0.2, "0.30"), (12_345_678_901, "12345678901.00"), (123_456_789.125, "123456789.13"), (-3.5, "-3.50"), (1e20, "1e+20"),
    ])
    func pricesAreWrittenWithTwoDecimals(_ price: Double, _ text: String) throws {
        var result = SoftwareResult(trackId: 1)
        result.price = price
        let response = SearchResponse(results: [result])
        #expect(
            String(decoding: response.jsonBytes(), as: UTF8.self) == #"{"resultCount":1,"results":[{"kind":"software","price":"# + text
                + #","trackId":1,"wrapperType":"software"}]}"#)
        try Self.expectEncoderText(response, decodesBack: (price * 100).rounded() / 100 == price)
    }

    @Test func stringsEscapeAsJSONEncoderDoes() throws {
        var result = SoftwareResult(trackId: 364_709_193)
        result.trackName = "Quote \" back\\slash /slash tab\t nl\n cr\r bell\u{7} nul\u{0} esc\u{1B} del\u{7F} é 象棋 🎲 \u{2028}"
        result.genres = ["a\u{1}b", ""]
        result.popularity = [PopularityRank(genreId: "36", genreName: nil, rank: 3)]
        result.supportedDevices = ["iPhone", "iPod \"touch\""]
        result.artistViewUrl = "https://apps.apple.com/jp/developer/a/id1?uo=4"
        result.trackCensoredName = result.trackName
        result.trackContentRating = "17+"
        let response = SearchResponse(results: [result])
        #expect(String(decoding: response.jsonBytes(), as: UTF8.self) == String(decoding: try Self.encoderBytes(response), as: UTF8.self))
    }

    /// Strings are scanned for escapes 16 bytes at a time: an escape at
    /// every place of strings up to three blocks long, around every block
    /// boundary, and next to multi-byte characters, as JSONEncoder writes it.
    @Test func escapesAtEveryPlaceOfABlock() throws {
        let specials = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{0}"]
        for length in 0...50 {
            for place in 0...length {
                for (index, special) in specials.enumerated() {
                    let filler = index % 2 == 0 ? "a" : "é"
                    var result = SoftwareResult(trackId: 1)
                    result.trackName = String(repeating: filler, count: place) + special + String(repeating: "b", count: length - place)
                    let response = SearchResponse(results: [result])
                    let ours = String(decoding: response.jsonBytes(), as: UTF8.self)
                    let theirs = String(decoding: try Self.encoderBytes(response), as: UTF8.self)
                    guard ours == theirs else {
                        Issue.record("\(length) \(place) \(special.debugDescription): \(ours) != \(theirs)")
                        return
                    }
                }
            }
        }
    }
}
