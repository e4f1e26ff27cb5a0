import EPFCatalog
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// A catalog written by a newer epf: the import refuses it, readers read it.
@Suite("A catalog of a newer epf")
struct NewerCatalogTests {
    @Test func importStopsWithExitOneAndReadersStillAnswer() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let db = cli.path("c.sqlite")
        let first = try cli.run(["import", "--db", db, SampleFeeds.path("itunes20261101")])
        #expect(first.status == 0, "\(first.stderr)")
        let database = try SQLiteDatabase(path: db)
        try database.execute("INSERT INTO epf_schema VALUES ('journal-origin-colour', '2030-01-01T00:00:00Z')")
        let journalRows = try database.scalar("SELECT count(*) FROM epf_journal")

        let refused = try cli.run(["import", "--db", db, SampleFeeds.path("itunes20261102")])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "epf import: \(db) was written by a newer version of epf (schema step journal-origin-colour unknown to this one); use that version or newer"
            ), "\(refused.stderr)")

        for reader in [["tables"], ["history"], ["sql", "SELECT count(*) FROM genre"]] {
            let result = try cli.run(reader + ["--db", db])
            #expect(result.status == 0, "\(reader): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(reader)")
        }
        // Nothing of the refused import reached the journal.
        #expect(try database.scalar("SELECT count(*) FROM epf_journal") == journalRows)
    }
}
