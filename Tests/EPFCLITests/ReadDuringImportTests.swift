import EPFTestSupport
import Foundation
import Testing

/// Queries while another process imports into the same catalog: answers
/// come from the catalog as it was until the import applies, then from the
/// new one; never an error, never a mix.
@Suite("Reading while an import runs")
struct ReadDuringImportTests {
    @Test func searchesDuringAFullImportSeeTheOldCatalogOrTheNewOne() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        // The file format bytes (18 and 19) of a WAL database are 2.
        let header = try #require(FileHandle(forReadingAtPath: db)).readData(ofLength: 20)
        #expect(Array(header.suffix(2)) == [2, 2], "a catalog that has been imported once is in WAL mode")

        // A newer FULL itunes day: a generated application table (titles
        // drawn from a vocabulary holding "Chess") priced in the US.
        let feed = cli.path("itunes20261201")
        let generated = try cli.run(["generate", "--out", feed, "--rows", "20000", "--storefronts", "1"])
        #expect(generated.status == 0, "\(generated.stderr)")

        let search = ["search", "--db", db, "chess", "--format", "csv", "--limit", "20"]
        let before = try cli.run(search)
        #expect(before.status == 0, "\(before.stderr)")

        let importer = try EPFRunner.process(["import", "--db", db, feed], in: cli.folder)
        let log = cli.path("import.log")
        let logHandle = try EPFRunner.sendOutput(of: importer, to: URL(fileURLWithPath: log))
        try importer.run()

        var answers: [String] = []
        var failures: [String] = []
        var second: EPFRunner.Result?
        while importer.isRunning {
            let lock = (try? String(contentsOfFile: db + ".lock", encoding: .utf8)) ?? ""
            if second == nil, lock.hasPrefix("pid \(importer.processIdentifier),") {
                // A second import of the same catalog meanwhile stops at once.
                second = try cli.run(["import", "--db", db, feed])
                if !importer.isRunning { second = nil }
            }
            let answer = try cli.run(search)
            if answer.status != 0 { failures.append(answer.stderr) }
            // Only answers that started and ended while the import ran count.
            if importer.isRunning { answers.append(answer.stdout) }
        }
        importer.waitUntilExit()
        try logHandle.close()
        let importLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(importer.terminationStatus == 0, "\(importLog)")

        let after = try cli.run(search)
        #expect(after.status == 0)
        #expect(after.stdout != before.stdout, "the import changed what the search finds")
        #expect(failures.isEmpty, "searches failed during the import: \(failures)")
        #expect(!answers.isEmpty, "no search ran while the import did")
        if let second {
            #expect(second.status == 1)
            #expect(second.stderr.contains("another epf import (pid \(importer.processIdentifier)"), "\(second.stderr)")
        }
        for answer in answers {
            #expect(
                answer == before.stdout || answer == after.stdout, "an answer that is neither the old catalog nor the new one: \(answer)")
        }
    }

    @Test func anExclusiveImportLoadsWithTheRollbackJournalAndLeavesWAL() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = try cli.importedCatalog()
        let feed = cli.path("itunes20261201")
        #expect(try cli.run(["generate", "--out", feed, "--rows", "300", "--storefronts", "1"]).status == 0)
        let result = try cli.run(["import", "--db", db, "--exclusive", feed])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("loading in WAL mode all the same"))
        let header = try #require(FileHandle(forReadingAtPath: db)).readData(ofLength: 20)
        #expect(Array(header.suffix(2)) == [2, 2], "back in WAL mode after the import")
        let rows = try cli.run(["sql", "--db", db, "--format", "csv", "SELECT count(*) FROM application"])
        #expect(rows.stdout == "count(*)\n300\n")
    }
}
