import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timestamps as the journal stores them: ISO 8601 in UTC, to the second
/// (`2026-11-24T21:59:01Z`). Written with `gmtime_r`, not a date
/// formatter: a formatter made per call cost a new catalog hundreds of
/// allocations, and one shared between threads is not safe.
package enum Timestamp {
    package static func now() -> String { string(from: Date()) }

    package static func string(from date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
