import Foundation
import Testing

/// The python that runs readers nobody here wrote (pyarrow, DuckDB) on the
/// files the tests write: `$EPF_PYTHON` (`scripts/python-env` prints one;
/// `.ci/run` sets it). Without it the suites that need it report themselves
/// skipped, with `skipReason`.
public enum ReaderPython {
    /// `$EPF_PYTHON`, nil when unset or empty.
    public static let path: String? = {
        let value = ProcessInfo.processInfo.environment["EPF_PYTHON"] ?? ""
        return value.isEmpty ? nil : value
    }()

    public static var available: Bool { path != nil }

    public static let skipReason: Comment =
        "no pyarrow/duckdb: EPF_PYTHON is not set (export EPF_PYTHON=\"$(scripts/python-env)\"; .ci/run does it)"

    /// Runs `script` (`python -c`) with `arguments`; its standard output.
    /// Throws `Failed`, with the script's standard error, when it fails.
    public static func run(_ script: String, _ arguments: [String]) throws -> Data {
        let python = try #require(path, "EPF_PYTHON is not set")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(message: String(decoding: message, as: UTF8.self)) }
        return data
    }

    /// A reader script that failed, with what it printed on standard error.
    public struct Failed: Error, CustomStringConvertible {
        public var message: String
        public var description: String { "the reader script failed:\n\(message)" }
    }
}
