import EPFTestSupport
import Foundation
import Testing

/// `--log-format json`: every line on standard error is one JSON object
/// with a time, a level and the message, and the fields of what it tells.
@Suite("epf --log-format json")
struct LogFormatTests {
    /// Standard error's lines, each parsed as a JSON object.
    static func objects(_ stderr: String) throws -> [[String: Any]] {
        try stderr.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test("An import: a line per file read and per file in the summary, with its fields; a failed file is an error")
    func importLogsJSONLines() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), "--log-format", "json"] + SampleFeeds.pathsInOrder)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try Self.objects(result.stderr)
        for line in lines {
            #expect(line["time"] is String && line["level"] is String && line["message"] is String, "\(line)")
        }
        #expect(!result.stderr.contains("\u{1B}"))
        let reading = lines.filter { $0["event"] as? String == "reading" }
        #expect(reading.count == 14)
        #expect(reading.first?["table"] as? String == "application")
        let repaired = try #require(lines.first { $0["level"] as? String == "warning" })
        #expect(repaired["table"] as? String == "application" && repaired["repaired"] as? Int == 1, "\(repaired)")
        let applied = lines.filter { $0["status"] as? String == "applied" && $0["event"] == nil }
        #expect(applied.count == 15, "\(applied)")  // 14 files in the summary, and the warning's line
        let summary = try #require(lines.last)
        #expect(summary["event"] as? String == "summary" && summary["applied"] as? Int == 14 && summary["rows"] as? Int == 733)

        let damaged = cli.path("application")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: SampleFeeds.path("itunes20261101") + "/application"))
        try bytes.prefix(3000).write(to: URL(fileURLWithPath: damaged))
        let failing = try cli.run(["import", "--db", cli.path("c.sqlite"), "--log-format", "json", damaged])
        #expect(failing.status == 1)
        let errors = try Self.objects(failing.stderr).filter { $0["level"] as? String == "error" }
        let error = try #require(errors.first)
        #expect(error["file"] as? String == damaged && error["table"] as? String == "application", "\(error)")
        #expect((error["message"] as? String)?.contains("byte 2732: the file ends inside a row") == true, "\(error)")
        #expect(errors.last?["event"] as? String == "summary" && errors.last?["failed"] as? Int == 1)

        // An error of the command itself: one JSON line at level error.
        let missing = try cli.run(["import", "--db", cli.path("c.sqlite"), "--log-format", "json", cli.path("nowhere")])
        #expect(missing.status == 1)
        let said = try Self.objects(missing.stderr)
        #expect(said.count == 1 && said.first?["level"] as? String == "error", "\(missing.stderr)")
    }

    @Test func textStaysTheDefault() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["import", "--db", cli.path("c.sqlite"), SampleFeeds.path("itunes20261101")])
        #expect(result.status == 0)
        #expect(result.stderr.contains("9 file(s) applied, 0 failed") && !result.stderr.contains("{\""), "\(result.stderr)")
        let bad = try cli.run(["import", "--log-format", "xml", SampleFeeds.path("itunes20261101")])
        #expect(bad.status == 64)
    }
}
