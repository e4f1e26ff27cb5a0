import EPFCatalog
import EPFSQLite
import Foundation
import Testing

/// `SearchResponse.jsonBytes()` writes what `JSONEncoder` writes (sorted
/// keys, slashes unescaped), byte for byte.
@Suite("Result JSON")
struct ResultJSONTests {
    static func encoderBytes(_ response: SearchResponse) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(response))
    }

    @Test func everySampleApplicationEncodesAsJSONEncoderDoes() throws {
        let sample = try CatalogQueryTests.sampleCatalog(
            tables: ["application", "storefront", "genre", "genre_application", "artist", "artist_application", "application_detail"])
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
                #expect(response.jsonBytes() == (try Self.encoderBytes(response)), "\(country) \(language ?? "-")")
            }
        }
        #expect(try catalog.lookup(ids: [1]).jsonBytes() == Array(#"{"resultCount":0,"results":[]}"#.utf8))
    }

    @Test(arguments: [0.0, 0.99, 2.99, 120, 1234.5, 0.1 + 0.2, 1e20, 123_456_789.125, -3.5])
    func pricesEncodeAsJSONEncoderDoes(_ price: Double) throws {
        var result = SoftwareResult(trackId: 1)
        result.price = price
        let response = SearchResponse(results: [result])
        #expect(String(decoding: response.jsonBytes(), as: UTF8.self) == String(decoding: try Self.encoderBytes(response), as: UTF8.self))
    }

    @Test func stringsEscapeAsJSONEncoderDoes() throws {
        var result = SoftwareResult(trackId: 364_709_193)
        result.trackName = "Quote \" back\\slash /slash tab\t nl\n cr\r bell\u{7} nul\u{0} esc\u{1B} del\u{7F} é 象棋 🎲 \u{2028}"
        result.genres = ["a\u{1}b", ""]
        result.popularity = [PopularityRank(genreId: "36", genreName: nil, rank: 3)]
        let response = SearchResponse(results: [result])
        #expect(String(decoding: response.jsonBytes(), as: UTF8.self) == String(decoding: try Self.encoderBytes(response), as: UTF8.self))
    }
}
