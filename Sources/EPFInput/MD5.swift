/// MD5 (RFC 1321), computed incrementally: feed the bytes in any pieces
/// with `update`, then take the 16-byte digest with `finalize`.
///
/// Used to check an archive against its `.md5` side file in the same pass
/// that reads it, so it is written for speed: whole 64-byte blocks are
/// hashed straight from the caller's buffer with the state in locals and the
/// 64 steps unrolled (constants precomputed in a table); only a split block is copied, into a fixed 64-byte
/// buffer inside the value (nothing is allocated per update).
package struct MD5: Sendable {
    private var a: UInt32 = 0x6745_2301
    private var b: UInt32 = 0xefcd_ab89
    private var c: UInt32 = 0x98ba_dcfe
    private var d: UInt32 = 0x1032_5476
    /// Bytes fed so far.
    private var length: UInt64 = 0
    /// The start of a block not yet complete: `length % 64` bytes are valid.
    private var partial: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    package init() {}

    /// Adds `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var next = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        let buffered = Int(length & 63)
        length &+= UInt64(remaining)

        if buffered > 0 {
            let take = min(64 - buffered, remaining)
            let full = withUnsafeMutableBytes(of: &partial) { block in
                (block.baseAddress! + buffered).copyMemory(from: next, byteCount: take)
                return buffered + take == 64
            }
            next += take
            remaining -= take
            guard full else { return }
            hashPartial()
        }

        let blocks = remaining >> 6
        if blocks > 0 {
            hashBlocks(next, count: blocks)
            next += blocks << 6
            remaining &= 63
        }

        if remaining > 0 {
            withUnsafeMutableBytes(of: &partial) { block in
                block.baseAddress!.copyMemory(from: next, byteCount: remaining)
            }
        }
    }

    /// Adds `bytes` to the message.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update($0) }
        }
    }

    /// The 16-byte digest of everything fed so far. The hasher is then reset,
    /// as if new, ready for another message.
    package mutating func finalize() -> [UInt8] {
        let bitLength = length &<< 3
        // A 0x80 byte, zeros up to 56 mod 64, then the bit length (little-endian).
        let buffered = Int(length & 63)
        let padding = buffered < 56 ? 56 - buffered : 120 - buffered
        var tail: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &tail) { tail in
            tail[0] = 0x80
            tail.storeBytes(of: bitLength.littleEndian, toByteOffset: padding, as: UInt64.self)
            update(UnsafeRawBufferPointer(rebasing: tail[..<(padding + 8)]))
        }
        var digest = [UInt8](repeating: 0, count: 16)
        digest.withUnsafeMutableBytes { out in
            out.storeBytes(of: a.littleEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: b.littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: c.littleEndian, toByteOffset: 8, as: UInt32.self)
            out.storeBytes(of: d.littleEndian, toByteOffset: 12, as: UInt32.self)
        }
        self = MD5()
        return digest
    }

    /// `digest` as lowercase hexadecimal.
    package static func hex(_ digest: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The lowercase hex digest of `bytes`, in one call.
    package static func hexDigest(_ bytes: UnsafeRawBufferPointer) -> String {
        var md5 = MD5()
        md5.update(bytes)
        return hex(md5.finalize())
    }

    private mutating func hashPartial() {
        var block = partial
        withUnsafeBytes(of: &block) { hashBlocks($0.baseAddress!, count: 1) }
    }

    /// Hashes `count` whole 64-byte blocks starting at `start`.
    private mutating func hashBlocks(_ start: UnsafeRawPointer, count: Int) {
        var a = self.a
        var b = self.b
        var c = self.c
        var d = self.d
        let t = md5Constants
        var block = start
        for _ in 0..<count {
            let aa = a
            let bb = b
            let cc = c
            let dd = d
            let x0 = word(block, 0)
            let x1 = word(block, 1)
            let x2 = word(block, 2)
            let x3 = word(block, 3)
            let x4 = word(block, 4)
            let x5 = word(block, 5)
            let x6 = word(block, 6)
            let x7 = word(block, 7)
            let x8 = word(block, 8)
            let x9 = word(block, 9)
            let x10 = word(block, 10)
            let x11 = word(block, 11)
            let x12 = word(block, 12)
            let x13 = word(block, 13)
            let x14 = word(block, 14)
            let x15 = word(block, 15)

            // Round 1.
            f(&a, b, c, d, x0, 7, t[0])
            f(&d, a, b, c, x1, 12, t[1])
            f(&c, d, a, b, x2, 17, t[2])
            f(&b, c, d, a, x3, 22, t[3])
            f(&a, b, c, d, x4, 7, t[4])
            f(&d, a, b, c, x5, 12, t[5])
            f(&c, d, a, b, x6, 17, t[6])
            f(&b, c, d, a, x7, 22, t[7])
            f(&a, b, c, d, x8, 7, t[8])
            f(&d, a, b, c, x9, 12, t[9])
            f(&c, d, a, b, x10, 17, t[10])
            f(&b, c, d, a, x11, 22, t[11])
            f(&a, b, c, d, x12, 7, t[12])
            f(&d, a, b, c, x13, 12, t[13])
            f(&c, d, a, b, x14, 17, t[14])
            f(&b, c, d, a, x15, 22, t[15])
            // Round 2.
            g(&a, b, c, d, x1, 5, t[16])
            g(&d, a, b, c, x6, 9, t[17])
            g(&c, d, a, b, x11, 14, t[18])
            g(&b, c, d, a, x0, 20, t[19])
            g(&a, b, c, d, x5, 5, t[20])
            g(&d, a, b, c, x10, 9, t[21])
            g(&c, d, a, b, x15, 14, t[22])
            g(&b, c, d, a, x4, 20, t[23])
            g(&a, b, c, d, x9, 5, t[24])
            g(&d, a, b, c, x14, 9, t[25])
            g(&c, d, a, b, x3, 14, t[26])
            g(&b, c, d, a, x8, 20, t[27])
            g(&a, b, c, d, x13, 5, t[28])
            g(&d, a, b, c, x2, 9, t[29])
            g(&c, d, a, b, x7, 14, t[30])
            g(&b, c, d, a, x12, 20, t[31])
            // Round 3.
            h(&a, b, c, d, x5, 4, t[32])
            h(&d, a, b, c, x8, 11, t[33])
            h(&c, d, a, b, x11, 16, t[34])
            h(&b, c, d, a, x14, 23, t[35])
            h(&a, b, c, d, x1, 4, t[36])
            h(&d, a, b, c, x4, 11, t[37])
            h(&c, d, a, b, x7, 16, t[38])
            h(&b, c, d, a, x10, 23, t[39])
            h(&a, b, c, d, x13, 4, t[40])
            h(&d, a, b, c, x0, 11, t[41])
            h(&c, d, a, b, x3, 16, t[42])
            h(&b, c, d, a, x6, 23, t[43])
            h(&a, b, c, d, x9, 4, t[44])
            h(&d, a, b, c, x12, 11, t[45])
            h(&c, d, a, b, x15, 16, t[46])
            h(&b, c, d, a, x2, 23, t[47])
            // Round 4.
            i(&a, b, c, d, x0, 6, t[48])
            i(&d, a, b, c, x7, 10, t[49])
            i(&c, d, a, b, x14, 15, t[50])
            i(&b, c, d, a, x5, 21, t[51])
            i(&a, b, c, d, x12, 6, t[52])
            i(&d, a, b, c, x3, 10, t[53])
            i(&c, d, a, b, x10, 15, t[54])
            i(&b, c, d, a, x1, 21, t[55])
            i(&a, b, c, d, x8, 6, t[56])
            i(&d, a, b, c, x15, 10, t[57])
            i(&c, d, a, b, x6, 15, t[58])
            i(&b, c, d, a, x13, 21, t[59])
            i(&a, b, c, d, x4, 6, t[60])
            i(&d, a, b, c, x11, 10, t[61])
            i(&c, d, a, b, x2, 15, t[62])
            i(&b, c, d, a, x9, 21, t[63])

            a &+= aa
            b &+= bb
            c &+= cc
            d &+= dd
            block += 64
        }
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }
}

