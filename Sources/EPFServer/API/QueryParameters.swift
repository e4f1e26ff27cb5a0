/// The parameters of a request's query string, decoded as a form is:
/// `+` is a space, `%XX` a byte, the bytes UTF-8.
///
/// A parameter given twice counts once, with its first value. Names are
/// compared exactly (`bundleId`, not `bundleid`), as Apple's are.
package struct QueryParameters: Sendable, Equatable {
    /// The parameters in the order given.
    package private(set) var pairs: [(name: String, value: String)] = []

    /// Decodes `query` (the part after `?`, nil when there is none). Throws
    /// the name of the first parameter whose name or value is not well
    /// encoded (a `%` without two hex digits, bytes that are not UTF-8).
    package init(query: String?) throws(QueryParameters.BadEncoding) {
        guard let query, !query.isEmpty else { return }
        for part in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: UInt8(ascii: "="))
            let rawName = part[..<(equals ?? part.endIndex)]
            let rawValue = equals.map { part[part.index(after: $0)...] } ?? part[part.endIndex...]
            guard let name = Self.decode(rawName) else {
                throw BadEncoding(name: String(decoding: rawName, as: UTF8.self))
            }
            guard let value = Self.decode(rawValue) else { throw BadEncoding(name: name) }
            pairs.append((name, value))
        }
    }

    /// The first value of `name`, nil when it is not given.
    package subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    package static func == (left: QueryParameters, right: QueryParameters) -> Bool {
        left.pairs.elementsEqual(right.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    /// A parameter that is not well encoded.
    package struct BadEncoding: Error, Sendable, Equatable {
        package var name: String
    }

    /// `bytes` form-decoded, nil when not well encoded.
    private static func decode(_ bytes: Substring.UTF8View.SubSequence) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = bytes.index(after: index)
                guard high < bytes.endIndex, bytes.index(after: high) < bytes.endIndex,
                    let first = hexValue(bytes[high]), let second = hexValue(bytes[bytes.index(after: high)])
                else { return nil }
                decoded.append(first << 4 | second)
                index = bytes.index(after: high)
            default:
                decoded.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
