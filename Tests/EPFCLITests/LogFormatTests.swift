import EPFTestSupport
import Foundation
import Testing

/// `--log-format json`: every line on standard error is one JSON object
/// with a time, a level and the message, and the fields of what it tells.
@Suite("epf --log-format json")
struct LogFormatTests {
    /// The sample `application` file cut inside its fourth record, in the
    /// runner's folder: its path.
    static func cutApplication(_ cli: CLIRunner) throws -> String {
        let damaged = cli.path("application")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: SampleFeeds.path("itunes20261101") + "/application"))
        try bytes.prefix(3000).write(to: URL(fileURLWithPath: damaged))
        return damaged
    }

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

        let damaged = try Self.cutApplication(cli)
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

    /// Text stays the default, and says what the JSON lines say: each of
    /// their messages (but the summary's lines per file, which the text's
    /// table gives) is a line of the text, word for word.
    @Test func textStaysTheDefaultAndSaysTheSame() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let damaged = try Self.cutApplication(cli)
        let paths = SampleFeeds.pathsInOrder + [damaged]
        let text = try cli.run(["import", "--db", cli.path("text.sqlite")] + paths)
        let json = try cli.run(["import", "--db", cli.path("json.sqlite"), "--log-format", "json"] + paths)
        #expect(text.status == 1 && json.status == 1)
        #expect(!text.stderr.contains("{\""), "\(text.stderr)")
        let lines = Set(text.stderr.split(separator: "\n").map(String.init))
        let objects = try Self.objects(json.stderr)
        // The summary's lines per file are the text's table; its closing
        // line names the catalog, and its time differs from run to run.
        let said = objects.filter { object in
            object["event"] as? String != "summary"
                && (object["event"] != nil || object["status"] == nil || object["level"] as? String == "warning")
        }
        #expect(said.count > 15)
        for object in said {
            let message = try #require(object["message"] as? String)
            #expect(lines.contains(message), "not in the text: \(message)")
        }
        let closing = try #require(objects.last?["message"] as? String)
        #expect(
            closing.hasPrefix("14 file(s) applied, 1 failed, 733 rows in ")
                && lines.contains { $0.hasPrefix("14 file(s) applied, 1 failed, 733 rows in ") })
        let bad = try cli.run(["import", "--log-format", "xml", SampleFeeds.path("itunes20261101")])
        #expect(bad.status == 64)
    }

    /// `epf verify --log-format json`: a line per file at the level of what
    /// it found, and the counts.
    @Test func verifyLogsAFileALine() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let damaged = try Self.cutApplication(cli)
        let result = try cli.run(["verify", "--log-format", "json", SampleFeeds.path("itunes20261101"), damaged])
        #expect(result.status == 1)
        let lines = try Self.objects(result.stderr)
        let files = lines.filter { $0["kept_as_text"] != nil }
        #expect(files.count == 10, "\(files)")
        let broken = try #require(files.first { $0["file"] as? String == damaged })
        #expect(broken["level"] as? String == "error" && broken["status"] as? String == "damaged")
        #expect((broken["error"] as? String)?.contains("the file ends inside a row") == true, "\(broken)")
        let repaired = try #require(files.first { $0["status"] as? String == "repairable" }, "\(files)")
        #expect(repaired["level"] as? String == "warning" && repaired["repaired"] as? Int == 1)
        let summary = try #require(lines.last)
        #expect(summary["event"] as? String == "summary" && summary["damaged"] as? Int == 1 && summary["level"] as? String == "error")
    }
}
