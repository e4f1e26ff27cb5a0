import Foundation

/// How a tool writes its messages on standard error (`--log-format`).
package enum LogFormat: String, Sendable, CaseIterable {
    /// Lines for people: the message alone, as the tools always wrote it.
    case text
    /// One JSON object a line, for a machine: `time`, `level`, `message`,
    /// and the message's fields (`file`, `table`, `rows`, ...).
    case json
}

/// A message on standard error, as a log takes it: a level, the text a
/// person reads, and fields a machine reads (`--log-format json`). A
/// string is a message: its level is read from the prefix the tools give
/// (`error: `, `warning: `, `retry: `, `note: `).
package struct LogMessage: Sendable, Equatable, ExpressibleByStringInterpolation {
    /// How much a message matters, as swift-log names levels.
    package enum Level: String, Sendable {
        case info, notice, warning, error
    }

    /// A field's value.
    package enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int64)
        case number(Double)
    }

    package var level: Level
    /// The line a person reads (`--log-format text` writes it alone).
    package var text: String
    package var fields: [String: Value]

    /// `text` with `fields`, at `level` (read from the text's prefix when
    /// nil).
    package init(_ text: String, level: Level? = nil, fields: [String: Value] = [:]) {
        self.text = text
        self.fields = fields
        self.level = level ?? Self.level(of: text)
    }

    package init(stringLiteral text: String) { self.init(text) }

    package init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

    /// The level the tools' prefixes say.
    private static func level(of text: String) -> Level {
        if text.hasPrefix("error: ") { return .error }
        if text.hasPrefix("warning: ") || text.hasPrefix("retry: ") { return .warning }
        if text.hasPrefix("note: ") { return .notice }
        return .info
    }

    /// The message as one JSON line (no newline): `time` (UTC, with
    /// milliseconds), `level`, `message`, and the fields, keys sorted.
    package func json(at time: Date) -> String {
        var object: [String: Any] = fields.mapValues { value in
            switch value {
            case .text(let text): text
            case .integer(let number): number
            case .number(let number): number
            }
        }
        (object["level"], object["message"]) = (level.rawValue, text)
        return Self.jsonLine(time: time, object)
    }

    /// `object` with its `time` as one JSON line (no newline), keys sorted
    /// and slashes as they are: the line every JSON log of the tools
    /// writes (`epf --log-format json`, `epf-server --log-format json`).
    package static func jsonLine(time: Date, _ object: [String: Any]) -> String {
        var object = object
        object["time"] = ISO8601DateFormatter.string(
            from: time, timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
