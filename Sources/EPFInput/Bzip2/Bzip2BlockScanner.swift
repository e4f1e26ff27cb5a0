/// Finds bzip2's 48-bit markers (a block's start, a stream's end) in
/// compressed bytes at any bit offset, so blocks can be cut apart and
/// decompressed independently.
///
/// bzip2 writes its blocks as a bit stream: only a stream's header
/// (`BZh1`-`BZh9`) is byte-aligned; a block begins with the magic
/// `0x314159265359` and the stream's end with `0x177245385090`, each at
/// whatever bit the previous block ended on.
///
/// The search does not test every bit. A magic at bit `8 * i + s` (`s` in
/// 0...7) fixes bytes `i + 1 ... i + 5` completely, whatever `s`; so any
/// magic covers one of the byte pairs `(j, j + 1)` with `j` a multiple of 4
/// (offset by the start) as one of 64 known 16-bit values (2 magics x 8
/// shifts x 4 places). The scan looks every 4th byte pair up in an 8 kB
/// bitset of those values and checks the rare hit (~1 in 1000) exactly.
package struct Bzip2BlockScanner {
    /// What a marker starts.
    package enum Kind: Sendable, Equatable {
        /// A compressed block (magic `0x314159265359`, then the block's CRC).
        case block
        /// The end of a stream (magic `0x177245385090`, then the stream's CRC).
        case endOfStream
    }

    /// A marker: its first bit, counted from the first byte's most
    /// significant bit (bit `8 * n` is the top bit of byte `n`).
    package struct Marker: Sendable, Equatable {
        /// The marker's first bit.
        package var bitOffset: Int
        /// Whether a block starts or a stream ends here.
        package var kind: Kind

        /// A marker of `kind` at `bitOffset`.
        package init(bitOffset: Int, kind: Kind) {
            self.bitOffset = bitOffset
            self.kind = kind
        }
    }

    /// The 48 bits that start a block.
    package static let blockMagic: UInt64 = 0x3141_5926_5359
    /// The 48 bits that end a stream.
    package static let endOfStreamMagic: UInt64 = 0x1772_4538_5090

    /// The bytes searched; the caller keeps them alive and unchanged.
    package let bytes: UnsafeRawBufferPointer
    /// `bytes.count * 8`.
    package var bitCount: Int { bytes.count * 8 }

    /// A scanner over `bytes` (a mapped file, say), which must outlive it.
    package init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The first marker that starts at or after bit `fromBit` and fits
    /// (all 48 bits) in the bytes; nil when there is none.
    package func nextMarker(from fromBit: Int) -> Marker? {
        let count = bytes.count
        guard count >= 6, let base = bytes.baseAddress else { return nil }
        let totalBits = count * 8
        // A magic at byte i >= first has its pair at a checked j in i+1...i+4.
        var j = max(0, fromBit) / 8 + 1
        return Self.pairFilter.withUnsafeBufferPointer { filter -> Marker? in
            let filter = filter.baseAddress!
            while j + 1 < count {
                let pair = Int(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: j, as: UInt16.self)))
                if filter[pair >> 3] & (1 << UInt8(pair & 7)) != 0,
                    let marker = check(from: max(0, j - 4), through: j - 1, fromBit: fromBit, totalBits: totalBits)
                {
                    return marker
                }
                j += 4
            }
            return nil
        }
    }

    /// The first magic starting in bytes `first...last` at or after bit
    /// `fromBit` that fits in `totalBits`.
    private func check(from first: Int, through last: Int, fromBit: Int, totalBits: Int) -> Marker? {
        guard first <= last else { return nil }
        for i in first...last {
            let word = load64(i)
            for shift in 0..<8 {
                let bit = i * 8 + shift
                guard bit >= fromBit, bit + 48 <= totalBits else { continue }
                let value = (word >> UInt64(16 - shift)) & 0xFFFF_FFFF_FFFF
                if value == Self.blockMagic { return Marker(bitOffset: bit, kind: .block) }
                if value == Self.endOfStreamMagic { return Marker(bitOffset: bit, kind: .endOfStream) }
            }
        }
        return nil
    }

    /// `count` (at most 56) bits starting at bit `bitOffset`, as an unsigned
    /// number; bits past the end read as zero.
    package func bits(at bitOffset: Int, count: Int) -> UInt64 {
        precondition(count > 0 && count <= 56 && bitOffset >= 0)
        let word = load64(bitOffset / 8) << UInt64(bitOffset % 8)
        return word >> UInt64(64 - count)
    }

    /// Eight bytes from `byteOffset`, big-endian, zeros past the end.
    @inline(__always)
    func load64(_ byteOffset: Int) -> UInt64 {
        if byteOffset + 8 <= bytes.count {
            return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: byteOffset, as: UInt64.self))
        }
        var word: UInt64 = 0
        for index in 0..<8 {
            let at = byteOffset + index
            word = word << 8 | (at < bytes.count ? UInt64(bytes[at]) : 0)
        }
        return word
    }

    /// A bit per 16-bit value: set for the byte pairs a magic fixes, at any
    /// shift, at places 1-2, 2-3, 3-4 and 4-5 of the 7 bytes it touches.
    static let pairFilter: [UInt8] = {
        var filter = [UInt8](repeating: 0, count: 65536 / 8)
        for magic in [blockMagic, endOfStreamMagic] {
            for shift in 0..<8 {
                // The magic at bit `shift` of a 7-byte window.
                let window = magic << UInt64(8 - shift)
                for place in 1...4 {
                    let pair = Int((window >> UInt64(8 * (5 - place))) & 0xFFFF)
                    filter[pair >> 3] |= 1 << UInt8(pair & 7)
                }
            }
        }
        return filter
    }()
}
