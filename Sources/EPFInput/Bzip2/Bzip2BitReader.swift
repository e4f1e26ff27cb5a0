/// Reads a bzip2 block's bits, most significant bit first, from a buffer
/// that `Bzip2BlockDecoder` filled with the block's bytes and padding.
///
/// Unsafe invariant: `base` can be read for `((end + 7) / 8) + padding`
/// bytes (`Bzip2BitReader.padding`). Every read that moves `position`
/// checks it against `end`; `peek` may look past `end` by up to
/// `padding - 8` bytes' worth of position, which the hot loop keeps to by
/// checking `position` every 50 symbols (at most 50 x 20 bits apart).
struct Bzip2BitReader {
    /// Bytes readable past the block's last byte: room for one group of 50
    /// symbols of up to 20 bits read past `end` (125 bytes) plus an 8-byte
    /// load, rounded up.
    static let padding = 256

    let base: UnsafePointer<UInt8>
    /// The next bit to read, counted from the top bit of `base[0]`.
    var position: Int
    /// The bit after the block's last.
    let end: Int

    /// The next `count` bits (1-32), not consumed. May look past `end` (see
    /// the invariant).
    @inline(__always)
    func peek(_ count: Int) -> UInt32 {
        Self.peek(base, position, count)
    }

    /// `count` (1-32) bits at bit `position` of `base`.
    @inline(__always)
    static func peek(_ base: UnsafePointer<UInt8>, _ position: Int, _ count: Int) -> UInt32 {
        let word = UInt64(bigEndian: UnsafeRawPointer(base + (position &>> 3)).loadUnaligned(as: UInt64.self))
        return UInt32(truncatingIfNeeded: (word &<< UInt64(position & 7)) &>> UInt64(64 - count))
    }

    /// The next `count` bits (1-32), consumed; throws when the block has
    /// fewer left.
    mutating func read(_ count: Int) throws(Bzip2BlockFailure) -> UInt32 {
        guard position + count <= end else { throw .runsPastEnd }
        let value = peek(count)
        position += count
        return value
    }

    /// Moves on `count` bits already peeked; throws when that passes `end`.
    mutating func skip(_ count: Int) throws(Bzip2BlockFailure) {
        guard position + count <= end else { throw .runsPastEnd }
        position += count
    }
}
