/// A feed folder's or archive's name: `itunes20261101` (or with an hour,
/// `itunes2026110100`) means feed `itunes`, dated 2026-11-01.
package struct FeedName: Sendable, Hashable, Codable, Comparable {
    package var feed: String
    /// `YYYYMMDD`.
    package var date: String

    /// Parses `<letters/underscores><8 digits>[2 digits]`; nil otherwise.
    package init?(_ name: String) {
        let scalars = Array(name.utf8)
        var digitsStart = scalars.count
        while digitsStart > 0, scalars[digitsStart - 1] >= 0x30, scalars[digitsStart - 1] <= 0x39 {
            digitsStart -= 1
        }
        let digitCount = scalars.count - digitsStart
        guard digitsStart > 0, digitCount == 8 || digitCount == 10 else { return nil }
        let letters = scalars[..<digitsStart]
        guard letters.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || ($0 >= 0x41 && $0 <= 0x5A) }) else {
            return nil
        }
        let digits = String(decoding: scalars[digitsStart..<(digitsStart + 8)], as: UTF8.self)
        let month = Int(digits.dropFirst(4).prefix(2)) ?? 0
        let day = Int(digits.suffix(2)) ?? 0
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        feed = String(decoding: letters, as: UTF8.self)
        date = digits
    }

    /// The date as `YYYY-MM-DD`.
    package var isoDate: String {
        "\(date.prefix(4))-\(date.dropFirst(4).prefix(2))-\(date.suffix(2))"
    }

    package static func < (lhs: FeedName, rhs: FeedName) -> Bool {
        (lhs.date, lhs.feed) < (rhs.date, rhs.feed)
    }
}
