import EPFCatalog
import EPFSQLite
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What readers say when a killed import left a file they cannot undo
/// (the catalog or its folder made immutable with `chattr +i`, which stops
/// root too), and when an import holds the catalog: the file, why, and what
/// to run; never a guess about permissions. The crash tests
/// (`CrashResumeTests`) show that readers that can write answer.
@Suite("Reading after a killed import")
struct ReadAfterKillTests {
    /// A catalog whose `--exclusive` import was killed inside its apply, so
    /// that a hot `-journal` is left, in a folder of its own (the runner's
    /// folder holds its output files).
    static func killedExclusiveImport() throws -> (cli: CLIRunner, catalog: String) {
        let (cli, catalog, feed) = try importedCatalog()
        var hooks = CrashResumeTests.hooks
        hooks["EPF_TEST_FAULT"] = "in-apply:1"
        let killed = try cli.run(["import", "--exclusive", "--force", "--db", catalog, feed], environment: hooks)
        #expect(killed.status != 0)
        #expect(CrashResumeTests.isHotJournal(catalog + "-journal"), "the killed import left no hot journal")
        return (cli, catalog)
    }

    @Test("A hot journal beside a catalog file that cannot be written: the file, why, what to run", Immutable.needed)
    func immutableCatalogFile() throws {
        let (cli, catalog) = try Self.killedExclusiveImport()
        defer { cli.cleanUp() }
        try Immutable.while(catalog) {
            for command in [["tables"], ["lookup", "300000000"], ["search", "chess"], ["sql", "SELECT 1"], ["history"]] {
                let result = try cli.run(command + ["--db", catalog])
                #expect(result.status == 1, "\(command)")
                #expect(
                    result.stderr.contains("\(catalog)-journal was left by an interrupted import")
                        && result.stderr.contains("\(catalog) is not writable")
                        && result.stderr.contains("run the import again, which recovers it"),
                    "\(command): \(result.stderr)")
                #expect(!result.stderr.contains("Check that"), "\(command): \(result.stderr)")
            }
        }
        // Writable again, the first reader rolls the journal back.
        let tables = try cli.run(["tables", "--db", catalog])
        #expect(tables.status == 0, "\(tables.stderr)")
        #expect(!FileManager.default.fileExists(atPath: catalog + "-journal"))
    }

    @Test("A hot journal in a folder that cannot be written names the folder", Immutable.needed)
    func immutableFolder() throws {
        let (cli, catalog) = try Self.killedExclusiveImport()
        defer { cli.cleanUp() }
        try Immutable.while(cli.path("catalogs")) {
            let result = try cli.run(["lookup", "--db", catalog, "300000000"])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("\(catalog)-journal was left by an interrupted import")
                    && result.stderr.contains("the folder \(cli.path("catalogs")) is not writable"),
                "\(result.stderr)")
        }
        let lookup = try cli.run(["lookup", "--db", catalog, "300000000"])
        #expect(lookup.status == 0 && lookup.stdout.contains("\"resultCount\":1"), "\(lookup.stderr)")
    }

    /// A generated day imported into `catalogs/c.sqlite`.
    /// A first import killed while it loaded `application`: the readers
    /// say an import was interrupted and that running it again resumes, not
    /// "import the itunes feed first"; and the rerun does resume.
    @Test("After a first import killed mid-load, readers say it was interrupted and resumes")
    func firstImportKilledMidLoad() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let feed = cli.path("itunes20261201")
        #expect(try cli.run(["generate", "--out", feed, "--rows", "1500", "--storefronts", "0"]).status == 0)
        let catalog = cli.path("first.sqlite")
        var hooks = CrashResumeTests.hooks
        hooks["EPF_TEST_FAULT"] = "checkpoint:1"
        let killed = try cli.run(["import", "--db", catalog, feed], environment: hooks)
        #expect(killed.status != 0)
        for command in [["lookup", "300000000"], ["search", "chess"]] {
            let result = try cli.run(command + ["--db", catalog])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains("an import into \(catalog) was interrupted before its application table was applied"),
                "\(command): \(result.stderr)")
            #expect(result.stderr.contains("Run the same epf import again: it resumes where it stopped"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("Import the itunes feed first"), "\(command): \(result.stderr)")
        }
        let again = try cli.run(["import", "--db", catalog, feed])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try cli.run(["lookup", "300000000", "--db", catalog]).status == 0)
    }

    static func importedCatalog() throws -> (cli: CLIRunner, catalog: String, feed: String) {
        let cli = try CLIRunner()
        let feed = cli.path("itunes20261201")
        #expect(try cli.run(["generate", "--out", feed, "--rows", "1500", "--storefronts", "2"]).status == 0)
        try FileManager.default.createDirectory(atPath: cli.path("catalogs"), withIntermediateDirectories: true)
        let catalog = cli.path("catalogs/c.sqlite")
        #expect(try cli.run(["import", "--db", catalog, feed]).status == 0)
        return (cli, catalog, feed)
    }

    @Test("A killed WAL import without -shm, in a folder that cannot be written, names the -wal", Immutable.needed)
    func walWithoutIndexInImmutableFolder() throws {
        let (cli, catalog, feed) = try Self.importedCatalog()
        defer { cli.cleanUp() }
        var hooks = CrashResumeTests.hooks
        hooks["EPF_TEST_FAULT"] = "in-apply:1"
        #expect(try cli.run(["import", "--force", "--db", catalog, feed], environment: hooks).status != 0)
        #expect(FileManager.default.fileExists(atPath: catalog + "-wal"))
        try FileManager.default.removeItem(atPath: catalog + "-shm")
        try Immutable.while(cli.path("catalogs")) {
            let result = try cli.run(["tables", "--db", catalog])
            #expect(result.status == 1)
            #expect(
                result.stderr.contains("\(catalog)-wal was left by an interrupted import")
                    && result.stderr.contains("the folder \(cli.path("catalogs")) is not writable"),
                "\(result.stderr)")
        }
        let tables = try cli.run(["tables", "--db", catalog])
        #expect(tables.status == 0, "\(tables.stderr)")
    }

    @Test("An import holding the catalog is an import writing it, not a permission problem")
    func busyCatalog() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let catalog = cli.path("c.sqlite")
        let database = try SQLiteDatabase(path: catalog)
        try database.execute("PRAGMA journal_mode = DELETE; CREATE TABLE application (application_id INTEGER PRIMARY KEY)")
        // As an --exclusive import holds it while it writes.
        try database.execute("BEGIN EXCLUSIVE")
        defer { database.rollback() }
        let error = #expect(throws: CatalogError.self) {
            _ = try SQLiteDatabase.openForReading(path: catalog, busyTimeout: .milliseconds(50))
        }
        #expect(error?.detail == "\(catalog): an import is writing the catalog", "\(String(describing: error))")
    }
}

/// `chattr +i`: a file or folder no one may change, root included.
enum Immutable {
    /// Skips a test where files cannot be made immutable.
    static let needed = ConditionTrait.enabled(if: available, "needs chattr +i (root, a file system that has it)")

    static let available: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("epf-chattr-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: probe, contents: nil) else { return false }
        defer {
            _ = ImportCommandTests.chattr("-i", probe)
            try? FileManager.default.removeItem(atPath: probe)
        }
        return ImportCommandTests.chattr("+i", probe) && access(probe, W_OK) != 0
    }()

    /// Runs `body` with `path` immutable.
    static func `while`(_ path: String, _ body: () throws -> Void) throws {
        try #require(ImportCommandTests.chattr("+i", path), "chattr +i \(path)")
        defer { _ = ImportCommandTests.chattr("-i", path) }
        try body()
    }

}
