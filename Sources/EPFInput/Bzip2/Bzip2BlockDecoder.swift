/// Decodes one bzip2 block, in Swift, from its bits in a mapped file to
/// its bytes: the block header, the symbol map, the selectors and Huffman
/// tables, then the Huffman symbols with move-to-front and zero-run
/// decoding into the Burrows-Wheeler transform's last column
/// (`decodeSymbols`, here); the inverse transform (`Bzip2InverseBWT.swift`);
/// and the initial run-length step undone with the CRC checked
/// (`Bzip2RunLengthDecoder.swift`).
///
/// One decoder per worker thread at a time (`Bzip2DecoderPool`); its
/// buffers (about 6 MB touched for level-9 blocks) are allocated on first
/// use and reused for every later block. Every value read from the data is checked
/// before it indexes anything: corrupt data throws `Bzip2BlockFailure`,
/// never reads or writes out of bounds.
final class Bzip2BlockDecoder {
    /// bzip2's limit on selectors kept (more may be written; libbz2 reads
    /// and drops them, and so do we).
    static let maxSelectors = 18_002
    /// Symbols per selector.
    static let groupSize = 50

    /// Block symbols the buffers below hold (100,000 x level).
    private(set) var blockCapacity = 0
    /// The transform's last column as decoded, then (after the inverse
    /// transform) the block's bytes before the run-length step.
    /// `blockCapacity + 16` bytes: the run-length step loads 8 bytes at a
    /// time up to 8 past its last.
    var bwtBytes: UnsafeMutablePointer<UInt8>
    /// The inverse transform's vector (`blockCapacity` entries).
    var vector: UnsafeMutablePointer<UInt32>
    /// The inverse transform's segments: their bytes (`lanes` regions of
    /// `blockCapacity` bytes; only about `blockCapacity` in all are ever
    /// touched), and per seed (`blockCapacity / seedStride + 2`) where its
    /// segment starts, its length and the seed after it.
    var segmentBytes: UnsafeMutablePointer<UInt8>
    var segmentStarts: UnsafeMutablePointer<Int>
    var segmentLengths: UnsafeMutablePointer<Int>
    var segmentSuccessors: UnsafeMutablePointer<Int>
    /// How often each byte value occurs in `bwtBytes` (256 entries).
    let byteCounts: UnsafeMutablePointer<Int>

    /// The block's bytes copied from the file, then `Bzip2BitReader.padding`
    /// bytes of zeros.
    private var input: UnsafeMutablePointer<UInt8>
    private var inputCapacity: Int
    /// The table each group of 50 symbols uses (`maxSelectors`).
    private let selectors: UnsafeMutablePointer<UInt8>
    /// Code lengths, `table * 258 + symbol`.
    private let codeLengths: UnsafeMutablePointer<UInt8>
    let tables = Bzip2HuffmanTables()
    /// The move-to-front list: 256 bytes and 8 of slack, 8-byte aligned
    /// (`moveToFront` rewrites 8 bytes at a time).
    private let moveToFrontList: UnsafeMutablePointer<UInt8>
    /// The byte value of each symbol in use, in order.
    private let symbolBytes: UnsafeMutablePointer<UInt8>

    init() {
        bwtBytes = .allocate(capacity: 16)
        vector = .allocate(capacity: 1)
        segmentBytes = .allocate(capacity: 1)
        segmentStarts = .allocate(capacity: 1)
        segmentLengths = .allocate(capacity: 1)
        segmentSuccessors = .allocate(capacity: 1)
        byteCounts = .allocate(capacity: 256)
        inputCapacity = 64 << 10
        input = .allocate(capacity: inputCapacity)
        selectors = .allocate(capacity: Self.maxSelectors)
        codeLengths = .allocate(capacity: Bzip2HuffmanTables.maxTables * Bzip2HuffmanTables.maxSymbols)
        let list = UnsafeMutableRawPointer.allocate(byteCount: 256 + 8, alignment: 8)
        moveToFrontList = list.initializeMemory(as: UInt8.self, repeating: 0, count: 256 + 8)
        symbolBytes = .allocate(capacity: 256)
    }

    deinit {
        deallocateBlockBuffers()
        byteCounts.deallocate()
        input.deallocate()
        selectors.deallocate()
        codeLengths.deallocate()
        moveToFrontList.deallocate()
        symbolBytes.deallocate()
    }

