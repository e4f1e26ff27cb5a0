import Foundation
import Testing

/// Runs the built `epf` binary as a user would, capturing its output.
public enum EPFRunner {
    /// What one run of `epf` did.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output, decoded as UTF-8.
        public var stdout: String
        /// Standard error, decoded as UTF-8.
        public var stderr: String
    }

    /// `epf` beside the test bundle (`swift test` builds it with the tests).
    public static var executable: URL {
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

    /// `epf ARGUMENTS`, not yet started, to run in `folder`: the test's
    /// environment without `EPF_DB`, with `environment` over it.
    public static func process(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Process {
        try process(try executable, arguments, in: folder, environment: environment)
    }

    /// `program ARGUMENTS` (another binary built beside `epf`, or a copy
    /// of it), not yet started, to run in `folder`, as `process(_:in:)`.
    public static func process(_ program: URL, _ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Process
    {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "EPF_DB")
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        return process
    }

    /// Sends `process`'s standard output and error to the file `log` (made
    /// empty), before it runs; returns the handle to close once it ended.
    public static func sendOutput(of process: Process, to log: URL) throws -> FileHandle {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        return handle
    }

    /// Runs `epf ARGUMENTS` in `folder` and waits for it. Its output goes
    /// through files in `folder`, removed afterwards, not pipes: a chatty
    /// process can never block on a full pipe.
    public static func run(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Result {
        try run(try executable, arguments, in: folder, environment: environment)
    }

    /// Runs `program ARGUMENTS` in `folder` and waits for it, as
    /// `run(_:in:)` runs `epf`.
    public static func run(_ program: URL, _ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> Result {
        let process = try self.process(program, arguments, in: folder, environment: environment)
        let out = folder.appendingPathComponent("stdout-\(UUID().uuidString)")
        let err = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
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
        return Result(
            status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
