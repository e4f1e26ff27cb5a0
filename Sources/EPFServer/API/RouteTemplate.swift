import Hummingbird

/// A route's path, written once, as docs/openapi.yaml writes it:
/// `/api/v2/{country}/apps/{chart}/{limit}/genre/{genre}.json`. The
/// router's path is made from it (`routerPath`), a request's path is
/// matched against it as the router matches that (`matches(_:)`), and it
/// is the route's label in the metrics.
///
/// A parameter takes its whole segment on the router (`{genre}.json` is
/// `:genre`, which gets `6014.json`), the route's handler checking the
/// rest: a bad value (`genre/games`) is then the route's own 400 naming
/// it, not the router's 404.
package struct RouteTemplate: Sendable {
    /// As docs/openapi.yaml writes it, from its first slash.
    package let text: String
    private let segments: [Segment]

    private enum Segment: Sendable {
        case literal(String)
        /// A segment with a `{name}`.
        case parameter(name: String)
    }

    /// `text` must start with a slash.
    init(_ text: String) {
        precondition(text.hasPrefix("/"), "a route's template starts with a slash: \(text)")
        self.text = text
        segments = text.split(separator: "/").map { segment -> Segment in
            guard let open = segment.firstIndex(of: "{"), let close = segment[open...].firstIndex(of: "}") else {
                return .literal(String(segment))
            }
            return .parameter(name: String(segment[segment.index(after: open)..<close]))
        }
    }

    /// Whether a segment is a parameter: a path without them is a request's
    /// path as it is.
    var hasParameters: Bool {
        segments.contains { if case .parameter = $0 { true } else { false } }
    }

    /// The path as Hummingbird's router takes it:
    /// `api/v2/:country/apps/:chart/:limit/genre/:genre`.
    var routerPath: RouterPath {
        RouterPath(
            segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter(let name): ":\(name)"
                }
            }.joined(separator: "/"))
    }

    /// Whether the router takes `path` for this route: segment by segment,
    /// a parameter any segment; empty segments skipped, as the router
    /// skips them (`/lookup/` is `/lookup`). Slices of `path` only, no
    /// copy: the router's path calls it for each request.
    func matches(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/")
        var rest = path.utf8[...]
        for segment in segments {
            rest = rest.drop { $0 == slash }
            let part = rest.prefix { $0 != slash }
            guard !part.isEmpty else { return false }
            if case .literal(let text) = segment, !part.elementsEqual(text.utf8) { return false }
            rest = rest[part.endIndex...]
        }
        return rest.allSatisfy { $0 == slash }
    }
}
