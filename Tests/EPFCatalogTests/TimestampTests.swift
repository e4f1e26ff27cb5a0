import EPFCatalog
import Foundation
import Testing

/// The journal's timestamps: ISO 8601 in UTC to the second, the same text
/// as Foundation's formatter writes.
@Suite("Timestamps")
struct TimestampTests {
    @Test(arguments: [0, 951_782_400, 1_764_021_541, 1_767_225_599, 4_102_444_800.9])
    func writesWhatTheISOFormatterWrites(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        #expect(Timestamp.string(from: date) == formatter.string(from: date))
    }

    @Test func aKnownMoment() {
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_764_021_541)) == "2025-11-24T21:59:01Z")
    }
}