    /// Decodes the block in bits `startBit..<endBit` of `file` (its magic
    /// first) of a stream at `level` (1-9) into `output`, and checks its
    /// CRC. Throws `.runsPastEnd` when it needs bits past `endBit`, and
    /// `.corrupt` naming the problem otherwise.
    func decode(
        _ file: UnsafeRawBufferPointer, startBit: Int, endBit: Int, level: Int, into output: inout Bzip2Output
    ) throws(Bzip2BlockFailure) {
        precondition((1...9).contains(level) && 0 <= startBit && startBit <= endBit && endBit <= file.count * 8)
        output.count = 0
        reserve(blockSize: level * 100_000)
        var reader = load(file, startBit: startBit, endBit: endBit)

        guard try reader.read(24) == 0x314159, try reader.read(24) == 0x265359 else {
            throw .corrupt("a block does not start with the block magic")
        }
        let storedCRC = try reader.read(32)
        let randomised = try reader.read(1) == 1
        let origin = Int(try reader.read(24))
        let symbolsInUse = try readSymbolMap(&reader)
        let (tableCount, selectorCount) = try readSelectors(&reader)
        try readTables(&reader, tableCount: tableCount, symbolCount: symbolsInUse + 2)

        let count = try decodeSymbols(&reader, selectorCount: selectorCount, symbolsInUse: symbolsInUse, limit: level * 100_000)
        guard reader.position <= reader.end else { throw .runsPastEnd }
        guard reader.position == reader.end else {
            throw .corrupt("a block ends \(reader.end - reader.position) bits before the next marker")
        }
        guard origin < count else {
            throw .corrupt("a block's origin pointer (\(origin)) is past its \(count) bytes")
        }
        invertTransform(count: count, origin: origin)
        if randomised { Self.derandomise(bwtBytes, count: count) }
        let crc = Self.undoRuns(bwtBytes, count: count, into: &output)
        guard crc == storedCRC else { throw .corrupt("a block's CRC does not match its bytes") }
    }

    // MARK: Buffers

    /// Frees the buffers sized to a block (`reserve(blockSize:)` makes them).
    private func deallocateBlockBuffers() {
        bwtBytes.deallocate()
        vector.deallocate()
        segmentBytes.deallocate()
        segmentStarts.deallocate()
        segmentLengths.deallocate()
        segmentSuccessors.deallocate()
    }

    /// Makes the block buffers hold `blockSize` symbols.
    private func reserve(blockSize: Int) {
        guard blockSize > blockCapacity else { return }
        deallocateBlockBuffers()
        bwtBytes = .allocate(capacity: blockSize + 16)
        bwtBytes.initialize(repeating: 0, count: blockSize + 16)
        vector = .allocate(capacity: blockSize)
        segmentBytes = .allocate(capacity: Self.lanes * blockSize)
        let seeds = blockSize / Self.seedStride + 2
        segmentStarts = .allocate(capacity: seeds)
        segmentLengths = .allocate(capacity: seeds)
        segmentSuccessors = .allocate(capacity: seeds)
        blockCapacity = blockSize
    }

    /// Copies the block's bytes into `input`, zero-padded, and returns a
    /// reader at its first bit.
    private func load(_ file: UnsafeRawBufferPointer, startBit: Int, endBit: Int) -> Bzip2BitReader {
        let first = startBit / 8
        let last = (endBit + 7) / 8
        let count = last - first
        if count + Bzip2BitReader.padding > inputCapacity {
            input.deallocate()
            inputCapacity = max(count + Bzip2BitReader.padding, inputCapacity * 2)
            input = .allocate(capacity: inputCapacity)
        }
        if count > 0 {
            input.initialize(from: file.baseAddress!.assumingMemoryBound(to: UInt8.self) + first, count: count)
        }
        (input + count).initialize(repeating: 0, count: Bzip2BitReader.padding)
        return Bzip2BitReader(base: input, position: startBit - first * 8, end: endBit - first * 8)
    }

    // MARK: The block header