@inline(__always)
private func word(_ block: UnsafeRawPointer, _ index: Int) -> UInt32 {
    UInt32(littleEndian: block.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
}

@inline(__always)
private func rotate(_ x: UInt32, _ s: UInt32) -> UInt32 {
    (x &<< s) | (x &>> (32 &- s))
}

// The four rounds' steps: a = b + ((a + F(b, c, d) + x + t) <<< s), with
// the sum ordered so that b, the previous step's result, comes in last: the
// steps form one dependency chain through b, and that chain sets the speed.
@inline(__always)
private func f(_ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32) {
    a = rotate((a &+ x &+ t) &+ (d ^ (b & (c ^ d))), s) &+ b
}

@inline(__always)
private func g(_ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32) {
    // G = (b & d) | (c & ~d), whose terms share no bits, so | is +: only
    // the last term waits for b.
    a = rotate((a &+ x &+ t &+ (c & ~d)) &+ (b & d), s) &+ b
}

@inline(__always)
private func h(_ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32) {
    a = rotate((a &+ x &+ t) &+ (b ^ (c ^ d)), s) &+ b
}

@inline(__always)
private func i(_ a: inout UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ x: UInt32, _ s: UInt32, _ t: UInt32) {
    a = rotate((a &+ x &+ t) &+ (c ^ (b | ~d)), s) &+ b
}

/// The 64 step constants, floor(abs(sin(i + 1)) * 2^32), read through a
/// pointer rather than written inline: as loads, LLVM adds them to the message
/// word early, off the chain through b; as literals (or a constant array it
/// can see into) it reassociates them to the end, onto the chain, which costs
/// about 15% (measured). Written once, at first use, and never again, so it is
/// safe to share; the 256 bytes live for the life of the process.
private nonisolated(unsafe) let md5Constants: UnsafePointer<UInt32> = {
    let table: [UInt32] = [
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
        0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
        0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
        0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
        0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
        0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
        0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
        0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
        0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
    ]
    let pointer = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
    pointer.initialize(from: table, count: 64)
    return UnsafePointer(pointer)
}()
