import Foundation

/// Timestamps as the journal stores them: ISO 8601 in UTC, to the second.
package enum Timestamp {
    package static func now() -> String { string(from: Date()) }

    package static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
