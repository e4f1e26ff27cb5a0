import EPFCatalog
import EPFLocation
import EPFServer
import EPFTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// The sample feeds imported into a catalog of its own by the built `epf`,
/// in a temporary folder removed when the test is done.
final class SampleCatalog: Sendable {
    let folder: URL
    let path: String

    /// - Parameters:
    ///   - importOptions: more options of `epf import` (`--storefront US,JP`).
    ///   - feeds: writes other feeds than the samples into the folder it
    ///     is given, and returns their paths (`ChessCharts.write(in:)`).
    init(importOptions: [String] = [], feeds: ((URL) throws -> [String])? = nil) throws {
        folder = try TemporaryFolder.create("epf-server")
        path = folder.appendingPathComponent("catalog.sqlite").path
        let paths = try feeds?(folder) ?? SampleFeeds.pathsInOrder
        let result = try EPFRunner.run(["import", "--db", path] + importOptions + paths, in: folder)
        try #require(result.status == 0, "\(result.stderr)")
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Runs `body` with a test client of the server over this catalog,
    /// answered by `servedBy`'s path. With `.eventLoop`, at least one
    /// request must have been answered on the event loop when
    /// `expectsEventLoopAnswers` (the requests `/lookup` and `/search`).
    func withClient(
        _ servedBy: ServedBy, readers: Int = 2, maxInFlight: Int = 64, expectsEventLoopAnswers: Bool = true,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var settings = ServerSettings(location: CatalogLocation(path), readers: readers, maxInFlight: maxInFlight)
        settings.readsOnEventLoops = servedBy == .eventLoop
        let answered = Counter()
        settings.eventLoopAnswered = { answered.add() }
        let pool = try ReaderPool(location: settings.location, tablePrefix: nil, count: readers)
        let app = CatalogServer.application(
            pool: pool, settings: settings, logger: Logger(label: "epf-server-test", factory: { _ in SwiftLogNoOpLogHandler() }))
        do {
            try await app.test(servedBy == .router ? .router : .live, body)
        } catch {
            await pool.shutdown()
            throw error
        }
        await pool.shutdown()
        let count = answered.value
        switch servedBy {
        case .router: #expect(count == 0)
        case .eventLoop: #expect(count > 0 || !expectsEventLoopAnswers, "no request was answered on the event loop")
        }
    }
}

/// A count kept from several threads.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Which path of the server answers a test's requests: both answer
/// every request alike.
enum ServedBy: CaseIterable, Sendable, CustomTestStringConvertible {
    /// Hummingbird's router, called without a connection
    /// (HummingbirdTesting's `.router`).
    case router
    /// A server on loopback (`.live`), where `EventLoopReadHandler`
    /// answers `/lookup` and `/search` on the event loop and the router
    /// the rest.
    case eventLoop

    var testDescription: String { self == .router ? "router" : "event loop" }
}

/// What a test reads of a response.
struct Answer {
    let status: HTTPResponse.Status
    let contentType: String?
    let text: String

    init(_ response: TestResponse) {
        status = response.status
        contentType = response.headers[.contentType]
        text = String(buffer: response.body)
    }

    /// The body as a JSON object.
    var json: [String: Any] {
        get throws {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
        }
    }

    /// `results` of a response.
    var results: [[String: Any]] {
        get throws { try #require(try json["results"] as? [[String: Any]]) }
    }

    /// `errorMessage` of an error.
    var errorMessage: String? {
        get throws { try json["errorMessage"] as? String }
    }
}

extension TestClientProtocol {
    /// GET `uri` (or another method), its answer.
    func get(_ uri: String, method: HTTPRequest.Method = .get) async throws -> Answer {
        try await execute(uri: uri, method: method) { Answer($0) }
    }
}
