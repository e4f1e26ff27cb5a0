/// The up to 6 Huffman tables of a bzip2 block, built for decoding by table
/// lookup: a primary table indexed by the next `primaryBits` bits gives the
/// symbol and its length for every code that short (nearly all of them);
/// longer codes (up to 20 bits) fall back to a canonical search by length.
///
/// bzip2's codes are canonical: symbols get codes in order of length, then
/// of symbol number. A table whose lengths claim more codes than exist
/// (over-subscribed) cannot come from an encoder and is marked invalid; a
/// block that selects it is corrupt. A table with codes left over
/// (incomplete) decodes, and meeting an unassigned code is an error.
///
/// Owned by one `Bzip2BlockDecoder` (one thread at a time); reused block
/// after block.
final class Bzip2HuffmanTables {
    /// Bits looked up at once.
    static let primaryBits = 10
    static let primarySize = 1 << primaryBits
    /// bzip2's limits: 6 tables, 258 symbols, codes of 1-20 bits.
    static let maxTables = 6
    static let maxSymbols = 258
    static let maxLength = 20

    /// `primary[table * primarySize + bits]`: `symbol << 5 | length` for a
    /// code of at most `primaryBits`; 0 when the code is longer or unassigned.
    let primary: UnsafeMutablePointer<UInt16>
    /// Per table and length (`table * 21 + length`): the first canonical
    /// code of that length, how many codes have it, and where their symbols
    /// start in `sorted`.
    private let firstCode: UnsafeMutablePointer<UInt32>
    private let codeCount: UnsafeMutablePointer<UInt32>
    private let firstIndex: UnsafeMutablePointer<UInt16>
    /// Per table (`table * maxSymbols + k`): the symbols in canonical order.
    private let sorted: UnsafeMutablePointer<UInt16>
    /// Per table: its longest code, 0 when the table is invalid.
    private(set) var longest = [Int](repeating: 0, count: maxTables)

    init() {
        primary = .allocate(capacity: Self.maxTables * Self.primarySize)
        firstCode = .allocate(capacity: Self.maxTables * 21)
        codeCount = .allocate(capacity: Self.maxTables * 21)
        firstIndex = .allocate(capacity: Self.maxTables * 21)
        sorted = .allocate(capacity: Self.maxTables * Self.maxSymbols)
    }

    deinit {
        primary.deallocate()
        firstCode.deallocate()
        codeCount.deallocate()
        firstIndex.deallocate()
        sorted.deallocate()
    }

    /// Whether `table` was built from lengths that make a prefix code.
    func isValid(_ table: Int) -> Bool { longest[table] != 0 }

    /// Builds `table` from `lengths[0..<symbolCount]` (each 1-20, checked
    /// by the caller); marks it invalid when the lengths are over-subscribed.
    func build(_ table: Int, lengths: UnsafePointer<UInt8>, symbolCount: Int) {
        precondition(table < Self.maxTables && symbolCount <= Self.maxSymbols)
        let counts = codeCount + table * 21
        let firsts = firstCode + table * 21
        let starts = firstIndex + table * 21
        let symbols = sorted + table * Self.maxSymbols
        let lookup = primary + table * Self.primarySize
        counts.initialize(repeating: 0, count: 21)
        var maximum = 0
        for symbol in 0..<symbolCount {
            let length = Int(lengths[symbol])
            counts[length] += 1
            maximum = max(maximum, length)
        }
        // Kraft: at each length, the codes still free must cover the count.
        var free = 1
        for length in 1...Self.maxLength {
            free = free << 1 - Int(counts[length])
            if free < 0 {
                longest[table] = 0
                return
            }
        }
        var code: UInt32 = 0
        var index: UInt16 = 0
        for length in 1...Self.maxLength {
            firsts[length] = code
            starts[length] = index
            code = (code + counts[length]) << 1
            index += UInt16(counts[length])
        }
        // Symbols in canonical order (a counting sort by length).
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 21) { next in
            for length in 1...Self.maxLength { next[length] = starts[length] }
            for symbol in 0..<symbolCount {
                let length = Int(lengths[symbol])
                symbols[Int(next[length])] = UInt16(symbol)
                next[length] += 1
            }
        }
        lookup.initialize(repeating: 0, count: Self.primarySize)
        for length in 1...min(maximum, Self.primaryBits) {
            let span = 1 << (Self.primaryBits - length)
            for k in 0..<Int(counts[length]) {
                let symbol = symbols[Int(starts[length]) + k]
                let first = Int(firsts[length] + UInt32(k)) << (Self.primaryBits - length)
                // Kraft holds, so first + span <= primarySize.
                (lookup + first).initialize(repeating: symbol << 5 | UInt16(length), count: span)
            }
        }
        longest[table] = maximum
    }

    /// Decodes a code longer than `primaryBits` (or an unassigned one) from
    /// `bits`, the next 20 bits: `symbol << 5 | length`, or nil when no code
    /// of `table` starts so.
    func decodeLong(_ table: Int, bits: UInt32) -> UInt32? {
        let counts = codeCount + table * 21
        let firsts = firstCode + table * 21
        let starts = firstIndex + table * 21
        let maximum = longest[table]
        guard maximum > Self.primaryBits else { return nil }
        for length in (Self.primaryBits + 1)...maximum {
            let code = bits >> UInt32(Self.maxLength - length)
            let offset = code &- firsts[length]
            if offset < counts[length] {
                let symbol = UInt32(sorted[table * Self.maxSymbols + Int(starts[length]) + Int(offset)])
                return symbol << 5 | UInt32(length)
            }
        }
        return nil
    }
}