    /// Reads which byte values the block uses into `symbolBytes` and the
    /// move-to-front list; returns how many.
    private func readSymbolMap(_ reader: inout Bzip2BitReader) throws(Bzip2BlockFailure) -> Int {
        let ranges = try reader.read(16)
        var count = 0
        for range in 0..<16 where ranges & (0x8000 >> UInt32(range)) != 0 {
            let bits = try reader.read(16)
            for low in 0..<16 where bits & (0x8000 >> UInt32(low)) != 0 {
                symbolBytes[count] = UInt8(range * 16 + low)
                count += 1
            }
        }
        guard count > 0 else { throw .corrupt("a block uses no byte values") }
        for index in 0..<count { moveToFrontList[index] = symbolBytes[index] }
        return count
    }

    /// Reads the table count and the selectors (move-to-front coded, unary)
    /// into `selectors`; returns the table count and how many selectors
    /// were kept.
    private func readSelectors(_ reader: inout Bzip2BitReader) throws(Bzip2BlockFailure) -> (tables: Int, selectors: Int) {
        let tableCount = Int(try reader.read(3))
        guard (2...Bzip2HuffmanTables.maxTables).contains(tableCount) else {
            throw .corrupt("a block has \(tableCount) Huffman tables (2-6 allowed)")
        }
        let selectorCount = Int(try reader.read(15))
        guard selectorCount > 0 else { throw .corrupt("a block has no selectors") }
        var order: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 1, 2, 3, 4, 5)
        return try withUnsafeMutableBytes(of: &order) { order throws(Bzip2BlockFailure) in
            for index in 0..<selectorCount {
                // The unary number: ones up to a zero, fewer than tableCount.
                let ones = (~reader.peek(8) << 24).leadingZeroBitCount
                guard ones < tableCount else {
                    throw reader.position + tableCount > reader.end
                        ? .runsPastEnd : .corrupt("a selector names a Huffman table the block does not have")
                }
                try reader.skip(ones + 1)
                guard index < Self.maxSelectors else { continue }
                let table = order[ones]
                var k = ones
                while k > 0 {
                    order[k] = order[k - 1]
                    k -= 1
                }
                order[0] = table
                selectors[index] = table
            }
            return (tableCount, min(selectorCount, Self.maxSelectors))
        }
    }

    /// Reads each table's code lengths (delta coded) and builds the tables.
    private func readTables(_ reader: inout Bzip2BitReader, tableCount: Int, symbolCount: Int) throws(Bzip2BlockFailure) {
        for table in 0..<tableCount {
            let lengths = codeLengths + table * Bzip2HuffmanTables.maxSymbols
            var length = Int(try reader.read(5))
            for symbol in 0..<symbolCount {
                while true {
                    guard (1...Bzip2HuffmanTables.maxLength).contains(length) else {
                        throw .corrupt("a Huffman code length is out of range (\(length))")
                    }
                    if try reader.read(1) == 0 { break }
                    length += try reader.read(1) == 0 ? 1 : -1
                }
                lengths[symbol] = UInt8(length)
            }
            tables.build(table, lengths: lengths, symbolCount: symbolCount)
        }
    }

    // MARK: The symbols

    /// Decodes the Huffman symbols up to the end-of-block symbol, undoing
    /// the move-to-front and zero-run coding, into `bwtBytes` (at most
    /// `limit` bytes) and `byteCounts`; returns how many bytes.
    private func decodeSymbols(
        _ reader: inout Bzip2BitReader, selectorCount: Int, symbolsInUse: Int, limit: Int
    ) throws(Bzip2BlockFailure) -> Int {
        let base = reader.base
        let end = reader.end
        let output = bwtBytes
        let list = moveToFrontList
        let counts = byteCounts
        counts.initialize(repeating: 0, count: 256)
        let endOfBlock = UInt32(symbolsInUse + 1)
        let primaryShift = UInt64(64 - Bzip2HuffmanTables.primaryBits)
        let longShift = UInt64(64 - Bzip2HuffmanTables.maxLength)

        // The next bits, from the top: `bitCount` of them (at least 20 at
        // each symbol) are the stream's from bit `loaded - bitCount`; below
        // them are the stream's next bits or zeros, so ORing in the same
        // bits again changes nothing.
        var bits: UInt64 = 0
        var bitCount = 0
        var loaded = reader.position

        /// A corrupt block, unless the bits that showed it lie past the
        /// block's end (then it is a piece cut short: `.runsPastEnd`).
        func failure(_ what: String, at position: Int) -> Bzip2BlockFailure {
            position + Bzip2HuffmanTables.maxLength > end ? .runsPastEnd : .corrupt(what)
        }

        var count = 0
        var run = 0
        var runWeight = 1
        var group = 0
        var left = 0
        var table = 0
        var lookup = UnsafePointer(tables.primary)
        while true {
            if left == 0 {
                // At most 50 symbols of up to 20 bits since the last check,
                // and 56 bits loaded ahead: the reader's padding covers that.
                guard loaded - bitCount <= end else { throw .runsPastEnd }
                guard group < selectorCount else {
                    throw failure("a block has more symbols than its selectors cover", at: loaded - bitCount)
                }
                table = Int(selectors[group])
                group += 1
                left = Self.groupSize
                guard tables.isValid(table) else {
                    throw failure("a block uses a Huffman table whose code lengths are impossible", at: loaded - bitCount)
                }
                lookup = UnsafePointer(tables.primary + table * Bzip2HuffmanTables.primarySize)
            }
            left &-= 1
            if bitCount < Bzip2HuffmanTables.maxLength {
                let word = UInt64(bigEndian: UnsafeRawPointer(base + (loaded &>> 3)).loadUnaligned(as: UInt64.self))
                bits |= (word &<< UInt64(loaded & 7)) &>> UInt64(bitCount)
                loaded &+= 56 &- bitCount
                bitCount = 56
            }
            var entry = UInt32(lookup[Int(bits &>> primaryShift)])
            if entry == 0 {
                guard let long = tables.decodeLong(table, bits: UInt32(truncatingIfNeeded: bits &>> longShift)) else {
                    throw failure("a Huffman code that the block's table does not have", at: loaded - bitCount)
                }
                entry = long
            }
            let length = Int(entry & 31)
            bits &<<= UInt64(length)
            bitCount &-= length
            let symbol = entry &>> 5
            if symbol < 2 {
                // RUNA adds the weight, RUNB twice the weight.
                run &+= runWeight &<< Int(symbol)
                runWeight &<<= 1
                guard runWeight <= 1 << 21 else { throw failure("a run of zeros is too long", at: loaded - bitCount) }
                continue
            }
            if run > 0 {
                guard run <= limit - count else {
                    throw failure("a block holds more bytes than its size allows", at: loaded - bitCount)
                }
                let byte = list[0]
                (output + count).update(repeating: byte, count: run)
                counts[Int(byte)] &+= run
                count &+= run
                run = 0
                runWeight = 1
            }
            if symbol == endOfBlock { break }
            guard count < limit else {
                throw failure("a block holds more bytes than its size allows", at: loaded - bitCount)
            }
            // symbol < endOfBlock (the tables hold no larger symbols), so
            // the index is at most symbolsInUse - 1 <= 255.
            let byte = Self.moveToFront(list, index: Int(symbol &- 1))
            output[count] = byte
            counts[Int(byte)] &+= 1
            count &+= 1
        }
        reader.position = loaded - bitCount
        return count
    }

    /// Moves `list[index]` (index <= 255) to the front and returns it.
    /// Works on aligned 8-byte words (so each load is served by the store
    /// of the symbol before): reads and writes words 0...index / 8.
    @inline(__always)
    static func moveToFront(_ list: UnsafeMutablePointer<UInt8>, index: Int) -> UInt8 {
        let raw = UnsafeMutableRawPointer(list)
        let byte = list[index]
        func word(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.load(fromByteOffset: at &* 8, as: UInt64.self)) }
        func store(_ value: UInt64, _ at: Int) { raw.storeBytes(of: value.littleEndian, toByteOffset: at &* 8, as: UInt64.self) }
        var at = index &>> 3
        // In the top word only bytes 0...index % 8 move.
        let mask: UInt64 = ~0 &>> UInt64(56 &- 8 &* (index & 7))
        var current = word(at)
        var lower: UInt64 = at > 0 ? word(at &- 1) : 0
        var incoming = at > 0 ? lower &>> 56 : UInt64(byte)
        store((current &<< 8 | incoming) & mask | current & ~mask, at)
        while at > 0 {
            at &-= 1
            current = lower
            lower = at > 0 ? word(at &- 1) : 0
            incoming = at > 0 ? lower &>> 56 : UInt64(byte)
            store(current &<< 8 | incoming, at)
        }
        return byte
    }
}
