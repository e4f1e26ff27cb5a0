import EPFCatalog
import Foundation
import Testing

/// The icon URLs a result sends at 60, 100 and 512 px, from whichever of
/// the two EPF holds (`ArtworkURL`), and what a lookup answers with them.
@Suite("Artwork URLs at every size")
struct ArtworkURLTests {
    @Test func theSizeInTheFileNameIsRewritten() {
        let base = "https://is1-ssl.mzstatic.com/image/thumb/Purple/v4/ab/cd/"
        #expect(ArtworkURL.resized(base + "AppIcon-512x512bb.png", to: 60) == base + "AppIcon-60x60bb.png")
        #expect(ArtworkURL.resized(base + "source/512x512bb.jpg", to: 100) == base + "source/100x100bb.jpg")
        #expect(
            ArtworkURL.resized("http://a1.mzstatic.com/us/r30/mzl.abcd.100x100-75.jpg", to: 512)
                == "http://a1.mzstatic.com/us/r30/mzl.abcd.512x512-75.jpg")
        // A query or a folder that looks like a size is not the file name's.
        #expect(
            ArtworkURL.resized("https://x.example/1024x1024/icon-512x512.png?v=60x60", to: 60)
                == "https://x.example/1024x1024/icon-60x60.png?v=60x60")
        #expect(ArtworkURL.resized("https://x.example/1024x1024/icon.png", to: 60) == nil)
        // Not a size: sides differ (hex digits), or no digits on a side.
        #expect(ArtworkURL.resized("https://x.example/mzl.0x1a2b.png", to: 60) == nil)
        #expect(ArtworkURL.resized("https://x.example/xbox-x512.png", to: 60) == nil)
        #expect(ArtworkURL.resized("", to: 60) == nil)
    }

    @Test func eachSizeComesFromItsOwnColumnElseTheOther() {
        let small = "https://x.example/a/AppIcon-100x100bb.png"
        let large = "https://x.example/a/AppIcon-512x512bb.png"
        let both = ArtworkURL.sizes(small: small, large: large)
        #expect(both.url60 == "https://x.example/a/AppIcon-60x60bb.png" && both.url100 == small && both.url512 == large)
        let largeOnly = ArtworkURL.sizes(small: "", large: large)
        #expect(largeOnly.url60 == "https://x.example/a/AppIcon-60x60bb.png")
        #expect(largeOnly.url100 == small && largeOnly.url512 == large)
        let smallOnly = ArtworkURL.sizes(small: small, large: nil)
        #expect(smallOnly.url512 == large && smallOnly.url60 == "https://x.example/a/AppIcon-60x60bb.png")
        // No size to rewrite: the same icon, for a client to scale.
        let unsized = ArtworkURL.sizes(small: nil, large: "https://x.example/mzl.abcd.png")
        #expect(unsized.url60 == "https://x.example/mzl.abcd.png" && unsized.url100 == unsized.url60 && unsized.url512 == unsized.url60)
        // The small one names its size, the large does not: 60 is made from the small.
        let mixed = ArtworkURL.sizes(small: "https://x.example/mzl.abcd.100x100-75.jpg", large: "https://x.example/mzl.abcd.png")
        #expect(mixed.url60 == "https://x.example/mzl.abcd.60x60-75.jpg" && mixed.url512 == "https://x.example/mzl.abcd.png")
        let none = ArtworkURL.sizes(small: nil, large: "")
        #expect(none.url60 == "" && none.url100 == "" && none.url512 == "")
    }

    /// Through a lookup: the keys are there for every application whose
    /// row the catalog has, derived or `""`, and so is `fileSizeBytes`.
    @Test func aLookupSendsEveryIconSizeAndTheFileSize() throws {
        let catalog = try TemporaryCatalog()
        let columns = ["export_date", "application_id", "title", "artwork_url_large", "artwork_url_small", "download_size"]
        let table = TableBytes(
            columns: columns, types: ["BIGINT", "INTEGER", "VARCHAR(1000)", "VARCHAR(1000)", "VARCHAR(1000)", "BIGINT"],
            key: ["application_id"],
            rows: [
                ["1", "11", "Both", "https://x.example/11/AppIcon-512x512bb.png", "https://x.example/11/AppIcon-100x100bb.png", "1024"],
                ["1", "12", "Large only", "https://x.example/12/source/512x512bb.jpg", "", "2048"],
                ["1", "13", "Neither", "", "", ""],
            ])
        let staged = try catalog.stage(bytes: table.bytes, as: "application")
        _ = try catalog.store.apply([staged], journal: [])
        let results = try Catalog(path: catalog.path).lookup(ids: [11, 12, 13]).results
        #expect(results.map(\.trackId) == [11, 12, 13])
        #expect(results[0].artworkUrl60 == "https://x.example/11/AppIcon-60x60bb.png")
        #expect(results[1].artworkUrl60 == "https://x.example/12/source/60x60bb.jpg")
        #expect(results[1].artworkUrl100 == "https://x.example/12/source/100x100bb.jpg")
        #expect(results[1].artworkUrl512 == "https://x.example/12/source/512x512bb.jpg")
        #expect(results[1].fileSizeBytes == "2048")
        #expect(results[2].artworkUrl60 == "" && results[2].artworkUrl100 == "" && results[2].artworkUrl512 == "")
        #expect(results[2].fileSizeBytes == "")
        let json = String(decoding: try Catalog(path: catalog.path).lookup(ids: [13]).jsonBytes(), as: UTF8.self)
        #expect(json.contains(#""artworkUrl100":"","artworkUrl512":"","artworkUrl60":"","#))
        #expect(json.contains(#""fileSizeBytes":"","#))
    }
}
