#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The distinct values of a dictionary-encoded BYTE_ARRAY column chunk, in
/// order of first appearance, kept as the PLAIN bytes of the dictionary page
/// itself (4-byte length, bytes; one after another) and found again through
/// an open-addressing hash table of entry numbers: looking a value up
/// allocates nothing; only a new distinct value grows the buffers.
package struct ByteArrayDictionary: Sendable {
    /// The dictionary page's body.
    package private(set) var plain: [UInt8] = []
    /// Where entry i's bytes start in `plain` (after its length).
    private var starts: [Int] = []
    private var lengths: [Int] = []
    private var hashes: [UInt64] = []
    /// Entry numbers, -1 for an empty slot; the count is a power of two,
    /// at least twice the entries.
    private var slots: [Int32] = Array(repeating: -1, count: 64)

    package init() {}

    package var count: Int { starts.count }

    /// The number of `bytes` in the dictionary, added at the end when new.
    @inline(__always)
    package mutating func insert(_ bytes: UnsafeRawBufferPointer) -> (index: UInt32, inserted: Bool) {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { break }
            if hashes[entry] == hash && entryEquals(entry, bytes) { return (UInt32(entry), false) }
            slot = (slot + 1) & mask
        }
        let entry = starts.count
        slots[slot] = Int32(entry)
        PlainEncoder.appendByteArray(bytes, to: &plain)
        starts.append(plain.count - bytes.count)
        lengths.append(bytes.count)
        hashes.append(hash)
        if starts.count * 2 > slots.count { grow() }
        return (UInt32(entry), true)
    }

    /// Whether `values` values taking `plainBytes` PLAIN are smaller as this
    /// dictionary's page plus their entry numbers (bit-packed at the width
    /// the entries need): the rule parquet-mr applies to its first page.
    package func pays(values: Int, plainBytes: Int) -> Bool {
        let width = max(1, RLEBitPackedHybrid.bitWidth(forMaximum: UInt32(max(0, count - 1))))
        return plain.count + (values * width + 7) / 8 < plainBytes
    }

    /// Calls `body` with the bytes of entry `index`.
    package func withEntry<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try plain.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[starts[index]..<starts[index] + lengths[index]])) }
    }

    /// Empties the dictionary, keeping its buffers' capacity.
    package mutating func removeAll() {
        plain.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
        for index in slots.indices { slots[index] = -1 }
    }

    private func entryEquals(_ entry: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard lengths[entry] == bytes.count else { return false }
        return withEntry(entry) { stored in
            guard let a = stored.baseAddress, let b = bytes.baseAddress else { return true }
            return memcmp(a, b, bytes.count) == 0
        }
    }

    private mutating func grow() {
        let capacity = slots.count * 2
        slots = Array(repeating: -1, count: capacity)
        let mask = capacity - 1
        for entry in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[entry]) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }
    }

    /// Eight bytes at a time, each word folded in with a multiply and a
    /// shift, the last few bytes read as one word by overlapping loads (no
    /// byte loop, no copy), the length mixed in, then a final mix
    /// (MurmurHash3's fmix64), so that the low bits (the slot) depend on
    /// every byte. A byte-at-a-time FNV-1a took half of the decoder's time
    /// appending text. Hashes stay in memory: byte order does not matter.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        let multiplier: UInt64 = 0xff51_afd7_ed55_8ccd
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        if let base = bytes.baseAddress {
            var offset = 0
            while offset + 8 <= count {
                hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
                hash ^= hash >> 32
                offset += 8
            }
            let rest = count - offset
            if rest > 0 {
                let tail: UInt64
                if count >= 8 {
                    tail = base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                } else if count >= 4 {
                    tail =
                        UInt64(base.loadUnaligned(as: UInt32.self)) << 32
                        | UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                } else {
                    tail =
                        UInt64(base.load(as: UInt8.self)) << 16 | UInt64(base.load(fromByteOffset: count / 2, as: UInt8.self)) << 8
                        | UInt64(base.load(fromByteOffset: count - 1, as: UInt8.self))
                }
                hash = (hash ^ tail) &* multiplier
            }
        }
        hash ^= hash >> 33
        hash = hash &* multiplier
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}
