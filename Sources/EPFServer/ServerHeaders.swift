import Foundation

/// The `Date` header's value (`Wed, 25 Nov 2026 01:12:38 GMT`, RFC 9110's
/// IMF-fixdate), formatted again only when the second changes.
struct HTTPDate {
    private var second: time_t = -1
    private var text = ""

    /// Now, to the second.
    var now: String {
        mutating get {
            let current = time(nil)
            if current != second {
                second = current
                text = Self.format(current)
            }
            return text
        }
    }

    static func format(_ time: time_t) -> String {
        var t = time
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
