import EPFCatalog
import Foundation
import Testing

/// The catalog's timestamps: ISO 8601 in UTC to the second or the
/// millisecond, the same text as Foundation's formatter writes; EPF's
/// export dates and stored timestamps as `epf tables` and `epf history` show them.
@Suite("Timestamps")
struct TimestampTests {
    @Test(arguments: [0, 951_782_400, 1_764_021_541, 1_767_225_599, 4_102_444_800.9])
    func writesWhatTheISOFormatterWrites(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        #expect(Timestamp.string(from: date) == formatter.string(from: date))
    }

    @Test(arguments: [0, 951_782_400.5, 1_764_021_541.042, 1_767_225_599.999, 4_102_444_800.9])
    func toTheMillisecondWritesWhatTheISOFormatterWrites(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(Timestamp.string(from: date, milliseconds: true) == formatter.string(from: date))
    }

    @Test func exportDatesAndStoredTimestampsAsDates() {
        #expect(Timestamp.string(fromEpochMilliseconds: 1_793_491_200_000) == "2026-11-01T00:00:00Z")
        #expect(Timestamp.string(fromEpochMilliseconds: 1_793_491_200_007) == "2026-11-01T00:00:00.007Z")
        #expect(Timestamp.string(fromEpochMilliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp.toTheSecond("2026-11-24T21:59:01.250Z") == "2026-11-24T21:59:01Z")
        #expect(Timestamp.toTheSecond("2026-11-24T21:59:01Z") == "2026-11-24T21:59:01Z")
        #expect(Timestamp.toTheSecond("yesterday") == "yesterday")
    }

    @Test func aDayAsAnExportDate() {
        #expect(Timestamp.epochMilliseconds(ofDay: "2026-11-01") == 1_793_491_200_000)
        #expect(Timestamp.epochMilliseconds(ofDay: "1970-01-01") == 0)
        #expect(Timestamp.epochMilliseconds(ofDay: "2024-02-29") == 1_709_164_800_000)
        for notADay in ["2026-02-30", "2026-13-01", "2026-11-1", "20261101", "2026-11-01T00:00:00Z", "+026-11-01", "", "yesterday"] {
            #expect(Timestamp.epochMilliseconds(ofDay: notADay) == nil, "\(notADay)")
        }
    }

    @Test func aStoredTimestampReadBack() {
        #expect(Timestamp.epochSeconds("2026-11-24T21:59:01Z") == 1_795_557_541)
        #expect(Timestamp.epochSeconds("2026-11-24T21:59:01.250Z") == 1_795_557_541.25)
        #expect(
            Timestamp.epochSeconds(Timestamp.string(from: Date(timeIntervalSince1970: 1_795_557_541.5), milliseconds: true))
                == 1_795_557_541.5)
        for text in ["", "yesterday", "2026-11-24", "2026-11-24T21:59:01", "2026-11-24 21:59:01Z"] {
            #expect(Timestamp.epochSeconds(text) == nil, "\(text)")
        }
    }

    @Test func anExportDateAsRSSWritesADate() {
        #expect(Timestamp.rfc2822(fromEpochMilliseconds: 1_793_491_200_000) == "Sun, 01 Nov 2026 00:00:00 +0000")
        #expect(Timestamp.rfc2822(fromEpochMilliseconds: 1_730_089_798_000) == "Mon, 28 Oct 2024 04:29:58 +0000")
        #expect(Timestamp.rfc2822(fromEpochMilliseconds: -1) == "Wed, 31 Dec 1969 23:59:59 +0000")
    }

    @Test func aKnownMoment() {
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_764_021_541)) == "2025-11-24T21:59:01Z")
    }
}
