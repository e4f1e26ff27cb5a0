import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `epf serve [--db ...] [--host ...] [--port ...] ...`: runs `epf-server`,
/// which is a product of its own so that `epf` builds without an HTTP
/// stack.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the catalog over HTTP as Apple's iTunes Search and Lookup APIs (runs epf-server).",
        discussion: """
            Runs the epf-server program found beside epf with the same options: --db, --host (default \
            127.0.0.1), --port (default 8080), --table-prefix, --readers, --max-in-flight, --max-connections, \
            --max-connections-per-client, --idle-timeout, --header-timeout, --log-level, --access-log, \
            --log-format, --no-metrics, --metrics-port, --metrics-host. See epf-server --help. Build it with: \
            swift build -c release --product epf-server
            """)

    @Argument(parsing: .captureForPassthrough, help: "Options for epf-server.")
    var options: [String] = []

    func run() throws {
        let server = Self.serverBesideEPF()
        guard FileManager.default.isExecutableFile(atPath: server.path) else {
            throw Console.failure(
                "epf serve: \(server.path) is not there; build it with `swift build -c release --product epf-server` (or `swift build --product epf-server`)"
            )
        }
        let arguments = [server.path] + options
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        execv(server.path, pointers)
        // execv returns only when it failed.
        throw Console.failure("epf serve: cannot run \(server.path): \(String(cString: strerror(errno)))")
    }

    /// `epf-server` in the folder of the running `epf`.
    static func serverBesideEPF() -> URL {
        let epf = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return epf.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("epf-server")
    }
}
