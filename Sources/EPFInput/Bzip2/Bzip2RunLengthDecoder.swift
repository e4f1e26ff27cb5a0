/// A block's decoded bytes, in a buffer that grows (a level-9 block of long
/// runs expands to up to ~46 MB) and is reused block after block.
///
/// Owned by one `Bzip2BlockJob`, which deallocates it; `bytes[0..<count]`
/// is initialised, `bytes[count..<capacity]` is scratch.
struct Bzip2Output {
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 4096)
        bytes = .allocate(capacity: self.capacity)
    }

    /// Makes room for `capacity` bytes, keeping `bytes[0..<count]`.
    mutating func reserve(_ capacity: Int) {
        guard capacity > self.capacity else { return }
        let bigger = max(capacity, self.capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        moved.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = moved
        self.capacity = bigger
    }

    /// Shrinks a buffer that long runs made huge back to `capacity`.
    mutating func trim(to capacity: Int) {
        guard self.capacity > capacity * 2 else { return }
        bytes.deallocate()
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
        count = 0
    }

    func deallocate() { bytes.deallocate() }
}

/// bzip2's first step undone: in the block's bytes, four equal bytes are
/// followed by a count (0-255) of further copies.
extension Bzip2BlockDecoder {
    /// Writes `bytes[0..<count]` with its runs expanded to `output` and
    /// returns the CRC of what it wrote. `bytes` must be readable for 8
    /// bytes past `count` (`bwtBytes` is).
    ///
    /// Most of the bytes are not near a run of four: five at a time are
    /// copied as one 8-byte word when the 8 bytes from 4 before them hold
    /// no four equal in a row (a count can only follow such four). Near
    /// one, a byte at a time, tracking the run.
    static func undoRuns(_ bytes: UnsafePointer<UInt8>, count: Int, into output: inout Bzip2Output) -> UInt32 {
        output.count = 0
        // Invariant: capacity >= written + (count - read) + 16, so every
        // 8-byte store below fits.
        output.reserve(count + 16)
        var out = output.bytes
        var capacity = output.capacity
        let raw = UnsafeRawPointer(bytes)
        var read = 0
        var written = 0
        // Bytes before this cannot belong to a run (a count was just read).
        var runStart = 0
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while read < count {
            if read >= 4 && read + 5 <= count {
                // Bytes read-4 ..< read+4; byte k of `same` is zero when
                // bytes k and k+1 are equal.
                let window = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: read - 4, as: UInt64.self))
                let same = window ^ window &>> 8
                // High bit of each byte set exactly where `same` is zero.
                let zero = ~((same & low &+ low) | same | low)
                // A run of four starting at byte 0...4 of the window.
                let runs = zero & zero &>> 8 & zero &>> 16 & 0x0000_0080_8080_8080
                if runs == 0 {
                    let word = raw.loadUnaligned(fromByteOffset: read, as: UInt64.self)
                    UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
                    read &+= 5
                    written &+= 5
                    continue
                }
            }
            // The equal bytes just before `read`, since `runStart`.
            var run = 0
            if read > runStart {
                let last = bytes[read - 1]
                run = 1
                while run < 4 && read - 1 - run >= runStart && bytes[read - 1 - run] == last { run += 1 }
            }
            if run == 4 {
                let extra = Int(bytes[read])
                let byte = bytes[read - 1]
                if written + extra + (count - read) + 16 > capacity {
                    output.count = written
                    output.reserve(written + extra + (count - read) + 16)
                    out = output.bytes
                    capacity = output.capacity
                }
                (out + written).update(repeating: byte, count: extra)
                written += extra
                read += 1
                runStart = read
            } else {
                out[written] = bytes[read]
                written += 1
                read += 1
            }
        }
        output.count = written
        return Bzip2CRC.checksum(out, count: written)
    }
}
