import EPFReport
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Where `epf-server` writes its access log, one line per request
/// (`--access-log`): standard error beside the other messages (the
/// default), a file of its own, or nowhere.
package enum AccessLog: Sendable, Equatable {
    case standardError
    case off
    case file(String)

    /// The label of the access log's logger (`ServerSettings.accessLog`):
    /// the logging system gives it this destination's handler.
    package static let label = "epf-server.access"

    /// `stderr` (or `-`), `off`, or a file's path.
    package init(_ text: String) {
        switch text {
        case "stderr", "-": self = .standardError
        case "off": self = .off
        default: self = .file(text)
        }
    }

    /// The handler of the access log's logger at `level`, writing lines in
    /// `format`; throws when the file cannot be opened for appending.
    package func handler(label: String, level: Logger.Level, format: LogFormat = .text) throws -> any LogHandler {
        switch self {
        case .standardError:
            return LineLogHandler.standardError(label: label, level: level, format: format)
        case .off:
            return SwiftLogNoOpLogHandler()
        case .file(let path):
            return LineLogHandler(label: label, to: try LineFile(path: path), level: level, format: format)
        }
    }
}

/// A log handler that writes each message as one line, text or JSON, to
/// standard error or a file (the server's log, `--log-format`; the access
/// log, `--access-log`). Text is `2026-11-28T05:43:57Z info epf-server:
/// key=value message`, as swift-log's `StreamLogHandler` writes; JSON is
/// `time`, `level`, `label`, `message`, and each metadata field (`path`,
/// `status`, `duration_ms`, `hb.request.id`, ...), as `epf --log-format
/// json` writes its messages (`LogMessage.jsonLine`).
package struct LineLogHandler: LogHandler {
    private let label: String
    private let file: LineFile
    private let format: LogFormat
    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]

    init(label: String, to file: LineFile, level: Logger.Level, format: LogFormat) {
        self.file = file
        self.label = label
        self.format = format
        logLevel = level
    }

    /// A handler writing to standard error: swift-log's own for text (as
    /// the server always wrote), this one for JSON.
    package static func standardError(label: String, level: Logger.Level, format: LogFormat) -> any LogHandler {
        guard format == .json else {
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return LineLogHandler(label: label, to: .standardError, level: level, format: format)
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        switch format {
        case .text:
            let time = ISO8601DateFormatter.string(
                from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
            let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            file.append("\(time) \(event.level) \(label):\(fields.isEmpty ? "" : " \(fields)") \(event.message)\n")
        case .json:
            var object: [String: Any] = all.mapValues(Self.json)
            (object["level"], object["label"], object["message"]) = ("\(event.level)", label, "\(event.message)")
            file.append(LogMessage.jsonLine(time: Date(), object) + "\n")
        }
    }

    /// A metadata value as JSON takes it.
    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): return text
        case .stringConvertible(let value): return value.description
        case .array(let values): return values.map(json)
        case .dictionary(let values): return values.mapValues(json)
        }
    }
}

/// A file lines are appended to, from any thread.
///
/// `@unchecked Sendable`: the handle is written only under `lock`, one
/// whole line at a time, and never closed while the server runs.
final class LineFile: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NIOLock()

    /// Standard error, one line at a time.
    static let standardError = LineFile(handle: FileHandle.standardError)

    private init(handle: FileHandle) { self.handle = handle }

    init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
    }

    func append(_ line: String) {
        lock.withLock { handle.write(Data(line.utf8)) }
    }
}
