import EPFImport
import Foundation
import Testing

@testable import EPFFetch

/// Listings held in memory: folder path -> names (`x/` for a folder,
/// `name=size` for a file with a listed size).
struct FakeListings: ListingReader {
    var folders: [String: [String]]
    var log = Log()

    final class Log: @unchecked Sendable {
        var listed: [String] = []
    }

    func list(_ path: String) throws(FetchError) -> [ListingEntry] {
        log.listed.append(path)
        guard let names = folders[path] else { throw FetchError(.notFound, "\(path): not found on the server (HTTP 404)") }
        return names.map { name in
            if name.hasSuffix("/") { return ListingEntry(name: String(name.dropLast()), isFolder: true) }
            let parts = name.split(separator: "=")
            return ListingEntry(name: String(parts[0]), isFolder: false, size: parts.count > 1 ? Int64(parts[1]) : nil)
        }
    }
}

@Suite("The remote plan")
struct RemotePlanTests {
    static let feedFolder = ["application.tbz=100", "application.tbz.md5=57", "genre.tbz=20", "genre.tbz.md5=50", "storefront.tbz=30"]

    /// Apple's v5 layout: FULL feeds at the base, INCREMENTAL days under
    /// incremental/current/; days before the newest FULL are not fetched.
    static var v5: FakeListings {
        FakeListings(folders: [
            "": ["incremental/", "itunes20261101/", "pricing20261101/", "popularity20261101/", "README.txt"],
            "itunes20261101/": feedFolder,
            "pricing20261101/": ["application_price.tbz=70", "application_price.tbz.md5"],
            "popularity20261101/": ["application_popularity_per_genre.tbz", "application_popularity_per_genre.tbz.md5"],
            "incremental/": ["current/", "20261025/"],
            "incremental/current/": ["itunes20261031/", "itunes20261102/", "itunes20261103/", "pricing20261102/"],
            "incremental/current/itunes20261031/": feedFolder,
            "incremental/current/itunes20261102/": ["application.tbz=10", "application.tbz.md5", "notes.html", "extra/"],
            "incremental/current/itunes20261103/": ["application.tbz=11", "application.tbz.md5", "genre.tbz.part"],
            "incremental/current/pricing20261102/": ["application_price.tbz=7", "application_price.tbz.md5"],
        ])
    }

