import EPFTestSupport
import Foundation
import Testing

/// Runs the built `epf` binary as a user would (`EPFRunner`), in a
/// temporary folder of its own that the test removes with `cleanUp()`.
struct CLIRunner {
    let folder: URL

    init() throws {
        folder = try TemporaryFolder.create("epf-cli")
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A catalog in this runner's folder with all the sample feeds applied
    /// through `epf import`.
    func importedCatalog() throws -> String {
        let db = path("c.sqlite")
        let result = try run(["import", "--db", db] + SampleFeeds.pathsInOrder)
        #expect(result.status == 0, "\(result.stderr)")
        return db
    }

    /// A path inside this runner's temporary folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs `epf ARGUMENTS` in the temporary folder.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> EPFRunner.Result {
        try EPFRunner.run(arguments, in: folder, environment: environment)
    }
}
