import Foundation
import Testing

/// Runs the built `epf` binary as a user would, for the PostgreSQL CLI and
/// crash tests.
enum EPFRunner {
    /// `epf` beside the test bundle (swift test builds it with the tests).
    static func executable() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("epf"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("epf"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("epf"),
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "no epf binary")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `epf ARGUMENTS` in `folder` and waits for it.
    static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Result {
        let process = try self.process(arguments, in: folder, environment: environment)
        let out = folder.appendingPathComponent("out-\(UUID().uuidString)")
        let err = folder.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    static func process(_ arguments: [String], in folder: URL, environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "EPF_DB")
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        return process
    }

}
