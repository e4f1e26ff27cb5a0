#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `NAME.md5` file that comes beside an archive `NAME`, holding the
/// archive's expected MD5 in BSD form (`MD5 (NAME) = <hex>`, also OpenSSL's
/// `MD5(NAME)= <hex>`) or GNU form (`<hex>  NAME`, `<hex> *NAME`).
package enum MD5SideFile {
    /// Side files are one line; more than this is not a side file.
    static let maximumSize = 64 << 10

    /// The lowercase hex digest in `path + ".md5"`, or nil when there is no
    /// such file. Throws when the file exists but cannot be read or holds no
    /// 32-hex-digit digest.
    package static func expectedDigest(forArchive path: String) throws -> String? {
        let sidePath = path + ".md5"
        let descriptor = open(sidePath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw InputError.system(sidePath, "open the md5 file", errno: code)
        }
        defer { close(descriptor) }

        let bytes = try readBytes(descriptor, count: maximumSize + 1, at: 0, path: sidePath, action: "read the md5 file")
        let filled = bytes.count
        guard filled <= maximumSize else {
            throw InputError(
                path: sidePath,
                detail: "is larger than \(maximumSize / 1024) KiB, too large for an md5 side file",
                hint: "Check that it is the archive's .md5 file, or remove it to import without checking"
            )
        }
        let text = String(decoding: bytes[..<filled], as: UTF8.self)
        guard let digest = parse(text) else {
            throw InputError(
                path: sidePath,
                detail: "holds no MD5 digest (expected \"MD5 (NAME) = <32 hex digits>\" or \"<32 hex digits>  NAME\")",
                hint: "Download the .md5 file again, or remove it to import without checking"
            )
        }
        return digest
    }

    /// The first digest in `text`, in lowercase, or nil if none. Only the
    /// digest matters: the file name beside it is not checked.
    package static func parse(_ text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let line = line.drop(while: \.isWhitespace)
            guard !line.isEmpty else { continue }
            // GNU form (or a bare digest): the digest first; a name with a
            // backslash or newline in it makes the line start with "\".
            let gnu = line.drop(while: { $0 == "\\" }).prefix(while: { !$0.isWhitespace })
            if let digest = hexDigest(gnu) { return digest }
            // BSD form: the digest after the last "=".
            if let equals = line.lastIndex(of: "=") {
                let tail = line[line.index(after: equals)...].trimmingWhitespace()
                if let digest = hexDigest(tail) { return digest }
            }
        }
        return nil
    }

    /// `text` in lowercase if it is exactly 32 hex digits.
    private static func hexDigest(_ text: Substring) -> String? {
        guard text.utf8.count == 32, text.utf8.allSatisfy(isHexDigit) else { return nil }
        return text.lowercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
