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

    /// The handler of the access log's logger at `level`; throws when the
    /// file cannot be opened for appending.
    package func handler(label: String, level: Logger.Level) throws -> any LogHandler {
        switch self {
        case .standardError:
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        case .off:
            return SwiftLogNoOpLogHandler()
        case .file(let path):
            return try FileLineLogHandler(label: label, path: path, level: level)
        }
    }
}

/// A log handler that appends each message, one line, to a file: the
/// access log sent to a file (`--access-log PATH`), in the shape
/// `StreamLogHandler` writes (time, level, label, metadata, message).
struct FileLineLogHandler: LogHandler {
    private let label: String
    private let file: LineFile
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(label: String, path: String, level: Logger.Level) throws {
        file = try LineFile(path: path)
        self.label = label
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let time = ISO8601DateFormatter.string(from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime])
        file.append("\(time) \(event.level) \(label):\(fields.isEmpty ? "" : " \(fields)") \(event.message)\n")
    }
}

/// A file lines are appended to, from any thread.
///
/// `@unchecked Sendable`: the handle is written only under `lock`, one
/// whole line at a time, and never closed while the server runs.
private final class LineFile: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NIOLock()

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
