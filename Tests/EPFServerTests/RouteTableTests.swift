import EPFServer
import Foundation
import Testing

/// The route table (`CatalogRoute.all`), where a route is declared once:
/// docs/openapi.yaml describes each of its routes, the metrics count each
/// under a label of its own, and the 404 names each.
@Suite("The route table")
struct RouteTableTests {
    /// The paths under `paths:` of docs/openapi.yaml.
    static func documentedPaths() throws -> Set<String> {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/openapi.yaml")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let start = try #require(lines.firstIndex(of: "paths:"), "docs/openapi.yaml has no paths:")
        var paths: Set<String> = []
        // Each path is a key two spaces in; the next key at the margin ends them.
        for line in lines[(start + 1)...] {
            guard line.hasPrefix(" ") else { break }
            if line.hasPrefix("  /"), line.hasSuffix(":") { paths.insert(String(line.dropFirst(2).dropLast())) }
        }
        return paths
    }

    /// A path of `template` the route answers, its parameters filled in:
    /// `/api/v2/us/apps/top-free/10/genre/6014.json`.
    static func example(_ template: String) -> String {
        let values = ["country": "us", "chart": "top-free", "limit": "10", "genre": "6014"]
        var path = template
        while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
            let name = String(path[path.index(after: open)..<close])
            path.replaceSubrange(open...close, with: values[name] ?? "1")
        }
        return path
    }

    @Test func everyRouteIsInTheOpenAPIDocumentAndEveryPathThereIsARoute() throws {
        let documented = try Self.documentedPaths()
        let routes = CatalogRoute.all.map(\.template.text)
        #expect(Set(routes).count == routes.count, "a route is in the table once: \(routes)")
        for route in routes {
            #expect(documented.contains(route), "docs/openapi.yaml does not describe \(route)")
        }
        // /metrics is described there but is no route of the table: it is
        // served beside the API, neither guarded nor counted.
        #expect(documented.subtracting(routes) == ["/metrics"], "paths of docs/openapi.yaml that no route answers")
    }

    /// A request of each route counts under that route's template, on
    /// either path; one of no route under `other`.
    @Test(arguments: ServedBy.allCases) func everyRouteHasAMetricsLabel(servedBy: ServedBy) async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(servedBy) { client in
            for route in CatalogRoute.all { _ = try await client.get(Self.example(route.template.text)) }
            _ = try await client.get("/no/such/path")
            let scrape = try await client.get("/metrics").text
            for label in CatalogRoute.all.map(\.template.text) + ["other"] {
                let count = #"epf_http_request_duration_seconds_count{route="\#(label)"} 1"#
                #expect(scrape.contains(count), "\(count) in \(scrape)")
            }
        }
    }

    @Test func theNotFoundAnswerNamesEveryRoute() async throws {
        let catalog = try SampleCatalog()
        try await catalog.withClient(.router, expectsEventLoopAnswers: false) { client in
            let answer = try await client.get("/no/such/path")
            #expect(answer.status == .notFound)
            let message = try #require(try answer.errorMessage)
            #expect(message.hasPrefix("No such path; try /lookup, "), "\(message)")
            for route in CatalogRoute.all {
                #expect(message.contains(route.template.text), "\(route.template.text) in \(message)")
            }
        }
    }
}
