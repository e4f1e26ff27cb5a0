import EPFInput
import Testing

@Suite("XXH64 fingerprints")
struct XXH64Tests {
    /// Messages and their XXH64 (seed 0), as the reference implementation
    /// (python-xxhash) gives them.
    static let vectors: [([UInt8], UInt64)] = [
        ([], 0xef46_db37_51d8_e999),
        (Array("a".utf8), 0xd24e_c4f1_a98c_6e5b),
        (Array("abc".utf8), 0x44bc_2cf5_ad77_0999),
        (Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8), 0x6919_6c1b_3af0_bff9),
        (Array((0..<4).flatMap { _ in (0...255).map(UInt8.init) }) + Array("xyz".utf8), 0xe146_cb31_b65b_c21a),
    ]

    @Test("Known messages give the reference hashes")
    func referenceVectors() {
        for (message, expected) in Self.vectors {
            #expect(message.withUnsafeBytes { XXH64.hash($0) } == expected, "\(message.count) bytes")
        }
    }

    @Test("Fed in pieces of any size, the hash is the same as in one call")
    func piecesGiveTheSameHash() {
        let (message, expected) = Self.vectors[4]
        for piece in [1, 3, 7, 8, 31, 32, 33, 64, 100, 1000] {
            var hasher = XXH64()
            message.withUnsafeBytes { bytes in
                var start = 0
                while start < bytes.count {
                    let end = min(start + piece, bytes.count)
                    hasher.update(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                    start = end
                }
            }
            #expect(hasher.finalize() == expected, "pieces of \(piece)")
        }
    }

    @Test("The journal's form: xxh64: and 16 hex digits")
    func fingerprintForm() {
        #expect(XXH64.fingerprint(0xef46_db37_51d8_e999) == "xxh64:ef46db3751d8e999")
        #expect(XXH64.fingerprint(0x1) == "xxh64:0000000000000001")
    }
}
