/// One row of an INCREMENTAL file, as the next day's file can know it
/// again without loading it: a 64-bit hash of its key fields and a 64-bit
/// hash of its bytes after the first field (`export_date`, which changes
/// every day while the row does not). The importer computes them (XXH64,
/// `RowSieve` in EPFImport); the store only keeps them.
package struct RowDigest: Sendable, Hashable, Comparable {
    /// The hash of the row's key fields.
    package var key: UInt64
    /// The hash of the row's bytes after `export_date` (the key fields
    /// among them).
    package var row: UInt64

    package init(key: UInt64, row: UInt64) {
        self.key = key
        self.row = row
    }

    package static func < (left: RowDigest, right: RowDigest) -> Bool {
        left.key != right.key ? left.key < right.key : left.row < right.row
    }
}

/// The digests of every row of the INCREMENTAL file last applied to a
/// table, sorted by key: a row of the next day's file whose digest is here
/// is, byte for byte but for `export_date`, the row the catalog holds for
/// its key, so it need not be loaded (docs/changes.md, "Rows the previous
/// day already held").
///
/// Kept only for a file whose keys do not repeat (`init(unsorted:)` gives
/// nil otherwise): with a repeated key only the last row is in the
/// catalog, and the earlier one would be known wrongly.
///
/// Public only because `CatalogStore` names it; made and read inside this
/// package.
public struct RowDigestSet: Sendable {
    /// Sorted by key, no key twice.
    let digests: [RowDigest]
    /// For each value of a key's top `bucketBits` bits, where its digests
    /// start in `digests` (one more entry: the end).
    let buckets: [Int32]
    let shift: UInt64

    /// The set of `unsorted`, or nil when two of them share a key.
    ///
    /// Sorted by the buckets first (a counting sort on the key's top bits:
    /// two passes, whatever the count), then within each bucket of about
    /// four, which costs a fraction of a comparison sort of millions.
    package init?(unsorted: [RowDigest]) {
        let bits = Self.bucketBits(for: unsorted.count)
        let shift = UInt64(64 - bits)
        var buckets = [Int32](repeating: 0, count: (1 << bits) + 1)
        for digest in unsorted { buckets[Int(digest.key >> shift) + 1] += 1 }
        for bucket in 1..<buckets.count { buckets[bucket] += buckets[bucket - 1] }
        var next = buckets
        var ordered = [RowDigest](unsafeUninitializedCapacity: unsorted.count) { storage, count in
            for digest in unsorted {
                let bucket = Int(digest.key >> shift)
                (storage.baseAddress! + Int(next[bucket])).initialize(to: digest)
                next[bucket] += 1
            }
            count = unsorted.count
        }
        let fine = ordered.withUnsafeMutableBufferPointer { digests in
            for bucket in 0..<(1 << bits) {
                let start = Int(buckets[bucket])
                let end = Int(buckets[bucket + 1])
                guard end - start > 1 else { continue }
                // Insertion sort: a handful of digests.
                for index in (start + 1)..<end {
                    let digest = digests[index]
                    var place = index
                    while place > start, digest < digests[place - 1] {
                        digests[place] = digests[place - 1]
                        place -= 1
                    }
                    digests[place] = digest
                }
                for index in (start + 1)..<end where digests[index].key == digests[index - 1].key { return false }
            }
            return true
        }
        guard fine else { return nil }
        self.init(sorted: ordered, buckets: buckets, shift: shift)
    }

    /// `sorted` must be in order with no key twice (as stored).
    init(sorted: [RowDigest]) {
        let bits = Self.bucketBits(for: sorted.count)
        let shift = UInt64(64 - bits)
        var buckets = [Int32](repeating: 0, count: (1 << bits) + 1)
        var position = 0
        for bucket in 0..<(1 << bits) {
            buckets[bucket] = Int32(position)
            while position < sorted.count, Int(sorted[position].key >> shift) == bucket { position += 1 }
        }
        buckets[1 << bits] = Int32(sorted.count)
        self.init(sorted: sorted, buckets: buckets, shift: shift)
    }

    private init(sorted: [RowDigest], buckets: [Int32], shift: UInt64) {
        digests = sorted
        self.buckets = buckets
        self.shift = shift
    }

    /// About four digests a bucket: one look in the table, then a few
    /// neighbours on the same cache lines.
    static func bucketBits(for count: Int) -> Int {
        var bits = 4
        while bits < 26, (1 << (bits + 2)) < count { bits += 1 }
        return bits
    }

    /// Rows in the set.
    package var count: Int { digests.count }

    /// Whether the set holds `digest`: its key with the same row.
    package func contains(_ digest: RowDigest) -> Bool {
        let bucket = Int(truncatingIfNeeded: digest.key >> shift)
        return buckets.withUnsafeBufferPointer { buckets in
            digests.withUnsafeBufferPointer { digests in
                var index = Int(buckets[bucket])
                let end = Int(buckets[bucket + 1])
                while index < end {
                    let candidate = digests[index]
                    if candidate.key == digest.key { return candidate.row == digest.row }
                    if candidate.key > digest.key { return false }
                    index += 1
                }
                return false
            }
        }
    }

    /// The stored form: 16 bytes a row, little-endian, in order.
    package var bytes: [UInt8] { StoredPairs.bytes(digests.map { ($0.key, $0.row) }) }

    /// The set stored as `bytes`; nil when they are not a stored set (a
    /// length not a multiple of 16, or out of order).
    package init?(bytes: UnsafeRawBufferPointer) {
        guard let pairs = StoredPairs.pairs(bytes) else { return nil }
        let digests = pairs.map { RowDigest(key: $0.0, row: $0.1) }
        self.init(sorted: digests)
    }
}

/// What a table keeps of its last INCREMENTAL file for the next one.
///
/// Public only because `CatalogStore` names it.
public enum KeptRowDigests: Sendable {
    /// The digests of the file's rows.
    case rows(RowDigestSet)
    /// The file repeated too few of the day before's rows to be worth
    /// matching (a chart, whose ranks change every day): nothing is
    /// matched, hashed or kept for the table's INCREMENTAL files until its
    /// next FULL file.
    case churning
}

/// The stored form of the digests: pairs of 64-bit words, 16 bytes each,
/// little-endian, in ascending order of the first word (read as the kind
/// of number it is: unsigned for row digests, signed for applications).
package enum StoredPairs {
    /// `pairs` as stored.
    package static func bytes(_ pairs: [(UInt64, UInt64)]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: pairs.count * 16)
        bytes.withUnsafeMutableBytes { raw in
            for (index, pair) in pairs.enumerated() {
                raw.storeBytes(of: pair.0.littleEndian, toByteOffset: index * 16, as: UInt64.self)
                raw.storeBytes(of: pair.1.littleEndian, toByteOffset: index * 16 + 8, as: UInt64.self)
            }
        }
        return bytes
    }

    /// The pairs stored as `bytes`; nil for a length not a multiple of 16
    /// or first words not ascending (compared with `ascending`).
    package static func pairs(
        _ bytes: UnsafeRawBufferPointer, ascending: (UInt64, UInt64) -> Bool = { $0 < $1 }
    ) -> [(UInt64, UInt64)]? {
        guard bytes.count % 16 == 0 else { return nil }
        var pairs: [(UInt64, UInt64)] = []
        pairs.reserveCapacity(bytes.count / 16)
        for offset in stride(from: 0, to: bytes.count, by: 16) {
            let pair = (
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            )
            if let last = pairs.last, !ascending(last.0, pair.0) { return nil }
            pairs.append(pair)
        }
        return pairs
    }
}
