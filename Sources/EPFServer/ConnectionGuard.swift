import EPFCatalog
import Foundation
import Logging
import NIOCore
import Synchronization

/// What keeps one client from taking every connection of the server: at
/// most `perClient` connections from one address at once (a connection
/// past it is closed as soon as it is accepted, and the others are still
/// accepted), and the count of connections closed for sending no whole
/// request head in time (`HeaderTimeout`). What it refuses or closes is
/// said at most once a second, as a warning.
///
/// One per server, shared by its event loops: its state is behind a lock
/// held for a dictionary update, once per connection (never per request).
package final class ConnectionGuard: Sendable {
    /// Connections from one address at once; 0: no limit.
    package let perClient: Int
    /// How long a connection may take to send a whole request head.
    package let headerTimeout: TimeAmount
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        /// Open connections by client address (with a per-client limit).
        var open: [String: Int] = [:]
        /// Open connections, and the most open since memory was last
        /// given back (`trimmed`).
        var total = 0
        var peak = 0
        var trimmedAtQuarter = false
        /// Refused and timed out since the last line said, and the address
        /// refused most.
        var refused = 0
        var refusedFrom: [String: Int] = [:]
        var timedOut = 0
        var lastSaid: ContinuousClock.Instant?
    }

    package init(perClient: Int, headerTimeout: TimeAmount, logger: Logger) {
        self.perClient = perClient
        self.headerTimeout = headerTimeout
        self.logger = logger
    }

    /// Whether `channel` may stay: false when its client has `perClient`
    /// connections open already (counted, to be said). When it may, its
    /// count is given back when it closes.
    func admit(_ channel: any Channel) -> Bool {
        let client = perClient > 0 ? channel.remoteAddress?.ipAddress ?? "unknown" : ""
        let (admitted, line) = state.withLock { state -> (Bool, String?) in
            if perClient > 0 {
                if state.open[client, default: 0] >= perClient {
                    state.refused += 1
                    state.refusedFrom[client, default: 0] += 1
                    return (false, dueLine(&state))
                }
                state.open[client, default: 0] += 1
            }
            state.total += 1
            state.peak = max(state.peak, state.total)
            return (true, nil)
        }
        if let line { logger.warning("\(line)") }
        guard admitted else { return false }
        channel.closeFuture.whenComplete { [self] _ in
            let trim = state.withLock { state in
                if perClient > 0 {
                    let left = state.open[client, default: 1] - 1
                    state.open[client] = left > 0 ? left : nil
                }
                state.total -= 1
                return Self.trimmed(&state)
            }
            if trim { Memory.giveBack() }
        }
        return true
    }

    /// Whether to give memory back now: thousands of connections were open
    /// (a flood), and three quarters of them have closed, or all. Their
    /// buffers are free inside the process, which the allocator keeps;
    /// given back, the server's RSS returns near where it was.
    private static func trimmed(_ state: inout State) -> Bool {
        guard state.peak >= 1000 else { return false }
        if state.total == 0 {
            (state.peak, state.trimmedAtQuarter) = (0, false)
            return true
        }
        guard !state.trimmedAtQuarter, state.total <= state.peak / 4 else { return false }
        state.trimmedAtQuarter = true
        return true
    }

    /// A connection was closed for sending no whole request head within
    /// `headerTimeout`.
    func timedOut() {
        let line = state.withLock { state in
            state.timedOut += 1
            return dueLine(&state)
        }
        if let line { logger.warning("\(line)") }
    }

    /// Connections open now from `client` (for the tests).
    func openConnections(from client: String) -> Int { state.withLock { $0.open[client] ?? 0 } }

    /// The line saying what was refused and closed since the last one, when
    /// the last was a second ago or more (and the counts start again).
    private func dueLine(_ state: inout State) -> String? {
        let now = ContinuousClock.now
        if let last = state.lastSaid, now - last < .seconds(1) { return nil }
        var parts: [String] = []
        if state.refused > 0 {
            let most = state.refusedFrom.max { $0.value < $1.value }
            parts.append(
                "refused \(state.refused) connection(s) from clients that had \(perClient) open already (--max-connections-per-client), \(most?.value ?? 0) from \(most?.key ?? "?")"
            )
        }
        if state.timedOut > 0 {
            parts.append(
                "closed \(state.timedOut) connection(s) that sent no whole request head within \(headerTimeout.nanoseconds / 1_000_000_000) s (--header-timeout)"
            )
        }
        let since = state.lastSaid.map { " in the last \(String(format: "%.1f", (now - $0).inSeconds)) s" } ?? ""
        (state.refused, state.refusedFrom, state.timedOut, state.lastSaid) = (0, [:], 0, now)
        return "epf-server\(since): " + parts.joined(separator: "; ")
    }
}
