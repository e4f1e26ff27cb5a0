import Foundation

/// One entry of a server's directory listing: a file or a folder directly
/// inside the listed folder.
package struct ListingEntry: Sendable, Hashable {
    /// The name, percent-decoded, without a trailing `/`.
    package var name: String
    /// Whether the link names a folder (its href ends with `/`).
    package var isFolder: Bool
    /// The size the listing shows, in bytes, when it shows one (exact from
    /// nginx or Apache with exact sizes; rounded from `1.2M`-style columns).
    package var size: Int64?

    package init(name: String, isFolder: Bool, size: Int64? = nil) {
        self.name = name
        self.isFolder = isFolder
        self.size = size
    }
}

/// Reads Apache- and nginx-style HTML directory listings (`<a href="itunes20261101/">`,
/// `<a href="application.tbz">` with or without date and size columns, in a
/// `<pre>` or a `<table>`).
package enum DirectoryListing {
    /// The entries of the listing `html` of the folder at `url` (which ends
    /// with `/`), in the listing's order, each name once. Links that do not
    /// name something directly inside the folder are ignored: the parent
    /// (`../`), sort links (`?C=N;O=D`), fragments, and absolute links that
    /// lead elsewhere; an absolute link into the folder counts.
    package static func parse(_ html: String, url: URL) -> [ListingEntry] {
        let folder = url.absoluteString.hasSuffix("/") ? url.absoluteString : url.absoluteString + "/"
        guard let base = URL(string: folder) else { return [] }
        var entries: [ListingEntry] = []
        var seen: Set<String> = []
        let text = Array(html.utf8)
        var index = 0
        while let anchor = find(Array("<a ".utf8), in: text, from: index, caseInsensitive: true) {
            guard let tagEnd = text[anchor...].firstIndex(of: UInt8(ascii: ">")) else { break }
            index = tagEnd + 1
            guard let href = attribute("href", in: text[anchor..<tagEnd]) else { continue }
            let closing = find(Array("</a>".utf8), in: text, from: index, caseInsensitive: true) ?? text.count
            // What follows the link up to the next link or line: the date and size columns.
            let next = find(Array("<a ".utf8), in: text, from: closing, caseInsensitive: true) ?? text.count
            let lineEnd = text[closing..<next].firstIndex(of: UInt8(ascii: "\n")) ?? next
            let trailing = stripTags(text[min(closing + 4, lineEnd)..<lineEnd])
            index = closing
            guard let entry = entry(href: decodeEntities(href), base: base, trailing: trailing) else { continue }
            if seen.insert(entry.name).inserted { entries.append(entry) }
        }
        return entries
    }

    /// The entry an href names, when it is directly inside `base`.
    static func entry(href: String, base: URL, trailing: String) -> ListingEntry? {
        guard !href.isEmpty, !href.hasPrefix("?"), !href.hasPrefix("#"), !href.contains("?"), !href.contains("#") else { return nil }
        guard let resolved = URL(string: href, relativeTo: base)?.absoluteURL else { return nil }
        // Scheme and host compare without case; an explicit default port is the same place.
        guard resolved.scheme?.lowercased() == base.scheme?.lowercased(),
            resolved.host?.lowercased() == base.host?.lowercased(),
            (resolved.port ?? defaultPort(resolved.scheme)) == (base.port ?? defaultPort(base.scheme))
        else { return nil }
        // Compare paths: the link must be one level below the folder.
        let basePath = base.path(percentEncoded: true)
        let full = resolved.path(percentEncoded: true)
        let folderPath = basePath.hasSuffix("/") ? basePath : basePath + "/"
        guard full.hasPrefix(folderPath), full.count > folderPath.count else { return nil }
        var rest = String(full.dropFirst(folderPath.count))
        let isFolder = rest.hasSuffix("/")
        if isFolder { rest.removeLast() }
        guard !rest.isEmpty, !rest.contains("/"), let name = rest.removingPercentEncoding, name != ".", name != ".." else { return nil }
        return ListingEntry(name: name, isFolder: isFolder, size: isFolder ? nil : size(in: trailing))
    }

    static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }

    /// The size column: the last word after the link, in bytes (`1048576`)
    /// or with a unit (`1.2M`, `340K`, `2G`); nil for `-` or nothing.
    static func size(in trailing: String) -> Int64? {
        guard let last = trailing.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).last else { return nil }
        var word = Substring(last)
        if let exact = Int64(word) { return exact }
        let units: [Character: Double] = ["K": 1024, "M": 1024 * 1024, "G": 1024 * 1024 * 1024, "T": 1024 * 1024 * 1024 * 1024]
        guard let unit = word.last.flatMap({ units[Character($0.uppercased())] }) else { return nil }
        word = word.dropLast()
        guard let number = Double(word), number >= 0 else { return nil }
        return Int64(number * unit)
    }

    /// The value of attribute `name` in a tag's bytes (quoted or not).
    static func attribute(_ name: String, in tag: ArraySlice<UInt8>) -> String? {
        let bytes = Array(tag)
        var from = 0
        while let at = find(Array((name + "=").utf8), in: bytes, from: from, caseInsensitive: true) {
            from = at + 1
            // The attribute name must start a word.
            if at > 0, !(bytes[at - 1] == 0x20 || bytes[at - 1] == 0x09 || bytes[at - 1] == 0x0A || bytes[at - 1] == 0x0D) { continue }
            var start = at + name.utf8.count + 1
            guard start < bytes.count else { return nil }
            let quote = bytes[start]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                start += 1
                guard let end = bytes[start...].firstIndex(of: quote) else { return nil }
                return String(decoding: bytes[start..<end], as: UTF8.self)
            }
            let end =
                bytes[start...].firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: ">") }
                ?? bytes.count
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        return nil
    }

    static func stripTags(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var inTag = false
        for byte in bytes {
            if byte == UInt8(ascii: "<") {
                inTag = true
                out.append(0x20)
            } else if byte == UInt8(ascii: ">") {
                inTag = false
            } else if !inTag {
                out.append(byte)
            }
        }
        return decodeEntities(String(decoding: out, as: UTF8.self))
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&nbsp;", with: " ").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int, caseInsensitive: Bool) -> Int? {
        guard !needle.isEmpty, from <= bytes.count - needle.count else { return nil }
        func lower(_ byte: UInt8) -> UInt8 { caseInsensitive && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        let first = lower(needle[0])
        var index = from
        while index <= bytes.count - needle.count {
            if lower(bytes[index]) == first {
                var matched = true
                for offset in 1..<needle.count where lower(bytes[index + offset]) != lower(needle[offset]) {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
