import Foundation

/// What a run reports at its end, in the three forms `--format` takes: a
/// table with closing lines for people, JSON or CSV for scripts.
package protocol RunSummary {
    /// The table, with the lines that close it (no newline at the end).
    func table() -> String
    func json() -> String
    func csv() -> String
    /// The summary as log messages (`--log-format json`): by default the
    /// table as one message.
    func messages() -> [LogMessage]
}

extension RunSummary {
    package func messages() -> [LogMessage] { [LogMessage(table())] }
}

extension RunSummary where Self: Encodable {
    /// The summary's own JSON, keys sorted, slashes as they are.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }
}
