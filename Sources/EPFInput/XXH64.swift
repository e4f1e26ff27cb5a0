/// XXH64 (xxHash, 64-bit), computed incrementally: feed the bytes in any
/// pieces with `update`, then take the hash with `finalize`.
///
/// The import journal knows a download by this fingerprint: a fast,
/// well-mixed, non-cryptographic hash (a changed file keeps its
/// fingerprint with a chance of 1 in 2^64), cheap enough (several GB/s,
/// against md5's 0.7) to compute for every file in the same pass that
/// imports it. An md5 is still what checks a download against its `.md5`
/// side file.
///
/// Whole 32-byte stripes are hashed straight from the caller's buffer with
/// the four lanes in locals; only a split stripe is copied, into a fixed
/// buffer inside the value (nothing is allocated per update).
package struct XXH64: Sendable {
    static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private let seed: UInt64
    private var lanes: (UInt64, UInt64, UInt64, UInt64)
    /// Bytes fed so far.
    private var length: UInt64 = 0
    /// The start of a stripe not yet complete: `length % 32` bytes are valid.
    private var partial: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    package init(seed: UInt64 = 0) {
        self.seed = seed
        lanes = (seed &+ Self.prime1 &+ Self.prime2, seed &+ Self.prime2, seed, seed &- Self.prime1)
    }

    /// Adds `bytes` to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var next = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        let buffered = Int(length & 31)
        length &+= UInt64(remaining)

        if buffered > 0 {
            let take = min(32 - buffered, remaining)
            withUnsafeMutableBytes(of: &partial) { stripe in
                (stripe.baseAddress! + buffered).copyMemory(from: next, byteCount: take)
            }
            next += take
            remaining -= take
            guard buffered + take == 32 else { return }
            var stripe = partial
            withUnsafeBytes(of: &stripe) { consumeStripes($0.baseAddress!, count: 1) }
        }
        let stripes = remaining >> 5
        if stripes > 0 {
            consumeStripes(next, count: stripes)
            next += stripes << 5
            remaining &= 31
        }
        if remaining > 0 {
            withUnsafeMutableBytes(of: &partial) { stripe in
                stripe.baseAddress!.copyMemory(from: next, byteCount: remaining)
            }
        }
    }

    /// The hash of everything fed. The value can go on being fed after.
    package func finalize() -> UInt64 {
        var hash: UInt64
        if length >= 32 {
            let (v1, v2, v3, v4) = lanes
            hash = Self.rotate(v1, 1) &+ Self.rotate(v2, 7) &+ Self.rotate(v3, 12) &+ Self.rotate(v4, 18)
            for lane in [v1, v2, v3, v4] {
                hash = (hash ^ Self.round(0, lane)) &* Self.prime1 &+ Self.prime4
            }
        } else {
            hash = seed &+ Self.prime5
        }
        hash &+= length
        var tail = partial
        withUnsafeBytes(of: &tail) { tail in
            var offset = 0
            let count = Int(length & 31)
            while offset + 8 <= count {
                hash ^= Self.round(0, UInt64(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                hash = Self.rotate(hash, 27) &* Self.prime1 &+ Self.prime4
                offset += 8
            }
            if offset + 4 <= count {
                hash ^= UInt64(UInt32(littleEndian: tail.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) &* Self.prime1
                hash = Self.rotate(hash, 23) &* Self.prime2 &+ Self.prime3
                offset += 4
            }
            while offset < count {
                hash ^= UInt64(tail[offset]) &* Self.prime5
                hash = Self.rotate(hash, 11) &* Self.prime1
                offset += 1
            }
        }
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        hash ^= hash >> 32
        return hash
    }

    /// The hash of `bytes`, in one call.
    package static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var hasher = XXH64(seed: seed)
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The fingerprint as the journal writes it: `xxh64:` and 16 hex digits.
    package static func fingerprint(_ hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return "xxh64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The fingerprint of the file at `path`, read once (mapped).
    package static func fingerprint(ofFile path: String) throws(InputError) -> String {
        let file = try MappedFile(path: path)
        return fingerprint(hash(file.bytes))
    }

    private mutating func consumeStripes(_ start: UnsafeRawPointer, count: Int) {
        var (v1, v2, v3, v4) = lanes
        var stripe = start
        for _ in 0..<count {
            v1 = Self.round(v1, UInt64(littleEndian: stripe.loadUnaligned(as: UInt64.self)))
            v2 = Self.round(v2, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            v3 = Self.round(v3, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
            v4 = Self.round(v4, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
            stripe += 32
        }
        lanes = (v1, v2, v3, v4)
    }

    @inline(__always)
    static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
