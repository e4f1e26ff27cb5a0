import EPFInput
import Foundation
import Testing

@Suite("MD5")
struct MD5Tests {
    static func md5(_ bytes: [UInt8]) -> String {
        var md5 = MD5()
        bytes.withUnsafeBytes { md5.update($0) }
        return MD5.hex(md5.finalize())
    }

    /// A temporary path, not yet created; removed by the caller.
    static func temporaryPath(_ suffix: String = "") -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("epf-md5-\(UUID().uuidString)\(suffix)").path
    }

    /// RFC 1321, appendix A.5.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func rfc1321Vectors(message: String, digest: String) {
        #expect(Self.md5(Array(message.utf8)) == digest)
    }

    @Test func digestIsSixteenBytesAndHexIsLowercase() {
        var md5 = MD5()
        let digest = md5.finalize()
        #expect(digest.count == 16)
        #expect(MD5.hex(digest) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex([0x00, 0xAB, 0xFF, 0x10]) == "00abff10")
    }

    @Test func finalizeResetsTheHasher() {
        var md5 = MD5()
        Array("abc".utf8).withUnsafeBytes { md5.update($0) }
        #expect(MD5.hex(md5.finalize()) == "900150983cd24fb0d6963f7d28e17f72")
        Array("a".utf8).withUnsafeBytes { md5.update($0) }
        #expect(MD5.hex(md5.finalize()) == "0cc175b9c0f1b6a831c399e269772661")
    }

    @Test func paddingBoundaries() throws {
        // Lengths around the 56- and 64-byte edges where padding spills into
        // a second block, checked against the system's md5sum.
        for length in [55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
            #expect(Self.md5(bytes) == (try Self.systemMD5(bytes)), "length \(length)")
        }
    }

    @Test func incrementalUpdatesMatchOneShot() {
        let bytes = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 17) }
        let whole = Self.md5(bytes)
        bytes.withUnsafeBytes { buffer in
            for split in 0...130 {
                var md5 = MD5()
                md5.update(UnsafeRawBufferPointer(rebasing: buffer[..<split]))
                md5.update(UnsafeRawBufferPointer(rebasing: buffer[split...]))
                #expect(MD5.hex(md5.finalize()) == whole, "split at \(split)")
            }
            // Many small, uneven pieces.
            for step in [1, 3, 7, 13, 63, 65] {
                var md5 = MD5()
                var offset = 0
                while offset < buffer.count {
                    let end = min(offset + step, buffer.count)
                    md5.update(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                    offset = end
                }
                #expect(MD5.hex(md5.finalize()) == whole, "pieces of \(step)")
            }
        }
    }

    @Test func oneMegabyteMatchesMd5sum() throws {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let expected = try Self.systemMD5(bytes)
        #expect(Self.md5(bytes) == expected)
        // In uneven pieces, as a read loop would feed it.
        var md5 = MD5()
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            var piece = 1
            while offset < buffer.count {
                let end = min(offset + piece, buffer.count)
                md5.update(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                offset = end
                piece = piece * 3 + 1
                if piece > 100_000 { piece = 5 }
            }
        }
        #expect(MD5.hex(md5.finalize()) == expected)
    }

    /// The digest `/usr/bin/md5sum` prints for `bytes`.
    static func systemMD5(_ bytes: [UInt8]) throws -> String {
        String(String(decoding: try output(of: "md5sum", on: bytes), as: UTF8.self).prefix(32))
    }

    // MARK: - Side files

    static let digest = "0123456789abcdef0123456789abcdef"

    @Test(arguments: [
        "MD5 (itunes20240101.tbz) = 0123456789abcdef0123456789abcdef\n",
        "MD5 (/data/epf/full/itunes20240101.tbz) = 0123456789ABCDEF0123456789ABCDEF\r\n",
        "MD5(itunes20240101.tbz)= 0123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdef  itunes20240101.tbz\n",
        "0123456789ABCDEF0123456789abcdef *itunes20240101.tbz\r\n",
        "0123456789abcdef0123456789abcdef  some/other/dir/itunes20240101.tbz",
        "\\0123456789abcdef0123456789abcdef  odd\\nname",
        "\n  0123456789abcdef0123456789abcdef\n",
        "MD5 (a = b.tbz) = 0123456789abcdef0123456789abcdef \n",
    ])
    func parsesBothForms(text: String) {
        #expect(MD5SideFile.parse(text) == Self.digest)
    }

    @Test(arguments: [
        "",
        "\n",
        "not a checksum",
        "MD5 (x) = 0123456789abcdef0123456789abcde",  // 31 digits
        "MD5 (x) = 0123456789abcdef0123456789abcdef0",  // 33 digits
        "0123456789abcdef0123456789abcdeg  x",  // not hex
        "<html><body>404 Not Found</body></html>",
    ])
    func rejectsTextWithoutADigest(text: String) {
        #expect(MD5SideFile.parse(text) == nil)
    }

    @Test func sideFileBesideTheArchive() throws {
        let archive = Self.temporaryPath(".tbz")
        try Data("MD5 (elsewhere/x.tbz) = 0123456789ABCDEF0123456789ABCDEF\r\n".utf8)
            .write(to: URL(fileURLWithPath: archive + ".md5"))
        defer { try? FileManager.default.removeItem(atPath: archive + ".md5") }
        #expect(try MD5SideFile.expectedDigest(forArchive: archive) == Self.digest)

        try Data("0123456789abcdef0123456789abcdef *x.tbz\n".utf8)
            .write(to: URL(fileURLWithPath: archive + ".md5"))
        #expect(try MD5SideFile.expectedDigest(forArchive: archive) == Self.digest)
    }

    @Test func missingSideFileIsNil() throws {
        #expect(try MD5SideFile.expectedDigest(forArchive: Self.temporaryPath(".tbz")) == nil)
    }

    @Test func garbageSideFileThrowsNamingThePath() throws {
        let archive = Self.temporaryPath(".tbz")
        try Data("<html>404 Not Found</html>\n".utf8).write(to: URL(fileURLWithPath: archive + ".md5"))
        defer { try? FileManager.default.removeItem(atPath: archive + ".md5") }
        let error = #expect(throws: InputError.self) {
            try MD5SideFile.expectedDigest(forArchive: archive)
        }
        #expect(error?.path == archive + ".md5")
        #expect(error?.description.contains(archive + ".md5") == true)
        #expect(error?.detail.contains("MD5") == true)
    }

    @Test func emptySideFileThrows() throws {
        let archive = Self.temporaryPath(".tbz")
        try Data().write(to: URL(fileURLWithPath: archive + ".md5"))
        defer { try? FileManager.default.removeItem(atPath: archive + ".md5") }
        #expect(throws: InputError.self) {
            try MD5SideFile.expectedDigest(forArchive: archive)
        }
    }
}
