import EPFCatalogRead
import EPFLocation
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The catalog's readers, each lent to one request at a time.
///
/// A reader (`CatalogReader`) is one connection and is not thread-safe.
/// Where its calls run depends on the backend:
/// - SQLite (`readsInPlace`): on the thread that asks, an event loop or a
///   task's thread. A read is CPU work on a memory-mapped file (a lookup
///   is some 20 µs), shorter than handing it to another thread and back;
///   `EventLoopReadHandler` answers `/lookup` and `/search` this way. The
///   pool opens a reader more when every one is lent (at most one per
///   thread that reads at once).
/// - PostgreSQL: on a `NIOThreadPool` of as many threads as readers, never
///   on Swift's cooperative threads or NIO's event loops: a read waits on
///   the network, and holds one pool thread, never a thread that other
///   connections need. With as many threads as readers, a job always
///   finds a reader free. The event loop's path hands the read to a pool
///   thread and gets its outcome back on the event loop
///   (`read(on:_:)`), with no Swift task between.
///
/// A reader that fails for any reason but the request's own (`.usage`) is
/// closed and opened again, and the read is tried once more: after an
/// import swapped a FULL table, or after a PostgreSQL connection went
/// away, the next request finds a fresh reader.
package final class ReaderPool: Sendable {
    private let location: CatalogLocation
    private let tablePrefix: String?
    private let threads: NIOThreadPool
    private let idle: NIOLockedValueBox<[Slot]>
    /// Reads run on the thread that asks (SQLite), not on `threads`.
    package let readsInPlace: Bool

    /// Opens `count` readers on the catalog (throws the first failure:
    /// no catalog there, not readable) and starts their threads.
    package init(location: CatalogLocation, tablePrefix: String?, count: Int) throws(CatalogError) {
        precondition(count > 0, "a pool needs a reader")
        self.location = location
        self.tablePrefix = tablePrefix
        var slots: [Slot] = []
        for _ in 0..<count {
            slots.append(Slot(reader: try location.openReader(tablePrefix: tablePrefix)))
        }
        idle = NIOLockedValueBox(slots)
        if case .postgres = location { readsInPlace = false } else { readsInPlace = true }
        threads = NIOThreadPool(numberOfThreads: count)
        threads.start()
    }

    /// Stops the threads once the jobs under way are done; the readers
    /// close with the pool.
    package func shutdown() async {
        try? await threads.shutdownGracefully()
    }

    /// `body` with a reader: here when `readsInPlace`, else on a pool
    /// thread. Throws `ReadFailure`.
    package func read<T: Sendable>(_ body: @escaping @Sendable (any CatalogReader) throws(CatalogError) -> T) async throws(ReadFailure)
        -> T
    {
        if readsInPlace { return try readHere(body) }
        do {
            return try await threads.runIfActive { [self] () throws(CatalogError) -> T in
                let slot = take()
                defer { give(slot) }
                return try slot.withReader(location: location, tablePrefix: tablePrefix, body)
            }
        } catch let error as CatalogError {
            throw .catalog(error)
        } catch {
            throw .stopped
        }
    }

    /// `body` with a reader on a pool thread, its outcome on `eventLoop`
    /// (the event loop's path for catalogs not read in place): the event
    /// loop goes on serving its other connections meanwhile.
    package func read<T: Sendable>(on eventLoop: any EventLoop, _ body: @escaping @Sendable (any CatalogReader) throws(CatalogError) -> T)
        -> EventLoopFuture<Result<T, ReadFailure>>
    {
        threads.runIfActive(eventLoop: eventLoop) { [self] () -> Result<T, ReadFailure> in
            let slot = take()
            defer { give(slot) }
            do throws(CatalogError) {
                return .success(try slot.withReader(location: location, tablePrefix: tablePrefix, body))
            } catch {
                return .failure(.catalog(error))
            }
        }.recover { _ in .failure(.stopped) }
    }

    /// `body` with a reader, on this thread (`readsInPlace` catalogs: the
    /// event loop's fast path). Throws `ReadFailure.catalog`.
    package func readHere<T>(_ body: (any CatalogReader) throws(CatalogError) -> T) throws(ReadFailure) -> T {
        let slot = take()
        defer { give(slot) }
        do {
            return try slot.withReader(location: location, tablePrefix: tablePrefix, body)
        } catch {
            throw .catalog(error)
        }
    }

    private func take() -> Slot {
        let slot = idle.withLockedValue { slots in slots.popLast() }
        if let slot { return slot }
        // Pool threads never find the list empty (as many slots as
        // threads); reads in place may, when every thread reads at once.
        precondition(readsInPlace, "more reads at once than readers")
        return Slot(reader: nil)
    }

    private func give(_ slot: Slot) {
        idle.withLockedValue { $0.append(slot) }
    }
}

/// Why a read got no answer.
package enum ReadFailure: Error, Sendable {
    /// The catalog refused the read (the request's fault when `.usage`).
    case catalog(CatalogError)
    /// The pool is shutting down.
    case stopped
}

/// One reader and the state of its connection.
///
/// `@unchecked Sendable`: a slot is used only by the thread that took it
/// from the pool's locked list (a pool thread, or the event loop or task
/// that reads in place), until it gives it back; no two threads hold it at
/// once.
private final class Slot: @unchecked Sendable {
    /// nil after a failure closed it: opened again on next use.
    private var reader: (any CatalogReader)?
    /// When the reader last asked whether the catalog's tables changed.
    private var checked = ContinuousClock.now

    init(reader: (any CatalogReader)?) { self.reader = reader }

    /// How often a reader asks whether the catalog's tables changed: a
    /// reader learns them when it opens, so one that an import gave a new
    /// table (a feed's first import) opens again within this time.
    static let tablesCheckInterval = Duration.seconds(1)

    func withReader<T>(
        location: CatalogLocation, tablePrefix: String?, _ body: (any CatalogReader) throws(CatalogError) -> T
    ) throws(CatalogError) -> T {
        do {
            return try body(open(location, tablePrefix))
        } catch let error where error.kind == .usage {
            throw error
        } catch {
            // The connection may be what failed: a fresh one, once.
            reader = nil
            return try body(open(location, tablePrefix))
        }
    }

    private func open(_ location: CatalogLocation, _ tablePrefix: String?) throws(CatalogError) -> any CatalogReader {
        if let reader, ContinuousClock.now - checked >= Self.tablesCheckInterval {
            checked = .now
            if (try? (reader as? Catalog)?.tablesChanged()) == true { self.reader = nil }
        }
        if let reader { return reader }
        let opened = try location.openReader(tablePrefix: tablePrefix)
        reader = opened
        return opened
    }
}
