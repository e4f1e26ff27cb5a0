import Foundation

/// The samples of a Prometheus text exposition (a `--metrics-file`, a
/// `/metrics` answer), by the name and labels as written:
/// `epf_import_files{status="applied"}`.
public struct PrometheusSamples: Sendable {
    public let values: [String: Double]

    /// Parses `text`; a line that is neither a comment nor `SERIES VALUE`
    /// fails the parse, as it would fail Prometheus's.
    public init(_ text: String) throws {
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                throw Malformed(line: String(line))
            }
            values[String(line[..<space])] = value
        }
        self.values = values
    }

    /// A line that is not a sample.
    public struct Malformed: Error, CustomStringConvertible {
        public var line: String
        public var description: String { "not a sample line: \(line)" }
    }

    public subscript(_ series: String) -> Double? { values[series] }

    /// The file at `path`, parsed.
    public static func read(_ path: String) throws -> PrometheusSamples {
        try PrometheusSamples(String(contentsOfFile: path, encoding: .utf8))
    }
}
