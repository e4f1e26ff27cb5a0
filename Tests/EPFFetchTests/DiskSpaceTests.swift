import EPFImport
import Testing

@testable import EPFFetch

/// Which disks a download and the catalog's growth do not fit on.
@Suite("disk space")
struct DiskSpaceTests {
    let download = DiskSpace.Need(what: "the files to download need", path: "dl", bytes: 100, counted: "their listed sizes")
    let catalog = DiskSpace.Need(what: "the catalog needs about", path: "c.sqlite", bytes: 600, counted: "6 x their listed sizes")

    func shortfalls(free: [String: Int64], devices: [String: UInt64]) -> [DiskSpace.Shortfall] {
        DiskSpace.shortfalls([download, catalog], free: { free[$0] }, device: { devices[$0] })
    }

    @Test func oneDiskAddsTheNeedsUp() {
        let same: [String: UInt64] = ["dl": 1, "c.sqlite": 1]
        #expect(shortfalls(free: ["dl": 700, "c.sqlite": 700], devices: same).isEmpty)
        let short = shortfalls(free: ["dl": 699, "c.sqlite": 5000], devices: same)
        #expect(short == [DiskSpace.Shortfall(needs: [download, catalog], free: 699)])
        #expect(
            short.first?.description
                == "not enough free space for dl and c.sqlite (one disk): the files to download need 100 bytes (their listed sizes), the catalog needs about 600 bytes (6 x their listed sizes), 700 bytes in all, 699 bytes are free"
        )
    }

    @Test func twoDisksAreEachChecked() {
        let apart: [String: UInt64] = ["dl": 1, "c.sqlite": 2]
        #expect(shortfalls(free: ["dl": 100, "c.sqlite": 600], devices: apart).isEmpty)
        let catalogShort = shortfalls(free: ["dl": 100, "c.sqlite": 599], devices: apart)
        #expect(catalogShort == [DiskSpace.Shortfall(needs: [catalog], free: 599)])
        #expect(
            catalogShort.first?.description
                == "not enough free space for c.sqlite: the catalog needs about 600 bytes (6 x their listed sizes), 599 bytes are free")
        #expect(shortfalls(free: ["dl": 99, "c.sqlite": 0], devices: apart).count == 2)
        // A disk that cannot be read is passed; nothing needed, nothing checked.
        #expect(shortfalls(free: ["c.sqlite": 600], devices: apart).isEmpty)
        #expect(
            DiskSpace.shortfalls([DiskSpace.Need(what: "x", path: "dl", bytes: 0, counted: "")], free: { _ in 0 }, device: { _ in 1 })
                .isEmpty)
    }

    /// The growth counts each file still to download whole, at the factor.
    @Test func theCatalogsGrowthIsTheFactorTimesTheListedSizes() {
        let feed = FeedName("itunes20261101")!
        let files = [1000, 234].map { size in
            RemoteFile(path: "itunes20261101/t\(size).tbz", size: Int64(size), md5Path: nil, feed: feed, isFull: true, table: "t\(size)")
        }
        let plan = RemotePlan(files: files, notes: [])
        #expect(DiskSpace.catalogGrowth(plan, folder: "/nonexistent-epf-folder", factor: 9) == 1234 * 9)
        #expect(DiskSpace.catalogGrowthFactor(catalogExists: false) == 9 && DiskSpace.catalogGrowthFactor(catalogExists: true) == 16)
    }
}
