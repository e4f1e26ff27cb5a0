import EPFCatalogRead
import Foundation
import Logging
import NIOCore
import Synchronization

/// What keeps one client from taking every connection of the server: at
/// most `perClient` connections from one address at once (a connection
/// past it is closed as soon as it is accepted, and the others are still
/// accepted), and the count of connections closed for sending no whole
/// request head in time (`HeaderTimeout`). What it refuses or closes is
/// said at most once a second, as a warning; what a burst left unsaid is
/// said a second after the line before.
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
        /// Open connections; the most open since memory was last given
        /// back; whether to give it back again once none is open.
        var total = 0
        var peak = 0
        var trimAtZero = false
        /// Refused and timed out since the last line said, the address
        /// refused most, and whether a line is due later.
        var refused = 0
        var refusedFrom: [String: Int] = [:]
        var timedOut = 0
        var lastSaid: ContinuousClock.Instant?
        var lineScheduled = false
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
        let admitted = state.withLock { state -> Bool in
            if perClient > 0 {
                if state.open[client, default: 0] >= perClient {
                    state.refused += 1
                    state.refusedFrom[client, default: 0] += 1
                    return false
                }
                state.open[client, default: 0] += 1
            }
            state.total += 1
            state.peak = max(state.peak, state.total)
            return true
        }
        guard admitted else {
            counted(on: channel.eventLoop)
            return false
        }
        channel.closeFuture.whenComplete { [self] _ in
            let trim = state.withLock { state in
                if perClient > 0 {
                    let left = state.open[client, default: 1] - 1
                    state.open[client] = left > 0 ? left : nil
                }
                state.total -= 1
                return Self.trimmed(&state)
            }
            // Off the event loop: its cost grows with the heap.
            if trim { Task.detached(priority: .background) { Memory.giveBack() } }
        }
        return true
    }

    /// A connection was closed for sending no whole request head within
    /// `headerTimeout`.
    func timedOut(on eventLoop: any EventLoop) {
        state.withLock { $0.timedOut += 1 }
        counted(on: eventLoop)
    }

    /// Something was counted: says it now when the last line was a second
    /// ago or more, else once that second is over (one line scheduled at
    /// a time, on `eventLoop`).
    private func counted(on eventLoop: any EventLoop) {
        let (line, wait) = state.withLock { state -> (String?, TimeAmount?) in
            let now = ContinuousClock.now
            if let last = state.lastSaid, now - last < .seconds(1) {
                guard !state.lineScheduled else { return (nil, nil) }
                state.lineScheduled = true
                return (nil, TimeAmount((last + .seconds(1)) - now))
            }
            return (Self.line(&state, now: now, perClient: perClient, headerTimeout: headerTimeout), nil)
        }
        if let line { logger.warning("\(line)") }
        if let wait {
            eventLoop.scheduleTask(in: wait) { [self] in
                let line = state.withLock { state -> String? in
                    state.lineScheduled = false
                    return Self.line(&state, now: .now, perClient: perClient, headerTimeout: headerTimeout)
                }
                if let line { logger.warning("\(line)") }
            }
        }
    }

    /// Whether to give memory back now: a thousand connections or more
    /// were open (a flood) and three quarters of them have closed, and
    /// again once none is open. Their buffers are free inside the process,
    /// which the allocator keeps; given back, the server's RSS returns
    /// near where it was.
    private static func trimmed(_ state: inout State) -> Bool {
        if state.total == 0 && state.trimAtZero {
            (state.peak, state.trimAtZero) = (0, false)
            return true
        }
        guard state.peak >= 1000, state.total <= state.peak / 4 else { return false }
        (state.peak, state.trimAtZero) = (state.total, state.total > 0)
        return true
    }

    /// The line saying what was refused and closed since the last one (nil
    /// when nothing was), the counts started again.
    private static func line(_ state: inout State, now: ContinuousClock.Instant, perClient: Int, headerTimeout: TimeAmount)
        -> String?
    {
        guard state.refused > 0 || state.timedOut > 0 else { return nil }
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
