import EPFTestSupport
import Foundation
import Testing

@Suite("epf verify")
struct VerifyCommandTests {
    @Test func sampleFeedsVerifyWithoutACatalog() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try cli.run(["verify", SampleFeeds.folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("14 file(s) verified: 13 clean, 1 repairable, 0 damaged"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.path("catalog.sqlite")))
        // --require-clean: a repairable file is not good enough.
        let strict = try cli.run(["verify", "--require-clean", SampleFeeds.path("itunes20261101")])
        #expect(strict.status == 1)
    }

    @Test func damagedFileExitsOneWithItsPlace() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let feed = cli.path("itunes20261103")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: SampleFeeds.path("itunes20261101") + "/storefront"))
        bytes.removeLast(5)
        try bytes.write(to: URL(fileURLWithPath: feed + "/storefront"))
        let result = try cli.run(["verify", "--format", "json", feed])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["damaged"] as? Int == 1)
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        #expect(file["status"] as? String == "damaged")
        let error = try #require(file["error"] as? String)
        #expect(error.hasPrefix("\(feed)/storefront: byte "), "\(error)")
        #expect(error.contains("#recordsWritten footer row"))
        #expect(result.stderr.contains("error: \(feed)/storefront: byte "))
    }

    @Test func repeatedKeysAreListedWithTheirRecords() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let feed = cli.path("itunes20261103")
        try FileManager.default.createDirectory(atPath: feed, withIntermediateDirectories: true)
        let rows = [
            "#export_date\u{1}genre_id\u{1}name", "#primaryKey:genre_id", "#dbTypes:BIGINT\u{1}INTEGER\u{1}VARCHAR(200)",
            "#exportMode:FULL", "1\u{1}6014\u{1}Games", "1\u{1}6015\u{1}Finance", "1\u{1}06014\u{1}Games again", "#recordsWritten:3",
        ]
        try Data(rows.map { $0 + "\u{2}\n" }.joined().utf8).write(to: URL(fileURLWithPath: feed + "/genre"))
        let result = try cli.run(["verify", "--format", "csv", feed])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "table,mode,status,rows,repaired,skipped,as_text,seconds,file,error")
        #expect(lines.count == 2 && lines[1].hasPrefix("genre,FULL,repairable,3,0,1,0,"), "\(result.stdout)")
        let table = try cli.run(["verify", feed])
        #expect(table.stderr.contains("repeated key: \(feed)/genre: (6014) in 2 rows, record 1 (byte "), "\(table.stderr)")
    }
}
