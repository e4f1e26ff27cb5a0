import Foundation
import Testing

/// Three generated itunes days (`epf generate`, two storefronts), as the
/// crash tests import them: day 1 (FULL, 1,500 applications), day 2 (FULL,
/// 2,000) and day 3 (INCREMENTAL, rewriting the first 800 applications,
/// without prices).
public struct GeneratedDays: Sendable {
    /// `itunes20261201`: FULL, 1,500 applications.
    public let day1: String
    /// `itunes20261202`: FULL, 2,000 applications.
    public let day2: String
    /// `itunes20261203`: INCREMENTAL, the first 800 applications rewritten.
    public let day3: String

    /// Generates the three days into `folder`.
    public init(in folder: URL) throws {
        day1 = folder.appendingPathComponent("itunes20261201").path
        day2 = folder.appendingPathComponent("itunes20261202").path
        day3 = folder.appendingPathComponent("itunes20261203").path
        for (path, rows, seed) in [(day1, 1500, 1), (day2, 2000, 2), (day3, 800, 3)] {
            let generated = try EPFRunner.run(
                ["generate", "--out", path, "--rows", "\(rows)", "--seed", "\(seed)", "--storefronts", "2"], in: folder)
            #expect(generated.status == 0, "\(generated.stderr)")
        }
        try Self.makeIncremental(day3)
    }

    /// A generated day's application table as an INCREMENTAL file, its
    /// prices gone.
    public static func makeIncremental(_ folder: String) throws {
        let path = (folder as NSString).appendingPathComponent("application")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let mode = try #require(bytes.range(of: Data("#exportMode:FULL".utf8)))
        bytes.replaceSubrange(mode, with: Data("#exportMode:INCREMENTAL".utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent("application_price"))
    }
}
