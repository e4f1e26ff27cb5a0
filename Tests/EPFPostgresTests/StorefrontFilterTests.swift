import EPFTestSupport
import Foundation
import Testing

/// `epf import --storefront` into PostgreSQL: the same rule as SQLite's.
@Suite("epf import --storefront against PostgreSQL", .enabled(if: TestServer.available, TestServer.skipReason))
struct StorefrontFilterTests {
    @Test("a filtered import equals a SQL filter of the unfiltered catalog; a lookup elsewhere says so")
    func equalsTheFilteredCatalog() throws {
        let unfiltered = try TestDatabase()
        let filtered = try TestDatabase()
        try withTemporaryFolder { folder in
            let checked = try StorefrontEquality.check(
                feeds: SampleFeeds.pathsInOrder, ids: [143441, 143462], unfiltered: unfiltered.url, filtered: filtered.url, in: folder)
            #expect(checked == ["application_popularity_per_genre", "application_price"])
            let lookup = try EPFRunner.run(["lookup", "364709193", "--country", "DE", "--db", filtered.url], in: folder)
            #expect(lookup.status == 1)
            #expect(lookup.stderr.contains("storefront DE was not imported into this catalog (it has US, JP)"), "\(lookup.stderr)")
        }
    }
}
