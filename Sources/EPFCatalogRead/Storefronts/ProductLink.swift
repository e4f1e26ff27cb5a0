import EPFCatalogCore

/// Apple IDs from what users paste: product links and IDs.
package enum ProductLink {
    /// The Apple ID in `text`, which may be:
    /// - a product link, `https://apps.apple.com/us/app/name/id364709193?mt=8`,
    ///   or an old `https://itunes.apple.com/us/app/name/id364709193?mt=8`;
    /// - a bare `id364709193`;
    /// - bare digits, `364709193`.
    ///
    /// Throws a `CatalogError` that says what was expected for anything else.
    package static func appleID(from text: String) throws(CatalogError) -> Int64 {
        let trimmed = text.trimmingWhitespace
        if let id = positiveID(trimmed) { return id }
        if let id = idComponent(trimmed) { return id }
        if trimmed.contains("/") {
            // A link: the last path segment of the form idNNN, before ? or #.
            var path = Substring(trimmed)
            if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
            let isAppleHost =
                path.contains("apps.apple.com") || path.contains("itunes.apple.com")
            for segment in path.split(separator: "/").reversed() {
                if let id = idComponent(segment) {
                    if isAppleHost { return id }
                    break
                }
            }
        }
        throw CatalogError(
            .usage,
            detail: "'\(text)' is not an Apple ID or product link",
            hint: "Give a number (364709193), id364709193, or a link such as https://apps.apple.com/us/app/name/id364709193")
    }

    /// A product or developer link of EPF's `view_url`
    /// (`https://apps.apple.com/us/app/<slug>/id<ID>?mt=8`) as Apple's
    /// Lookup API writes it for the storefront of `country` (ISO alpha-2,
    /// lower-cased into the link): its storefront segment replaced, its
    /// query made `?uo=4` (`https://apps.apple.com/jp/app/<slug>/id<ID>?uo=4`).
    /// A link with no two-letter storefront segment after the host keeps
    /// its path; text that is not an `https?://` link comes back as it is.
    package static func storefrontLink(_ link: String, country: String?) -> String {
        // On the UTF-8 bytes, into one new string: every result rewrites two links.
        var link = link
        return link.withUTF8 { bytes -> String in
            let isLetter = { (byte: UInt8) in (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
            // "http...://host/": the path starts at the first "/" after "://".
            guard bytes.count > 7, bytes[0] == 0x68, bytes[1] == 0x74, bytes[2] == 0x74, bytes[3] == 0x70,
                let colon = bytes.firstIndex(of: 0x3A), colon + 3 < bytes.count, bytes[colon + 1] == 0x2F, bytes[colon + 2] == 0x2F,
                let pathStart = bytes[(colon + 3)...].firstIndex(of: 0x2F)
            else { return String(decoding: bytes, as: UTF8.self) }
            let pathEnd = bytes[pathStart...].firstIndex { $0 == 0x3F || $0 == 0x23 } ?? bytes.count
            let segment = pathStart + 1
            let replace: String.UTF8View? =
                if let country, segment + 2 < pathEnd, bytes[segment + 2] == 0x2F, isLetter(bytes[segment]), isLetter(bytes[segment + 1]) {
                    country.utf8
                } else { nil }
            let query: StaticString = "?uo=4"
            let length = pathEnd + query.utf8CodeUnitCount + (replace.map { $0.count - 2 } ?? 0)
            return String(unsafeUninitializedCapacity: length) { out in
                var at = 0
                func append(_ part: UnsafeBufferPointer<UInt8>) {
                    _ = UnsafeMutableBufferPointer(rebasing: out[at..<(at + part.count)]).initialize(from: part)
                    at += part.count
                }
                if let replace {
                    append(UnsafeBufferPointer(rebasing: bytes[..<segment]))
                    for byte in replace {
                        out[at] = isLetter(byte) ? byte | 0x20 : byte
                        at += 1
                    }
                    append(UnsafeBufferPointer(rebasing: bytes[(segment + 2)..<pathEnd]))
                } else {
                    append(UnsafeBufferPointer(rebasing: bytes[..<pathEnd]))
                }
                query.withUTF8Buffer(append)
                return at
            }
        }
    }

    /// `idNNN` (any case of `id`) as a number.
    private static func idComponent(_ text: some StringProtocol) -> Int64? {
        guard text.count > 2, text.prefix(2).lowercased() == "id" else { return nil }
        return positiveID(text.dropFirst(2))
    }

    /// Digits only, a positive number that fits.
    private static func positiveID(_ text: some StringProtocol) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = Int64(text), id > 0 else {
            return nil
        }
        return id
    }
}

extension String {
    /// The text without leading and trailing whitespace.
    package var trimmingWhitespace: String {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
        return String(self[start..<end])
    }
}
