import ArgumentParser
import EPFCatalogRead
import EPFLocation
import EPFReport
import EPFServer
import Foundation
import Logging

/// `epf-server`: the catalog as a local iTunes Search/Lookup API.
@main
struct EPFServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "epf-server",
        abstract: "Serve the catalog over HTTP as Apple's iTunes Search and Lookup APIs: /lookup, /search, /health.",
        discussion: """
            Clients of Apple's API use it by changing only the base URL: \
            http://127.0.0.1:8080/lookup?id=364709193, /search?term=chess&country=JP. \
            Logs (one line per request, and the address it listens on) go to standard error. \
            SIGTERM or SIGINT stops it after the requests under way (exit 0). \
            Exit status: 0 after a stop, 1 when the catalog cannot be opened or the port bound, 64 for usage errors.
            """,
        version: EPFVersion.current)

    @Option(name: .long, help: ArgumentHelp(CatalogLocation.optionHelp, valueName: "path|url"))
    var db: String?

    @Option(name: .long, help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on (0: a free one, named in the startup line).")
    var port: Int = 8080

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The prefix the catalog's tables were imported with (epf import --table-prefix). Left out: found in the catalog.",
            valueName: "prefix"))
    var tablePrefix: String?

    @Option(
        name: .long,
        help:
            "Readers (catalog connections) opened at start, each answering one request at a time (default: SQLite one per core, and more when every event loop reads at once; PostgreSQL four per core, as a read waits on the network)."
    )
    var readers: Int?

    @Option(name: .long, help: "Requests answered or waiting at once; one more gets 429.")
    var maxInFlight: Int = 64

    @Option(
        name: .long,
        help:
            "Connections open at once; more wait to be accepted until one closes (default: what the descriptor limit, raised to its hard limit at start, leaves room for, at most 16,384)."
    )
    var maxConnections: Int?

    @Option(name: .long, help: "Seconds a connection may stay idle between requests before it is closed.")
    var idleTimeout: Int = 30

    @Option(
        name: .long,
        help:
            "Seconds a connection may take to send a whole request head, from when it is accepted (or from the first byte of its next request); then it is closed."
    )
    var headerTimeout: Int = 10

    @Option(
        name: .long,
        help: "Connections one client address may hold at once; more are closed as soon as they are accepted (0: no limit).")
    var maxConnectionsPerClient: Int = 64

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How much is logged: trace, debug, info, notice, warning, error or critical (default: $LOG_LEVEL, else info).",
            valueName: "level"))
    var logLevel: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where the access log (a line per request, at info) goes: stderr (with the other messages), off, or a file, appended to.",
            valueName: "stderr|off|path"))
    var accessLog: String = "stderr"

    @Option(name: .long, help: "How log lines are written: text, or json (one object a line, for a machine to parse).")
    var logFormat: LogFormat = .text

    @Flag(name: .long, help: "Serve no GET /metrics (Prometheus's text format) and count nothing for it.")
    var noMetrics = false

    @Option(
        name: .long,
        help:
            "Serve GET /metrics on this port, and nothing else there, instead of beside the API (0: a free one, named in its startup line)."
    )
    var metricsPort: Int?

    @Option(name: .long, help: ArgumentHelp("With --metrics-port: the address it listens on (default: --host).", valueName: "host"))
    var metricsHost: String?

    /// `--log-level`, else `$LOG_LEVEL`, else info.
    var level: Logger.Level {
        (logLevel ?? ProcessInfo.processInfo.environment["LOG_LEVEL"]).flatMap(Logger.Level.init(rawValue:)) ?? .info
    }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        if let readers, !(1...256).contains(readers) { throw ValidationError("--readers must be between 1 and 256.") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be 1 or more.") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be 1 or more.") }
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout must be 1 or more.") }
        guard headerTimeout >= 1 else { throw ValidationError("--header-timeout must be 1 or more.") }
        guard maxConnectionsPerClient >= 0 else { throw ValidationError("--max-connections-per-client must be 0 (no limit) or more.") }
        if let metricsPort {
            guard (0...65535).contains(metricsPort) else { throw ValidationError("--metrics-port must be between 0 and 65535.") }
            if noMetrics { throw ValidationError("--metrics-port serves the metrics --no-metrics turns off: give one of them.") }
            // The same port on the same address, or on every address (0.0.0.0, ::) and one of them.
            let hosts = [host, metricsHost ?? host]
            if metricsPort == port && metricsPort != 0 && (hosts[0] == hosts[1] || hosts.contains { $0 == "0.0.0.0" || $0 == "::" }) {
                throw ValidationError("--metrics-port must differ from --port (leave it out to serve /metrics beside the API).")
            }
        } else if metricsHost != nil {
            throw ValidationError("--metrics-host needs --metrics-port.")
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError(
                "--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), not '\(logLevel)'.")
        }
        if accessLog.isEmpty { throw ValidationError("--access-log must be stderr, off or a file's path.") }
        if let tablePrefix, !CatalogTableNames.isValid(prefix: tablePrefix) {
            throw ValidationError("--table-prefix may hold only letters, digits and '_'.")
        }
    }

    func run() async throws {
        let level = self.level
        let destination = AccessLog(accessLog)
        let accessHandler: any LogHandler
        do {
            accessHandler = try destination.handler(label: AccessLog.label, level: level, format: logFormat)
        } catch {
            FileHandle.standardError.write(
                Data("epf-server: cannot write the access log \(accessLog): \(error.localizedDescription)\n".utf8))
            throw ExitCode(1)
        }
        let format = logFormat
        LoggingSystem.bootstrap { label in
            if label == AccessLog.label { return accessHandler }
            return LineLogHandler.standardError(label: label, level: level, format: format)
        }
        let logger = Logger(label: "epf-server")
        let descriptors = DescriptorLimit.raise()
        var configured = ServerSettings(
            location: CatalogLocation(CatalogLocation.path(db: db)), tablePrefix: tablePrefix, host: host, port: port, readers: readers,
            maxInFlight: maxInFlight, idleTimeoutSeconds: Int64(idleTimeout))
        configured.maxConnections =
            maxConnections ?? ServerSettings.defaultMaxConnections(descriptorLimit: descriptors, readers: configured.readers)
        // Diagnostics: every request through the router, as the
        // measurement of the event loop's path against it does
        // (docs/server.md).
        configured.readsOnEventLoops = ProcessInfo.processInfo.environment["EPF_SERVER_EVENT_LOOP_READS"] != "0"
        if noMetrics { configured.metrics = nil }
        configured.metricsAddress = metricsPort.map { (metricsHost ?? host, $0) }
        configured.headerTimeoutSeconds = Int64(headerTimeout)
        configured.maxConnectionsPerClient = maxConnectionsPerClient
        let settings = configured
        let pool: ReaderPool
        do {
            pool = try ReaderPool(location: settings.location, tablePrefix: tablePrefix, count: settings.readers)
        } catch {
            // The message names the catalog already ("X: no catalog there",
            // "opening the catalog X"): not twice.
            let catalog = settings.location.displayName
            let message = error.description.contains(catalog) ? error.description : "\(catalog): \(error.description)"
            FileHandle.standardError.write(Data("epf-server: \(message)\n".utf8))
            throw ExitCode(1)
        }
        let app = CatalogServer.application(
            pool: pool, settings: settings, logger: logger,
            onRunning: { boundPort in
                logger.info(
                    "epf-server listening on http://\(settings.host):\(boundPort)",
                    metadata: [
                        "catalog": "\(settings.location.displayName)", "readers": "\(settings.readers)",
                        "max_connections": "\(settings.maxConnections)", "descriptor_limit": "\(descriptors)",
                    ])
            },
            onMetricsRunning: { boundPort in
                logger.info("epf-server metrics on http://\(settings.metricsAddress?.host ?? settings.host):\(boundPort)/metrics")
            })
        do {
            try await app.runService()
        } catch {
            await pool.shutdown()
            FileHandle.standardError.write(
                Data(
                    "epf-server: \(StartFailure.message(error, host: settings.host, port: settings.port, metrics: settings.metricsAddress))\n"
                        .utf8))
            throw ExitCode(1)
        }
        await pool.shutdown()
        logger.info("epf-server stopped")
    }
}

extension LogFormat: ExpressibleByArgument {}
