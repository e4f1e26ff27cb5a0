/// Metrics in Prometheus's text exposition format (version 0.0.4), as
/// node_exporter's textfile collector reads them: for each metric a `# HELP`
/// and a `# TYPE` line, then its samples, one a line.
///
/// ```
/// # HELP epf_import_success Whether the last run applied every file (1) or not (0).
/// # TYPE epf_import_success gauge
/// epf_import_success 1
/// ```
package struct PrometheusText: Sendable {
    /// A metric's type, as its `# TYPE` line says it.
    package enum Kind: String, Sendable {
        /// A value that goes up and down (a time, a count of this run's rows).
        case gauge
        /// A total that only grows (its name ends in `_total`).
        case counter
    }

    /// The text so far, each line ending in a newline.
    package private(set) var text = ""

    package init() {}

    /// Adds a metric of one unlabelled sample.
    package mutating func add(_ name: String, _ kind: Kind, help: String, value: Double) {
        add(name, kind, help: help, samples: [([], value)])
    }

    /// Adds a metric with its samples, each with its labels (name, value) in
    /// order. A metric with no sample writes nothing: Prometheus would see a
    /// family that is never there.
    package mutating func add(_ name: String, _ kind: Kind, help: String, samples: [(labels: [(String, String)], value: Double)]) {
        guard !samples.isEmpty else { return }
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples {
            let labels = sample.labels.map { "\($0.0)=\"\(Self.escapedLabel($0.1))\"" }
            text += name + (labels.isEmpty ? "" : "{\(labels.joined(separator: ","))}") + " " + Self.number(sample.value) + "\n"
        }
    }

    /// Adds the metrics of `other`.
    package mutating func add(_ other: PrometheusText) { text += other.text }

    /// `text` without the metric `name` (its help, type and samples).
    package static func removing(_ name: String, from text: String) -> String {
        text.split(separator: "\n").filter { line in
            !(line.hasPrefix("# HELP \(name) ") || line.hasPrefix("# TYPE \(name) ") || line.hasPrefix("\(name) ")
                || line.hasPrefix("\(name){"))
        }.map { $0 + "\n" }.joined()
    }

    /// The value of `name`'s unlabelled sample in an exposition `text` (a
    /// file an earlier run wrote), or nil when it has none or it is not a
    /// number.
    package static func value(of name: String, in text: String) -> Double? {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, parts[0] == name { return Double(parts[1]) }
        }
        return nil
    }

    /// A value as Prometheus reads it: whole numbers without a fraction
    /// (a row count stays exact), others in Swift's shortest exact form.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 9e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value: backslash, double quote and newline escaped.
    static func escapedLabel(_ value: String) -> String { escaped(value, quote: true) }

    /// A help text: backslash and newline escaped.
    static func escapedHelp(_ value: String) -> String { escaped(value, quote: false) }

    private static func escaped(_ value: String, quote: Bool) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"" where quote: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
