import EPFCatalogCore

/// Apple's icon URLs at the three sizes the Lookup API sends
/// (`artworkUrl60`, `artworkUrl100`, `artworkUrl512`), from the two EPF
/// holds (`artwork_url_small`, 100 px; `artwork_url_large`, 512 px).
///
/// Apple's image server names the size in the file name:
/// `.../AppIcon-512x512bb.png`, `.../source/512x512bb.jpg`,
/// `.../mzl.abcd.100x100-75.jpg`; asking for `60x60` in its place gives
/// the 60 px icon. So each size comes from the column of that size, else
/// from the other column with its size rewritten; a URL that names no
/// size is taken as it is (the same icon at another size, which a client
/// scales). An application with neither URL gets `""` for all three, as
/// EPF holds it, so that a client model with non-optional strings
/// decodes it.
package enum ArtworkURL {
    /// `small` and `large` as the catalog holds them (nil or empty: none),
    /// made into the three keys.
    package static func sizes(small: String?, large: String?) -> (url60: String, url100: String, url512: String) {
        let small = small.flatMap { $0.isEmpty ? nil : $0 }
        let large = large.flatMap { $0.isEmpty ? nil : $0 }
        func at(_ size: Int, own: String?, other: String?) -> String {
            if let own { return own }
            guard let other else { return "" }
            return resized(other, to: size) ?? other
        }
        let url60 = small.flatMap { resized($0, to: 60) } ?? large.flatMap { resized($0, to: 60) } ?? small ?? large ?? ""
        return (url60, at(100, own: small, other: large), at(512, own: large, other: small))
    }

    /// `url` with the size in its file name (the last `NxN` of the last
    /// path component, both numbers the same: icons are square) made
    /// `size`x`size`; nil when the file name names no size.
    package static func resized(_ url: String, to size: Int) -> String? {
        // Read in place (a lookup makes this once per result): no copy of
        // the URL's bytes, one string for the answer.
        var url = url
        return url.withUTF8 { bytes -> String? in
            let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? bytes.count
            let nameStart = (bytes[..<end].lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
            let isDigit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
            var x = end - 1
            while x > nameStart {
                defer { x -= 1 }
                guard bytes[x] == UInt8(ascii: "x") else { continue }
                var widthStart = x
                while widthStart > nameStart, isDigit(bytes[widthStart - 1]) { widthStart -= 1 }
                var heightEnd = x + 1
                while heightEnd < end, isDigit(bytes[heightEnd]) { heightEnd += 1 }
                let width = bytes[widthStart..<x]
                guard !width.isEmpty, width.elementsEqual(bytes[(x + 1)..<heightEnd]) else { continue }
                var answer = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<widthStart]), as: UTF8.self)
                answer.reserveCapacity(bytes.count + 8)
                answer += "\(size)x\(size)"
                answer += String(decoding: UnsafeBufferPointer(rebasing: bytes[heightEnd...]), as: UTF8.self)
                return answer
            }
            return nil
        }
    }
}
