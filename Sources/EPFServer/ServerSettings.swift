import EPFLocation
import Logging
import NIOCore

/// How `epf-server` serves a catalog: where it listens, how many readers
/// it keeps, and the limits that keep it answering under load.
package struct ServerSettings: Sendable {
    /// The catalog (`--db`).
    package var location: CatalogLocation
    /// The tables imported under this prefix (`--table-prefix`); nil: found
    /// in the catalog.
    package var tablePrefix: String?
    /// The address to listen on (`--host`).
    package var host: String
    /// The port (`--port`); 0 picks a free one, which the startup line names.
    package var port: Int
    /// Readers opened at start (`--readers`): each one connection. For
    /// PostgreSQL each has a thread, so this many reads run at once; SQLite
    /// reads on the event loops, and opens more when they all read at once.
    package var readers: Int
    /// Requests answered at once, waiting ones included (`--max-in-flight`);
    /// one more gets 429.
    package var maxInFlight: Int
    /// Connections open at once (`--max-connections`); past it, new ones
    /// wait in the listen backlog until one closes (bounded memory, however
    /// many clients connect).
    package var maxConnections: Int
    /// Seconds a connection may stay idle between requests before it is
    /// closed.
    package var idleTimeoutSeconds: Int64
    /// Seconds a connection may take to send a whole request head, from
    /// when it is accepted or from the first byte of its next request
    /// (`--header-timeout`).
    package var headerTimeoutSeconds: Int64 = 10
    /// Connections one client address may hold at once
    /// (`--max-connections-per-client`); 0: no limit.
    package var maxConnectionsPerClient = 64
    /// Whether `/lookup` and `/search` are answered on the event loops
    /// (`EventLoopReadHandler`), on either backend; false sends every
    /// request through the router (the tests of both paths, and
    /// `EPF_SERVER_EVENT_LOOP_READS=0`).
    package var readsOnEventLoops = true
    /// Called after each answer written on an event loop (the tests count
    /// them, to know which path answered); nil in the server.
    package var eventLoopAnswered: (@Sendable () -> Void)?
    /// The access log: one line per request, from either path
    /// (`RequestLog`); its destination is the logging system's handler for
    /// `AccessLog.label` (`--access-log`).
    package var accessLog = Logger(label: AccessLog.label)
    /// The metrics `GET /metrics` serves (`ServerMetrics`); nil: no
    /// `/metrics`, nothing counted (`--no-metrics`).
    package var metrics: ServerMetrics? = ServerMetrics()
    /// Where `/metrics` is served when not beside the API
    /// (`--metrics-host`, `--metrics-port`): a listener of its own that
    /// answers `/metrics` only; nil: on the API's port. Port 0 picks a
    /// free one, which its startup line names.
    package var metricsAddress: (host: String, port: Int)?

    package init(
        location: CatalogLocation, tablePrefix: String? = nil, host: String = "127.0.0.1", port: Int = 8080,
        readers: Int? = nil, maxInFlight: Int = 64, maxConnections: Int = 1024,
        idleTimeoutSeconds: Int64 = 30
    ) {
        self.location = location
        self.tablePrefix = tablePrefix
        self.host = host
        self.port = port
        self.readers = readers ?? Self.defaultReaders(for: location)
        self.maxInFlight = maxInFlight
        self.maxConnections = maxConnections
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }

    /// The most connections ever open at once by default: an idle
    /// connection costs about 14 KB (5,500 held open took the server from
    /// 38 to 116 MB), so 16,384 stay near 270 MB.
    package static let mostConnections = 16_384

    /// Connections open at once when `--max-connections` is not given: as
    /// many as the descriptor limit leaves room for, less 4 for each of
    /// `readers` (a SQLite reader holds the catalog, its `-wal` and `-shm`;
    /// a PostgreSQL one a socket) and 64 for the rest (listeners, logs,
    /// the catalog's own), at most `mostConnections`.
    package static func defaultMaxConnections(descriptorLimit: Int, readers: Int) -> Int {
        max(64, min(mostConnections, descriptorLimit - 64 - 4 * readers))
    }

    /// Readers when `--readers` is not given. SQLite: one per core (a read
    /// is CPU work, on the event loop that asks). PostgreSQL: four per core:
    /// a reader waiting on the database waits, it does not use a core, and
    /// with one per core the cores idle while each waits for its round
    /// trip. scripts/compare-read-backends, 2 cores, `/lookup` of one ID:
    /// 2 readers 6,300 requests/s, 4 9,600, 8 11,500, 16 11,000.
    package static func defaultReaders(for location: CatalogLocation) -> Int {
        let cores = max(1, System.coreCount)
        switch location {
        case .postgres: return 4 * cores
        case .sqlite, .lake: return cores
        }
    }
}

/// The limits of one request, the same for every server.
package enum RequestLimits {
    /// The longest request target (path and query) answered; a longer one
    /// gets 414 before anything is parsed.
    package static let maxTargetBytes = 16 * 1024
    /// The most bytes of the request line and headers together that the
    /// HTTP decoder reads; past it the connection gets a bare 400 and is
    /// closed (NIO's decoder, not ours, answers it).
    package static let maxHeaderBytes = 32 * 1024
    /// The most Apple IDs one lookup takes.
    package static let maxIDs = 200
    /// Results of a search when `limit` is not given (Apple's default).
    package static let defaultLimit = 50
    /// The most results one search returns: a larger `limit` is lowered to
    /// it, as Apple's API does.
    package static let maxLimit = 200
    /// The longest `term`, in bytes, and the most words in it: every word
    /// is a match (and a prefix match) in the search index, so a term of
    /// thousands of words is refused (400 `[term]`) rather than read.
    package static let maxTermBytes = 1000
    package static let maxTermWords = 32
    /// The longest `callback` name.
    package static let maxCallbackBytes = 128
}
