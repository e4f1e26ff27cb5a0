import EPFCatalog
import Testing

/// The set a table keeps of its last INCREMENTAL file's rows: found again
/// by key and row, never by a key alone, stored and read back as it was.
@Suite("Row digests")
struct RowDigestSetTests {
    /// Digests spread like XXH64's (a fixed generator, so a failure repeats).
    static func digests(_ count: Int, seed: UInt64 = 7) -> [RowDigest] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var mixed = state
            mixed = (mixed ^ (mixed >> 33)) &* 0xff51_afd7_ed55_8ccd
            return mixed ^ (mixed >> 33)
        }
        return (0..<count).map { _ in RowDigest(key: next(), row: next()) }
    }

    @Test(arguments: [0, 1, 5, 100, 70_000]) func findsEveryRowItHoldsAndNoOther(count: Int) throws {
        let rows = Self.digests(count)
        let set = try #require(RowDigestSet(unsorted: rows))
        #expect(set.count == count)
        #expect(rows.allSatisfy(set.contains))
        // The same key with another row is a changed row, not a known one.
        #expect(!rows.contains { set.contains(RowDigest(key: $0.key, row: $0.row &+ 1)) })
        #expect(!Self.digests(1000, seed: 99).contains(where: set.contains))
    }

    @Test func aRepeatedKeyKeepsNoSet() {
        var rows = Self.digests(50)
        rows.append(RowDigest(key: rows[10].key, row: 1))
        #expect(RowDigestSet(unsorted: rows) == nil)
    }

    @Test func itsStoredFormReadsBackTheSame() throws {
        let rows = Self.digests(5000)
        let set = try #require(RowDigestSet(unsorted: rows))
        let bytes = set.bytes
        #expect(bytes.count == 5000 * 16)
        let read = try #require(bytes.withUnsafeBytes { RowDigestSet(bytes: $0) })
        #expect(read.count == 5000)
        #expect(rows.allSatisfy(read.contains))
        // Bytes that are no stored set: a cut row, rows out of order.
        #expect(Array(bytes.dropLast()).withUnsafeBytes { RowDigestSet(bytes: $0) } == nil)
        let swapped = Array(bytes[16..<32] + bytes[0..<16] + bytes[32...])
        #expect(swapped.withUnsafeBytes { RowDigestSet(bytes: $0) } == nil)
    }

    /// Applications differ when their digests do or when one side lacks
    /// them; the stored form reads back the same.
    @Test func applicationDigestsTellWhichApplicationsDiffer() throws {
        let before = ApplicationDigests(sorted: [1, 2, 3, 5].map { ApplicationDigest(application: $0, rows: UInt64($0) * 10) })
        let after = ApplicationDigests(
            sorted: [(1, 10), (2, 21), (4, 40), (5, 50), (6, 60)].map { ApplicationDigest(application: $0.0, rows: UInt64($0.1)) })
        #expect(after.applicationsDiffering(from: before) == [2, 3, 4, 6])
        #expect(before.applicationsDiffering(from: after) == [2, 3, 4, 6])
        #expect(after.applicationsDiffering(from: after).isEmpty)
        let read = try #require(after.bytes.withUnsafeBytes { ApplicationDigests(bytes: $0) })
        #expect(read == after)
        #expect([UInt8](repeating: 0, count: 32).withUnsafeBytes { ApplicationDigests(bytes: $0) } == nil)
    }
}