    @Test func newestFullThenTheDaysAfterIt() throws {
        let listings = Self.v5
        let plan = try RemotePlanner.plan(listings, feeds: nil, filter: TableFilter())
        #expect(
            plan.files.map(\.path) == [
                "itunes20261101/application.tbz", "itunes20261101/genre.tbz", "itunes20261101/storefront.tbz",
                "popularity20261101/application_popularity_per_genre.tbz", "pricing20261101/application_price.tbz",
                "incremental/current/itunes20261102/application.tbz", "incremental/current/pricing20261102/application_price.tbz",
                "incremental/current/itunes20261103/application.tbz",
            ])
        let first = plan.files[0]
        #expect(
            first
                == RemoteFile(
                    path: "itunes20261101/application.tbz", size: 100, md5Path: "itunes20261101/application.tbz.md5",
                    feed: FeedName("itunes20261101")!, isFull: true, table: "application"))
        #expect(plan.files[2].md5Path == nil)  // storefront.tbz has no .md5 listed
        #expect(plan.files[5].isFull == false)
        #expect(plan.files[5].localPath(in: "dl") == "dl/incremental/current/itunes20261102/application.tbz")
        #expect(plan.listedBytes == 100 + 20 + 30 + 70 + 10 + 7 + 11)
        // The superseded day was not even listed.
        #expect(!listings.log.listed.contains("incremental/current/itunes20261031/"))
        #expect(
            plan.notes.contains(
                "incremental/current/itunes20261031/: superseded by the FULL export of 2026-11-01 (itunes20261101/): not fetched"))
        #expect(plan.notes.contains("incremental/current/itunes20261102/notes.html: not a table file or archive: ignored"))
        #expect(plan.notes.contains("incremental/current/itunes20261102/extra/: inside a feed folder: ignored"))
        #expect(plan.notes.contains("incremental/current/itunes20261103/genre.tbz.part: a partial download: ignored"))
    }

    @Test func feedsAndTablesFilter() throws {
        let listings = Self.v5
        let plan = try RemotePlanner.plan(
            listings, feeds: ["itunes", "music"],
            filter: try TableFilter(include: ["application.*", "genre"], exclude: ["application_price"]))
        #expect(
            plan.files.map(\.path) == [
                "itunes20261101/application.tbz", "itunes20261101/genre.tbz", "incremental/current/itunes20261102/application.tbz",
                "incremental/current/itunes20261103/application.tbz",
            ])
        #expect(plan.notes.contains("no music feed is listed"))
        #expect(!listings.log.listed.contains("pricing20261101/"))
    }

    /// Older layouts: whole-feed archives beside their .md5; a feed both
    /// as a folder and as an archive is fetched as the folder, as `epf
    /// import` would read it.
    @Test func wholeFeedArchives() throws {
        let listings = FakeListings(folders: [
            "": ["itunes20261101.tbz=5000", "itunes20261101.tbz.md5=60", "pricing20261101.tbz", "pricing20261101/", "incremental/"],
            "pricing20261101/": ["application_price.tbz", "application_price.tbz.md5"],
            "incremental/": ["itunes20261102.tbz=300", "itunes20261102.tbz.md5", "itunes20261031.tbz"],
        ])
        let plan = try RemotePlanner.plan(listings, feeds: nil, filter: try TableFilter(exclude: ["genre"]))
        #expect(
            plan.files == [
                RemoteFile(
                    path: "itunes20261101.tbz", size: 5000, md5Path: "itunes20261101.tbz.md5", feed: FeedName("itunes20261101")!,
                    isFull: true, table: nil),
                RemoteFile(
                    path: "pricing20261101/application_price.tbz", size: nil, md5Path: "pricing20261101/application_price.tbz.md5",
                    feed: FeedName("pricing20261101")!, isFull: true, table: "application_price"),
                RemoteFile(
                    path: "incremental/itunes20261102.tbz", size: 300, md5Path: "incremental/itunes20261102.tbz.md5",
                    feed: FeedName("itunes20261102")!, isFull: false, table: nil),
            ])
        #expect(plan.notes.contains("pricing20261101.tbz: the same feed as pricing20261101/: ignored"))
        #expect(
            plan.notes.contains("itunes20261101.tbz: a whole-feed archive: fetched whole (--include/--exclude apply when it is imported)"))
        #expect(
            plan.notes.contains(
                "incremental/itunes20261031.tbz: superseded by the FULL export of 2026-11-01 (itunes20261101.tbz): not fetched"))
    }

    /// Without a FULL, every INCREMENTAL day is fetched (as `epf import`
    /// would consider them all), with a note; without incremental/, FULLs only.
    @Test func incrementalDaysWithoutAFull() throws {
        let listings = FakeListings(folders: [
            "": ["incremental/"],
            "incremental/": ["current/"],
            "incremental/current/": ["itunes20261102/", "itunes20261103/"],
            "incremental/current/itunes20261102/": ["application.tbz"],
            "incremental/current/itunes20261103/": ["application.tbz"],
        ])
        let plan = try RemotePlanner.plan(listings, feeds: nil, filter: TableFilter())
        #expect(
            plan.files.map(\.path) == [
                "incremental/current/itunes20261102/application.tbz", "incremental/current/itunes20261103/application.tbz",
            ])
        #expect(plan.notes.contains("no FULL export of itunes is listed: its INCREMENTAL days are fetched, but import needs a FULL first"))

        let fullOnly = FakeListings(folders: ["": ["itunes20261101/"], "itunes20261101/": ["genre.tbz"]])
        let planned = try RemotePlanner.plan(fullOnly, feeds: nil, filter: TableFilter())
        #expect(planned.files.map(\.path) == ["itunes20261101/genre.tbz"])
        #expect(planned.notes == ["the server lists no incremental/ folder: FULL exports only"])
    }

    /// A listing that cannot be read fails the plan with the server's answer.
    @Test func aMissingListingFailsThePlan() {
        let listings = FakeListings(folders: ["": ["itunes20261101/"]])
        #expect(throws: FetchError.self) { try RemotePlanner.plan(listings, feeds: nil, filter: TableFilter()) }
    }
}
