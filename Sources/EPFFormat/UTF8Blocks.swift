/// `TextRepair.needsRepair` for inputs of 16 bytes and more: the UTF-8 and
/// NUL check on 16-byte vectors (`SIMD16<UInt8>`: SSE2 on x86-64, NEON on
/// ARM), 64 bytes an iteration.
///
/// Each byte is checked against the three before it, so that no state
/// crosses from one block to the next:
/// - a byte is a continuation (10xxxxxx) exactly when one of the three
///   before it asks for one (a lead of two or more bytes just before, of
///   three or more two before, of four three before);
/// - it is none of the bytes UTF-8 never holds (C0, C1, F5 to FF) nor NUL;
/// - after E0, ED, F0 and F4 the first continuation is in the narrower range
///   that excludes overlong forms, surrogates and code points past U+10FFFF.
///
/// Together these are the Unicode table of well-formed byte sequences
/// (Unicode 15, table 3-7), which the scalar `TextRepair.sequence` walks
/// one sequence at a time; the tests compare both on every sequence of up
/// to three bytes, at every position in a block. A block of ASCII without
/// NUL whose three bytes before are ASCII too is skipped after one compare,
/// and an input that is all such blocks is answered before any stack copy.
///
/// Loads read 3 bytes before a block: the first block and the last one (of
/// 0 to 15 bytes) are copied into a stack buffer of 48 bytes behind three
/// spaces and followed by spaces, so that nothing outside the input is
/// read, and a sequence cut by the end of the input misses its
/// continuation, as it should.
@usableFromInline
enum UTF8Blocks {
    typealias Bytes = SIMD16<UInt8>
    typealias Lanes = SIMDMask<SIMD16<Int8>>

    /// True when `p[0..<count]` (`count >= 16`) holds a NUL or is not UTF-8.
    @usableFromInline
    static func needsRepair(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        precondition(count >= 16, "UTF8Blocks takes 16 bytes or more")
        let raw = UnsafeRawPointer(p)
        // Clean ASCII first (most records of most tables): one compare a
        // block, the tail as the last 16 bytes, no stack copies. A prefix
        // of clean blocks needs no context, so the full check starts at
        // the first block that is not clean.
        var index = 0
        while index + 16 <= count, !anySet(notCleanASCII(load(raw, index))) { index += 16 }
        if index + 16 > count, !anySet(notCleanASCII(load(raw, count - 16))) { return false }
        if index == 0 {
            if padded({ $0.advanced(by: 3).copyMemory(from: raw, byteCount: 16) }) { return true }
            index = 16
        }
        while index + 64 <= count {
            let c0 = load(raw, index)
            let c1 = load(raw, index + 16)
            let c2 = load(raw, index + 32)
            let c3 = load(raw, index + 48)
            let b0 = load(raw, index - 3)
            let b1 = load(raw, index + 13)
            let b2 = load(raw, index + 29)
            let b3 = load(raw, index + 45)
            let high = (c0 | c1 | c2 | c3 | b0 | b1 | b2 | b3) .>= splat(0x80)
            let nul = (c0 .== splat(0)) .| (c1 .== splat(0)) .| (c2 .== splat(0)) .| (c3 .== splat(0))
            if anySet(high .| nul) {
                var bad = errors(c0, load(raw, index - 1), load(raw, index - 2), b0)
                bad .|= errors(c1, load(raw, index + 15), load(raw, index + 14), b1)
                bad .|= errors(c2, load(raw, index + 31), load(raw, index + 30), b2)
                bad .|= errors(c3, load(raw, index + 47), load(raw, index + 46), b3)
                if anySet(bad) { return true }
            }
            index += 64
        }
        while index + 16 <= count {
            let block = load(raw, index)
            let before3 = load(raw, index - 3)
            if anySet((block .== splat(0)) .| ((block | before3) .>= splat(0x80))),
                anySet(errors(block, load(raw, index - 1), load(raw, index - 2), before3))
            {
                return true
            }
            index += 16
        }
        let start = index - 3
        return padded { $0.copyMemory(from: raw + start, byteCount: count - start) }
    }

    /// Checks the block at byte 3 of a 48-byte stack buffer of spaces into
    /// which `fill` copied at most 19 bytes from byte 0.
    @inline(__always)
    static func padded(_ fill: (UnsafeMutableRawPointer) -> Void) -> Bool {
        var spaces = (Bytes(repeating: 0x20), Bytes(repeating: 0x20), Bytes(repeating: 0x20))
        return withUnsafeMutableBytes(of: &spaces) { buffer in
            let base = buffer.baseAddress!
            fill(base)
            return anySet(errors(load(base, 3), load(base, 2), load(base, 1), load(base, 0)))
        }
    }

    /// Lanes of `block` that break UTF-8 or hold NUL, given the 16 bytes
    /// that start 1, 2 and 3 bytes before it.
    @inline(__always)
    static func errors(_ block: Bytes, _ before1: Bytes, _ before2: Bytes, _ before3: Bytes) -> Lanes {
        let continuation = (block & splat(0xC0)) .== splat(0x80)
        let expected = (before1 .>= splat(0xC0)) .| (before2 .>= splat(0xE0)) .| (before3 .>= splat(0xF0))
        var bad = continuation .^ expected
        bad .|= (block .>= splat(0xF5)) .| ((block & splat(0xFE)) .== splat(0xC0)) .| (block .== splat(0))
        // The second byte's narrower ranges (overlong, surrogate, too large).
        bad .|= (before1 .== splat(0xE0)) .& (block .< splat(0xA0))
        bad .|= (before1 .== splat(0xED)) .& (block .> splat(0x9F))
        bad .|= (before1 .== splat(0xF0)) .& (block .< splat(0x90))
        bad .|= (before1 .== splat(0xF4)) .& (block .> splat(0x8F))
        return bad
    }

    @inline(__always)
    static func load(_ p: UnsafeRawPointer, _ offset: Int) -> Bytes {
        p.loadUnaligned(fromByteOffset: offset, as: Bytes.self)
    }

    @inline(__always)
    static func splat(_ byte: UInt8) -> Bytes { Bytes(repeating: byte) }

    /// Lanes of `block` that are not ASCII or are NUL.
    @inline(__always)
    static func notCleanASCII(_ block: Bytes) -> Lanes {
        (block .>= splat(0x80)) .| (block .== splat(0))
    }

    /// Whether any lane is set: the two halves of the mask's bits OR-ed,
    /// where the standard library's `any(_:)` reduces lane by lane.
    @inline(__always)
    static func anySet(_ lanes: Lanes) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return words[0] | words[1] != 0
    }
}
