import EPFCatalogCore

/// The JSON of a `SearchResponse`, written straight into bytes: the same
/// bytes `JSONEncoder` gives with `.sortedKeys` and
/// `.withoutEscapingSlashes` (a test compares the two on every sample
/// application), in a tenth of the time, but for `price`: Apple writes it
/// with two decimals (`"price":0.00`, `"price":2.99`, `"price":2000.00`
/// in JPY), which `JSONEncoder` cannot (it writes `0`, `2.99`, `2000`). Measured on a catalog of 1M
/// applications: `JSONEncoder` took 19 µs of a 47 µs lookup, about as
/// much as the five queries behind it.
///
/// Keys come in sorted order (`SoftwareResult.CodingKeys` sorted as
/// `JSONEncoder` sorts them); fields that are nil are left out.
extension SearchResponse {
    /// The response as JSON (UTF-8, no trailing newline).
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(512 + results.count * 2048)
        writer.raw("{\"resultCount\":")
        writer.integer(Int64(resultCount))
        writer.raw(",\"results\":[")
        for (index, result) in results.enumerated() {
            if index > 0 { writer.raw(",") }
            result.write(into: &writer)
        }
        writer.raw("]}")
        return writer.bytes
    }
}

extension SoftwareResult {
    fileprivate func write(into writer: inout JSONWriter) {
        writer.raw("{")
        var first = true
        func key(_ name: String) {
            writer.raw(first ? "\"" : ",\"")
            writer.raw(name)
            writer.raw("\":")
            first = false
        }
        // Alphabetical, as JSONEncoder's .sortedKeys.
        if let artistId { key("artistId"); writer.integer(artistId) }
        if let artistName { key("artistName"); writer.string(artistName) }
        if let artistViewUrl { key("artistViewUrl"); writer.string(artistViewUrl) }
        if let artworkUrl100 { key("artworkUrl100"); writer.string(artworkUrl100) }
        if let artworkUrl512 { key("artworkUrl512"); writer.string(artworkUrl512) }
        if let artworkUrl60 { key("artworkUrl60"); writer.string(artworkUrl60) }
        if let contentAdvisoryRating { key("contentAdvisoryRating"); writer.string(contentAdvisoryRating) }
        if let currency { key("currency"); writer.string(currency) }
        if let description { key("description"); writer.string(description) }
        if let fileSizeBytes { key("fileSizeBytes"); writer.string(fileSizeBytes) }
        if let formattedPrice { key("formattedPrice"); writer.string(formattedPrice) }
        if let genreIds { key("genreIds"); writer.strings(genreIds) }
        if let genres { key("genres"); writer.strings(genres) }
        if let ipadScreenshotUrls { key("ipadScreenshotUrls"); writer.strings(ipadScreenshotUrls) }
        key("kind"); writer.string(kind)
        if let languageCodesISO2A { key("languageCodesISO2A"); writer.strings(languageCodesISO2A) }
        if let popularity {
            key("popularity")
            writer.raw("[")
            for (index, rank) in popularity.enumerated() {
                writer.raw(index == 0 ? "{\"genreId\":" : ",{\"genreId\":")
                writer.string(rank.genreId)
                if let name = rank.genreName {
                    writer.raw(",\"genreName\":")
                    writer.string(name)
                }
                writer.raw(",\"rank\":")
                writer.integer(Int64(rank.rank))
                writer.raw("}")
            }
            writer.raw("]")
        }
        if let price { key("price"); writer.price(price) }
        if let primaryGenreId { key("primaryGenreId"); writer.integer(primaryGenreId) }
        if let primaryGenreName { key("primaryGenreName"); writer.string(primaryGenreName) }
        if let releaseDate { key("releaseDate"); writer.string(releaseDate) }
        if let releaseNotes { key("releaseNotes"); writer.string(releaseNotes) }
        if let screenshotUrls { key("screenshotUrls"); writer.strings(screenshotUrls) }
        if let sellerName { key("sellerName"); writer.string(sellerName) }
        if let sellerUrl { key("sellerUrl"); writer.string(sellerUrl) }
        if let supportedDevices { key("supportedDevices"); writer.strings(supportedDevices) }
        if let trackCensoredName { key("trackCensoredName"); writer.string(trackCensoredName) }
        if let trackContentRating { key("trackContentRating"); writer.string(trackContentRating) }
        key("trackId"); writer.integer(trackId)
        if let trackName { key("trackName"); writer.string(trackName) }
        if let trackViewUrl { key("trackViewUrl"); writer.string(trackViewUrl) }
        if let version { key("version"); writer.string(version) }
        key("wrapperType"); writer.string(wrapperType)
        writer.raw("}")
    }
}

/// Appends JSON values to a byte buffer.
struct JSONWriter {
    var bytes: [UInt8] = []

    /// Text that needs no escaping (keys, punctuation).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func integer(_ value: Int64) {
        raw(String(value))
    }

    /// A price as Apple writes it: rounded to two decimals (EPF's
    /// `DECIMAL(9,3)` prices are whole cents), always both written
    /// (`0.00`, `2.99`, `120.00`). Beyond 1e15 (no real price),
    /// the shortest form that reads back the same.
    mutating func price(_ value: Double) {
        let cents = (value * 100).rounded()
        guard abs(cents) < 1e17 else {
            raw(String(value))
            return
        }
        let whole = Int64(abs(cents))
        if cents < 0 { raw("-") }
        integer(whole / 100)
        let fraction = whole % 100
        raw(fraction < 10 ? ".0" : ".")
        integer(fraction)
    }

    /// A string with JSON's escapes: quote, backslash and control
    /// characters; `/` and everything from U+007F up as it is. Runs of
    /// bytes that need no escape (nearly all of a description) are copied
    /// whole; they are found 8 bytes at a time (one 64-bit word, bit
    /// tricks that are exact for "any byte"), the bytes of a word that
    /// holds an escape one by one. (`SIMD16<UInt8>`'s `.<` compiled to a
    /// per-lane loop here: 45% of a 50-ID lookup's time.)
    mutating func string(_ text: String) {
        bytes.append(0x22)
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            var start = 0
            var index = 0
            while index < utf8.count {
                if index + 8 <= utf8.count, !Self.needsEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    index += 8
                    continue
                }
                let end = min(index + 8, utf8.count)
                while index < end {
                    let byte = utf8[index]
                    if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                        if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
                        escape(byte)
                        start = index + 1
                    }
                    index += 1
                }
            }
            if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        }
        bytes.append(0x22)
    }

    /// Whether a word holds a byte JSON escapes: one below 0x20, a quote
    /// or a backslash. `(x - 0x20 each) & ~x & 0x80 each` is set exactly
    /// when some byte of `x` is below 0x20 (a byte from 0x80 up has its
    /// top bit, which `~x` clears); a byte equal to `c` is a zero byte of
    /// `x ^ c each`.
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func below(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &- ones &* n) & ~x & highs }
        return below(word, 0x20) | below(word ^ (ones &* 0x22), 1) | below(word ^ (ones &* 0x5C), 1) != 0
    }

    /// The escape of a quote, a backslash or a control character.
    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        default:
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
            }
        }
    }

    mutating func strings(_ texts: [String]) {
        bytes.append(0x5B)
        for (index, text) in texts.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            string(text)
        }
        bytes.append(0x5D)
    }
}
