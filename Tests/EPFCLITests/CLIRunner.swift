import Foundation
import Testing

/// Runs the built `epf` binary as a user would, capturing its output.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// SampleFeeds/NAME.
    static func sampleFeed(_ name: String) -> String {
        packageRoot.appendingPathComponent("SampleFeeds").appendingPathComponent(name).path
    }

    /// The four sample feed folders in the order they apply.
    static var sampleFeedsInOrder: [String] {
        ["itunes20261101", "pricing20261101", "popularity20261101", "itunes20261102"].map(sampleFeed)
    }

    /// `epf` beside the test bundle (swift test builds it with the tests).
    static var executable: URL {
        get throws {
            let candidates = [
                Bundle.main.bundleURL.appendingPathComponent("epf"),
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("epf"),
                Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("epf"),
            ]
            return try #require(
                candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
                "the epf binary was not built beside the tests: \(candidates.map(\.path))")
        }
    }

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A path inside this runner's temporary folder.
    /// A catalog in this runner's folder with all the sample feeds applied
    /// through `epf import`.
    func importedCatalog() throws -> String {
        let db = path("c.sqlite")
        let result = try run(["import", "--db", db] + CLIRunner.sampleFeedsInOrder)
        #expect(result.status == 0, "\(result.stderr)")
        return db
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs `epf ARGUMENTS` in the temporary folder.
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = try Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "EPF_DB")
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        // Files, not pipes: a chatty process can never block on a full pipe.
        let outPath = path("stdout-\(UUID().uuidString)")
        let errPath = path("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let outData = try Data(contentsOf: URL(fileURLWithPath: outPath))
        let errData = try Data(contentsOf: URL(fileURLWithPath: errPath))
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
