import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timestamps as the catalog stores them: ISO 8601 in UTC, to the second
/// (`2026-11-24T21:59:01Z`), or to the millisecond where a duration is
/// taken from two of them (the journal's `started_at` and `finished_at`:
/// `2026-11-24T21:59:01.250Z`). Written with `gmtime_r`, not a date
/// formatter: a formatter made per call cost a new catalog hundreds of
/// allocations, and one shared between threads is not safe.
package enum Timestamp {
    package static func now() -> String { string(from: Date()) }

    /// `date` to the second, or to the millisecond (the journal's
    /// `started_at` and `finished_at`, so that `epf history` tells a
    /// 0.04 s file from a 0.9 s one).
    package static func string(from date: Date, milliseconds: Bool = false) -> String {
        let since1970 = date.timeIntervalSince1970
        let whole = since1970.rounded(.down)
        let thousandths = milliseconds ? min(999, Int(((since1970 - whole) * 1000).rounded(.down))) : nil
        return string(seconds: Int64(whole), thousandths: thousandths)
    }

    /// An EPF `export_date` (milliseconds since 1970): `2026-11-01T00:00:00Z`,
    /// with the milliseconds when there are some.
    package static func string(fromEpochMilliseconds value: Int64) -> String {
        let seconds = value >= 0 ? value / 1000 : (value - 999) / 1000
        let thousandths = Int(value - seconds * 1000)
        return string(seconds: seconds, thousandths: thousandths == 0 ? nil : thousandths)
    }

    /// A UTC day (`2026-11-01`) as epoch milliseconds at its midnight, an
    /// EPF `export_date`; nil when it is not a day of that form.
    package static func epochMilliseconds(ofDay day: String) -> Int64? {
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.map(\.count) == [4, 2, 2], let year = Int32(parts[0]), let month = Int32(parts[1]),
            let dayOfMonth = Int32(parts[2])
        else { return nil }
        var fields = tm()
        (fields.tm_year, fields.tm_mon, fields.tm_mday) = (year - 1900, month - 1, dayOfMonth)
        let milliseconds = Int64(timegm(&fields)) * 1000
        // timegm takes 2026-02-30 for March 2nd: a day is one that reads back.
        return string(fromEpochMilliseconds: milliseconds).hasPrefix(day) ? milliseconds : nil
    }

    /// `YYYY-MM-DDTHH:MM:SS[.mmm]Z` as seconds since 1970; nil for other
    /// text.
    package static func epochSeconds(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 24, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        for (index, separator) in zip([4, 7, 10, 13, 16], "--T::".utf8) where bytes[index] != separator { return nil }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var thousandths: Int32 = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let fraction = number(20..<23) else { return nil }
            thousandths = fraction
        }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        return Double(timegm(&parts)) + Double(thousandths) / 1000
    }

    /// A stored timestamp to the second (`...:01.250Z` becomes `...:01Z`);
    /// other text as it is.
    package static func toTheSecond(_ stored: String) -> String {
        let bytes = Array(stored.utf8)
        guard bytes.count > 20, bytes[19] == UInt8(ascii: "."), bytes.last == UInt8(ascii: "Z") else { return stored }
        return String(decoding: bytes[..<19], as: UTF8.self) + "Z"
    }

    /// Epoch milliseconds as RSS and HTTP write a date (RFC 2822, UTC):
    /// `Sun, 01 Nov 2026 00:00:00 +0000`.
    package static func rfc2822(fromEpochMilliseconds value: Int64) -> String {
        var time = time_t(value >= 0 ? value / 1000 : (value - 999) / 1000)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][Int(parts.tm_wday)]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][Int(parts.tm_mon)]
        return
            "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }

    private static func string(seconds: Int64, thousandths: Int?) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text =
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        if let thousandths {
            let digits = String(thousandths)
            text += "." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return text + "Z"
    }
}
