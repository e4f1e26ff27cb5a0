import EPFTestSupport
import Foundation
import Testing

/// `epf import --flat` and `--record-separator`/`--field-separator`: the
/// same rows as EPF Relational files, EPF Flat files (plain and in a
/// `.tbz`) and custom-separator files give equal tables, over a FULL and an
/// INCREMENTAL day.
@Suite("epf import --flat")
struct FlatFilesTests {
    /// Writes the relational table `file` as `to` with other separators;
    /// the generated fields hold none of them.
    static func reseparate(_ file: String, to: String, record: String, field: String) throws {
        let bytes = try String(contentsOfFile: file, encoding: .utf8)
        try #require(!bytes.contains("\t") && !bytes.replacingOccurrences(of: "\u{2}\n", with: "").contains("\n"))
        try FileManager.default.createDirectory(atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try bytes.replacingOccurrences(of: "\u{2}\n", with: record).replacingOccurrences(of: "\u{1}", with: field)
            .write(toFile: to, atomically: true, encoding: .utf8)
    }

    static func table(_ cli: CLIRunner, _ db: String) throws -> String {
        let result = try cli.run([
            "sql", "--db", db, "--format", "csv", "SELECT * FROM application_price ORDER BY application_id, storefront_id",
        ])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test("relational, flat, flat in a .tbz and custom-separator days give equal tables")
    func sameRowsInEveryForm() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let full = try StorefrontFilterTests.pricingDay(cli, "pricing20261201", rows: 200, storefronts: 3)
        let incremental = try StorefrontFilterTests.pricingDay(
            cli, "pricing20261202", rows: 200, storefronts: 3, seed: 2, incremental: true)
        for day in ["pricing20261201", "pricing20261202"] {
            let source = cli.path(day + "/application_price")
            try Self.reseparate(source, to: cli.path("flat/\(day)/application_price.txt"), record: "\n", field: "\t")
            try Self.reseparate(source, to: cli.path("custom/\(day)/application_price"), record: "|~\n", field: ";")
        }
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = [
            "tar", "-cjf", cli.path("tbz/pricing20261201.tbz"), "-C", cli.path("flat/pricing20261201"), "application_price.txt",
        ]
        try FileManager.default.createDirectory(atPath: cli.path("tbz"), withIntermediateDirectories: true)
        try tar.run()
        tar.waitUntilExit()
        try #require(tar.terminationStatus == 0)

        let relational = try cli.run(["import", "--db", cli.path("r.sqlite"), full, incremental])
        try #require(relational.status == 0, "\(relational.stderr)")
        let flat = try cli.run([
            "import", "--flat", "--db", cli.path("f.sqlite"), cli.path("flat/pricing20261201"), cli.path("flat/pricing20261202"),
        ])
        try #require(flat.status == 0, "\(flat.stderr)")
        #expect(flat.stderr.contains("application_price  INCREMENTAL  applied"), "\(flat.stderr)")
        let archived = try cli.run([
            "import", "--flat", "--db", cli.path("t.sqlite"), cli.path("tbz/pricing20261201.tbz"), cli.path("flat/pricing20261202"),
        ])
        try #require(archived.status == 0, "\(archived.stderr)")
        let custom = try cli.run([
            "import", "--record-separator", "|~\\n", "--field-separator", ";", "--db", cli.path("c.sqlite"),
            cli.path("custom/pricing20261201"), cli.path("custom/pricing20261202"),
        ])
        try #require(custom.status == 0, "\(custom.stderr)")

        let expected = try Self.table(cli, cli.path("r.sqlite"))
        #expect(expected.split(separator: "\n").count > 600)
        #expect(try Self.table(cli, cli.path("f.sqlite")) == expected)
        #expect(try Self.table(cli, cli.path("t.sqlite")) == expected)
        #expect(try Self.table(cli, cli.path("c.sqlite")) == expected)

        // The journal keeps how each file was read.
        let journal = try cli.run(["sql", "--db", cli.path("f.sqlite"), "--format", "csv", "SELECT details FROM epf_journal"])
        #expect(journal.stdout.contains("\"\"separators\"\":\"\"\\\\n|\\\\t\"\""), "\(journal.stdout)")
    }

    @Test("without --flat, flat files are not table files; epf verify --flat reads them")
    func flatNeedsTheOption() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let full = try StorefrontFilterTests.pricingDay(cli, "pricing20261201", rows: 50, storefronts: 2)
        try Self.reseparate(
            full + "/application_price", to: cli.path("flat/pricing20261201/application_price.txt"), record: "\n", field: "\t")
        let plain = try cli.run(["import", "--db", cli.path("x.sqlite"), cli.path("flat/pricing20261201")])
        #expect(plain.status == 0)
        #expect(plain.stderr.contains("application_price.txt: not a table file or archive: ignored"), "\(plain.stderr)")
        let verified = try cli.run(["verify", "--flat", cli.path("flat/pricing20261201")])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stderr.contains("clean"), "\(verified.stderr)")
        // Read with another record separator, the flat file's header never ends.
        let wrong = try cli.run([
            "verify", "--flat", "--record-separator", "|~\\n", cli.path("flat/pricing20261201/application_price.txt"),
        ])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("the header row is not terminated by 0x7C 0x7E 0x0A"), "\(wrong.stderr)")
        let bad = try cli.run(["import", "--record-separator", "\\n", "--field-separator", "\\n", full])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("part of the record separator"), "\(bad.stderr)")
    }
}
