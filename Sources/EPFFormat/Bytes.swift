#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes that give an EPF file its structure. There is no quoting and no
/// escaping: these values never mean anything else.
@usableFromInline
package enum EPFByte {
    /// Separates fields inside a row.
    @usableFromInline package static let fieldSeparator: UInt8 = 0x01
    /// First byte of the row terminator `0x02 0x0A`.
    @usableFromInline package static let recordSeparator: UInt8 = 0x02
    /// Second byte of the row terminator.
    @usableFromInline package static let newline: UInt8 = 0x0A
    /// Starts every header, tag and footer row.
    @usableFromInline package static let hash: UInt8 = UInt8(ascii: "#")
}

/// Finds the next `0x02 0x0A` at or after `from` in `base[from..<end]`.
///
/// A lone `0x02` (not followed by a newline) is data, so the search goes on
/// past it. Returns the offset of the `0x02`, or nil when none is complete.
@inlinable
package func findRecordTerminator(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
    var position = from
    while position < end {
        guard let hit = memchr(base + position, Int32(EPFByte.recordSeparator), end - position) else {
            return nil
        }
        let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if offset + 1 < end, base[offset + 1] == EPFByte.newline {
            return offset
        }
        position = offset + 1
    }
    return nil
}

/// Finds the last complete `0x02 0x0A` in `base[from..<end]` and returns the
/// offset just past it (so `from..<result` holds whole rows), or nil.
///
/// Scans backwards byte by byte: a chunk cut lands within one row (a few KB)
/// of a row end, so this touches little memory.
@inlinable
package func lastRecordBoundary(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
    var offset = end - 1
    while offset > from {
        if base[offset] == EPFByte.newline, base[offset - 1] == EPFByte.recordSeparator {
            return offset + 1
        }
        offset -= 1
    }
    return nil
}

/// Finds a Windows row end `0x02 0x0D 0x0A` in `base[from..<end]`: the mark
/// of a file whose line ends a tool converted (EPF rows end in `0x02 0x0A`
/// only). Returns the offset of its `0x02`. For error paths, not hot loops.
package func findWindowsRowEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
    var position = from
    while position + 2 < end {
        guard let hit = memchr(base + position, Int32(EPFByte.recordSeparator), end - position - 2) else { return nil }
        let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        if base[offset + 1] == 0x0D, base[offset + 2] == EPFByte.newline { return offset }
        position = offset + 1
    }
    return nil
}
