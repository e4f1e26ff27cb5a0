import Dispatch
import Foundation

/// The COPY streams that carry one table's rows to the server
/// (`epf import --jobs`): each a connection of its own with a COPY into the
/// same staging table, in a transaction of its own, so that as many server
/// processes convert and store rows at once. The loader's thread fills a
/// buffer with COPY text (`current`) and ships it (`ship`) to the lane with
/// the fewest pieces waiting (idle lanes in turn), whose queue sends it
/// while the loader fills the next buffer.
///
/// Invariants:
/// - A lane's connection is used by its queue while pieces are in flight,
///   and by the loader's thread only after `drain()`, when every queue is
///   idle.
/// - `lanes * 2` buffers are in the pool or in flight, one more is
///   `current`: a slow server holds the loader back after two pieces per
///   lane, so memory stays bounded.
/// - `pieces` (which rows each piece held, per lane, since the lanes'
///   COPYs began) is the loader thread's alone: it turns a COPY line the
///   server refused back into the row it was (`row(forLine:lane:)`).
final class CopyLanes: @unchecked Sendable {
    /// Rows `firstRow ..< firstRow + rows` (1-based, in the order the
    /// loader converted them) went to one lane as one piece.
    struct Piece {
        var firstRow: Int
        var rows: Int
    }

    /// A buffer handed between the loader and a lane's queue.
    struct Buffer: @unchecked Sendable {
        var pointer: UnsafeMutableBufferPointer<UInt8>

        static func allocate(_ capacity: Int) -> Buffer { Buffer(pointer: .allocate(capacity: capacity)) }
        func deallocate() { pointer.deallocate() }
    }

    /// The lanes' connections; the first is the loader's own (checkpoints,
    /// key, unfit values).
    let connections: [PostgresConnection]
    /// The buffer the loader fills.
    private(set) var current: Buffer
    private(set) var pieces: [[Piece]]

    private let queues: [DispatchQueue]
    /// Buffers free for the loader: the pool's count.
    private let free: DispatchSemaphore
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var pool: [Buffer]
    /// Pieces sent or being sent, per lane; guarded by `lock`.
    private var waiting: [Int]
    /// The lane the last piece went to; guarded by `lock`.
    private var rotation = -1
    /// The first failure of a lane's send, guarded by `lock`: later pieces
    /// of every lane are dropped, the loader fails at its next `ship` or
    /// `drain`.
    private var failure: PostgresError?

    init(connections: [PostgresConnection], bufferCapacity: Int) {
        precondition(!connections.isEmpty)
        self.connections = connections
        queues = connections.indices.map { DispatchQueue(label: "epf.copy-lane.\($0)") }
        pieces = Array(repeating: [], count: connections.count)
        waiting = Array(repeating: 0, count: connections.count)
        current = .allocate(bufferCapacity)
        pool = (0..<connections.count * 2).map { _ in .allocate(bufferCapacity) }
        free = DispatchSemaphore(value: pool.count)
    }

    deinit {
        // A send in flight holds `self`: by now every buffer is back in
        // the pool.
        current.deallocate()
        for buffer in pool { buffer.deallocate() }
    }

    var count: Int { connections.count }

    /// Sends `current[0..<length]` (rows `piece`) on the lane with the
    /// fewest pieces waiting and makes a free buffer `current`. Throws a
    /// lane's earlier failure.
    func ship(_ length: Int, piece: Piece) throws(PostgresError) {
        let lane: Int
        lock.lock()
        if let failure {
            lock.unlock()
            throw failure
        }
        // The fewest waiting; among equals, the next after the last used,
        // so that idle lanes take turns.
        var best = (rotation + 1) % waiting.count
        for step in 1..<max(1, waiting.count) {
            let candidate = (rotation + 1 + step) % waiting.count
            if waiting[candidate] < waiting[best] { best = candidate }
        }
        lane = best
        rotation = best
        waiting[lane] += 1
        lock.unlock()
        pieces[lane].append(piece)
        let buffer = current
        queues[lane].async { [self] in
            send(buffer, length: length, lane: lane)
        }
        free.wait()
        lock.lock()
        current = pool.removeLast()
        lock.unlock()
    }

    /// Replaces the (empty) current buffer with one of `capacity` bytes, for
    /// a record that does not fit.
    func grow(to capacity: Int) {
        current.deallocate()
        current = .allocate(capacity)
    }

    private func send(_ buffer: Buffer, length: Int, lane: Int) {
        lock.lock()
        let failed = failure != nil
        lock.unlock()
        var error: PostgresError?
        if !failed, let base = buffer.pointer.baseAddress {
            do {
                try connections[lane].putCopyData(base, count: length)
            } catch let sent {
                error = sent
            }
        }
        lock.lock()
        if let error, failure == nil { failure = error }
        waiting[lane] -= 1
        pool.append(buffer)
        lock.unlock()
        free.signal()
    }

    /// Waits until every lane has sent what it was given; throws the first
    /// failure of a send.
    func drain() throws(PostgresError) {
        for queue in queues { queue.sync {} }
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
    }

    /// Ends every lane's COPY (after `drain`), each lane's rows then counted
    /// by the server; a lane the server refused throws its error with the
    /// row it refused (`Refusal`). Every lane is out of COPY and the pieces
    /// are forgotten either way.
    func endCopies() throws(Refusal) {
        defer { pieces = pieces.map { _ in [] } }
        do {
            try drain()
        } catch {
            // Out of COPY on every lane, so that they can roll back.
            for connection in connections { connection.abortCopy() }
            throw Refusal(error: error, row: nil)
        }
        var refusal: Refusal?
        for lane in connections.indices {
            do {
                try connections[lane].endCopy()
            } catch {
                if refusal == nil { refusal = Refusal(error: error, row: error.copyLine.flatMap { row(forLine: $0, lane: lane) }) }
            }
        }
        if let refusal { throw refusal }
    }

    /// Abandons every lane's COPY (after what is in flight is sent).
    func abortCopies() {
        _ = try? drain()
        for connection in connections { connection.abortCopy() }
        pieces = pieces.map { _ in [] }
    }

    /// A server error of one lane, with the row (1-based, in the loader's
    /// order) of the COPY line it names, when it names one.
    struct Refusal: Error {
        var error: PostgresError
        var row: Int?
    }

    /// The row that line `line` (1-based) of lane `lane`'s COPY held.
    func row(forLine line: Int, lane: Int) -> Int? {
        var before = 0
        for piece in pieces[lane] {
            if line <= before + piece.rows { return piece.firstRow + (line - before) - 1 }
            before += piece.rows
        }
        return nil
    }
}

/// The COPY connections beyond its first that the loaders of one import may
/// hold at once: `--jobs` less one. Files loading at once over `--jobs`
/// connections each would otherwise open `--jobs` squared; with the budget
/// the first big file takes the extra connections and the others load over
/// one each until they are given back, so an import holds fewer than twice
/// `--jobs` COPY connections.
final class CopyLaneBudget: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var free: Int

    init(extra: Int) {
        free = max(0, extra)
    }

    /// Up to `wanted` extra connections; none when none are free.
    func take(_ wanted: Int) -> Int {
        lock.withLock {
            let granted = min(max(0, wanted), free)
            free -= granted
            return granted
        }
    }

    /// Gives back `count` connections taken before.
    func give(_ count: Int) {
        lock.withLock { free += count }
    }
}
