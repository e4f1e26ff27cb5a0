/// The inverse Burrows-Wheeler transform of a decoded block, walked as
/// many independent chains at once.
///
/// Walking the transform is a chain of dependent loads from a vector of the
/// block's size (3.6 MB at level 9, far bigger than L2), so its speed is
/// the memory latency, not the instruction count: one chain, as libbz2
/// walks it, spends ~80% of the decoding there (~16 ns a byte here). Chains
/// that do not depend on each other keep several loads in flight.
///
/// So the walk starts at many rows ("seeds": every `seedStride`-th row,
/// and the block's own row `origin`), not just at `origin`. The vector
/// entry of a row holds the next row, the byte, and a flag that the next
/// row is a seed. `lanes` chains run side by side; each walks from a seed
/// until the next row is a seed, writing the bytes (a segment) to its own
/// scratch region, records which seed comes next, and takes another seed.
/// The segments partition the rows, so the walk visits each row once, as
/// one chain would. Then the segments are copied in text order: from
/// `origin`'s, following the links, until the block's length is reached.
///
/// A block whose bytes are periodic has rows with equal rotations; the
/// vector may then form several cycles: seeds on other cycles than
/// `origin`'s give segments nobody links to, and following the links from
/// `origin` repeats its cycle, which gives the right bytes. A corrupt block
/// gives wrong bytes (its CRC then fails), never an index out of range:
/// every entry is a row below `count`, every segment at least one byte.
extension Bzip2BlockDecoder {
    /// Rows between seeds (a power of two).
    static let seedStride = 1024
    /// Chains walked side by side.
    static let lanes = 16

    /// Turns `bwtBytes[0..<count]` (the transform's last column, with
    /// `byteCounts` its byte counts) into the block's bytes before the
    /// run-length step, in place. `origin < count`.
    func invertTransform(count: Int, origin: Int) {
        precondition(origin < count && count <= blockCapacity && count < 1 << 23)
        let column = bwtBytes
        let vector = self.vector
        // Where each byte's rows start: the sum of the counts of smaller
        // bytes. The counts add up to `count`, so every slot handed out
        // below is in 0..<count.
        let next = byteCounts
        var sum = 0
        for byte in 0..<256 {
            let occurrences = next[byte]
            next[byte] = sum
            sum += occurrences
        }
        precondition(sum == count)
        // Row i ends with byte c; j, i's place among the rows that start
        // with c, is the row before it in the text (T[j] = i): the entry of
        // row j is i << 9 | c << 1 | (i is a seed).
        let mask = Self.seedStride - 1
        for row in 0..<count {
            let byte = column[row]
            let target = next[Int(byte)]
            next[Int(byte)] = target &+ 1
            let seed: UInt32 = row & mask == 0 || row == origin ? 1 : 0
            vector[target] = UInt32(truncatingIfNeeded: row) &<< 9 | UInt32(byte) &<< 1 | seed
        }
        walk(count: count, origin: origin)
    }

    /// The seed number of a seed row: `row / seedStride`, or the one after
    /// the last for `origin` when it is not a multiple of the stride.
    @inline(__always)
    private static func seedNumber(_ row: Int, origin: Int, count: Int) -> Int {
        row & (seedStride - 1) == 0 ? row / seedStride : (count - 1) / seedStride + 1
    }

    /// Walks the segments (see the extension's comment) and writes the
    /// block's bytes to `bwtBytes[0..<count]`.
    private func walk(count: Int, origin: Int) {
        let vector = self.vector
        let scratch = segmentBytes
        let starts = segmentStarts
        let lengths = segmentLengths
        let successors = segmentSuccessors
        let lanes = Self.lanes
        // The seeds to walk from, in any order: origin's, then row 0,
        // stride, 2 x stride, ... (origin's number when it is one of them).
        let originSeed = Self.seedNumber(origin, origin: origin, count: count)
        var nextSeed = 0
        let regularSeeds = (count - 1) / Self.seedStride + 1
        func takeSeed() -> (number: Int, row: Int)? {
            if nextSeed == 0 {
                nextSeed = 1
                return (originSeed, origin)
            }
            while nextSeed <= regularSeeds {
                let number = nextSeed - 1
                nextSeed += 1
                if number != originSeed { return (number, number * Self.seedStride) }
            }
            return nil
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * lanes) { state in
            // Per lane: the row to load next, where its next byte goes, the
            // seed whose segment it is walking. Lane l writes to
            // scratch[l * count ..< (l + 1) * count]: all segments together
            // hold at most `count` bytes, so a lane's fit in its region.
            let rows = state.baseAddress!
            let cursors = rows + lanes
            let seeds = cursors + lanes
            var active = 0
            while active < lanes, let (number, row) = takeSeed() {
                rows[active] = row
                cursors[active] = active * count
                seeds[active] = number
                starts[number] = active * count
                active += 1
            }
            while active > 0 {
                var lane = 0
                while lane < active {
                    let entry = vector[rows[lane]]
                    let cursor = cursors[lane]
                    scratch[cursor] = UInt8(truncatingIfNeeded: entry &>> 1)
                    cursors[lane] = cursor &+ 1
                    let row = Int(entry &>> 9)
                    if entry & 1 == 0 {
                        rows[lane] = row
                        lane &+= 1
                        continue
                    }
                    // The next row is a seed: this segment ends here.
                    let number = seeds[lane]
                    lengths[number] = cursor &+ 1 &- starts[number]
                    successors[number] = Self.seedNumber(row, origin: origin, count: count)
                    if let (seed, seedRow) = takeSeed() {
                        rows[lane] = seedRow
                        seeds[lane] = seed
                        starts[seed] = cursor &+ 1
                        lane &+= 1
                    } else {
                        // Lane done: the last active lane takes its place.
                        active -= 1
                        rows[lane] = rows[active]
                        cursors[lane] = cursors[active]
                        seeds[lane] = seeds[active]
                    }
                }
            }
        }
        // The segments in text order, from origin's.
        let column = bwtBytes
        var written = 0
        var seed = originSeed
        while written < count {
            let length = min(lengths[seed], count - written)
            (column + written).update(from: scratch + starts[seed], count: length)
            written += length
            seed = successors[seed]
        }
    }

    /// Undoes the randomisation of old bzip2 (before 0.9.5) blocks: flips
    /// the low bit of bytes at the distances in `Bzip2Randomisation.table`.
    static func derandomise(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) {
        Bzip2Randomisation.table.withUnsafeBufferPointer { table in
            var toGo = 0
            var index = 0
            for position in 0..<count {
                if toGo == 0 {
                    toGo = Int(table[index])
                    index = (index + 1) & 511
                }
                toGo -= 1
                if toGo == 1 { bytes[position] ^= 1 }
            }
        }
    }
}
