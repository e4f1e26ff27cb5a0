/// The inverse Burrows-Wheeler transform of a decoded block, walked from
/// both ends at once.
///
/// A walk through the transform is a chain of dependent loads from a
/// vector of the block's size (3.6 MB at level 9, far bigger than L2), so
/// its speed is the memory latency, not the instruction count: libbz2
/// spends ~80% of its time there. Two independent chains keep two loads in
/// flight and halve that time: the forward vector `T` gives the block's
/// bytes from the first (row `origin` is the block itself, T maps a row to
/// the row of its rotation by one), and its inverse, `LF`, gives them from
/// the last. Both are built in one pass by the counting sort that builds
/// `T` alone in libbz2. The forward walk writes the first half, the
/// backward walk the second; each vector entry is `next row << 8 | byte`,
/// one load per byte.
///
/// A block whose bytes are periodic has rows with equal rotations; the
/// vectors then may form several cycles, but every step still lands on a
/// row with the right rotation, so both walks still give the right bytes.
/// A corrupt block gives wrong bytes (its CRC then fails), never an index
/// out of range: every entry is a row below `count`.
extension Bzip2BlockDecoder {
    /// Turns `bwtBytes[0..<count]` (the transform's last column, with
    /// `byteCounts` its byte counts) into the block's bytes before the
    /// run-length step, in place. `origin < count`.
    func invertTransform(count: Int, origin: Int) {
        precondition(origin < count && count <= blockCapacity)
        let column = bwtBytes
        let forward = self.forward
        let backward = self.backward
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
        // Row i ends with byte c; j, the i-th row's place among the rows
        // starting with c, is the row of i's rotation to the right: LF[i] = j,
        // T[j] = i.
        for row in 0..<count {
            let byte = column[row]
            let target = next[Int(byte)]
            next[Int(byte)] = target &+ 1
            forward[target] = UInt32(truncatingIfNeeded: row) &<< 8 | UInt32(byte)
            backward[row] = UInt32(truncatingIfNeeded: target) &<< 8 | UInt32(byte)
        }
        // Forward from the block's own row gives bytes 0, 1, ...; backward
        // from it gives bytes count-1, count-2, ... (the byte stored with a
        // row is the one its rotation ends with).
        let half = count / 2
        var ahead = UInt32(origin)
        var behind = UInt32(origin)
        var low = 0
        var high = count - 1
        while low < half {
            let step = forward[Int(ahead)]
            let back = backward[Int(behind)]
            column[low] = UInt8(truncatingIfNeeded: step)
            column[high] = UInt8(truncatingIfNeeded: back)
            ahead = step &>> 8
            behind = back &>> 8
            low &+= 1
            high &-= 1
        }
        if high == low {
            column[high] = UInt8(truncatingIfNeeded: backward[Int(behind)])
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
