import EPFCatalogCore
import EPFCatalogRead
import Foundation

/// What a test (or a measurement) may change in how a store loads and
/// applies, given as a value when the store is made; the default changes
/// nothing. Libraries never read these from the environment: the `epf`
/// executable does, in one place, for the crash tests that run it.
package struct LoadHooks: Sendable {
    /// Kills the process at a named moment, as a crash or `kill -9` would.
    package var fault: FaultInjection?
    /// Input bytes between two commits of a load, instead of the store's
    /// own figure.
    package var checkpointBytes: Int64?
    /// Free bytes the catalog's disk is said to have.
    package var freeBytes: Int64?
    /// The SQLite page cache in KiB, instead of `SQLiteCatalogStore.cacheKiB`:
    /// a small one spills pages into the catalog mid-transaction, so a
    /// killed import leaves a hot rollback journal (or uncommitted WAL
    /// frames), as a large import killed a few seconds in does.
    package var cacheKiB: Int?

    package init(fault: FaultInjection? = nil, checkpointBytes: Int64? = nil, freeBytes: Int64? = nil, cacheKiB: Int? = nil) {
        self.fault = fault
        self.checkpointBytes = checkpointBytes
        self.freeBytes = freeBytes
        self.cacheKiB = cacheKiB
    }

    /// Kills the process if `fault` asks for it at this point.
    package func reach(_ point: FaultInjection.Point) { fault?.reach(point) }
}

/// Kills the process with SIGKILL the `count`th time it reaches `point`.
///
/// Invariant: `reached` is only touched under `lock`, so a store's threads
/// may reach points at the same time.
package final class FaultInjection: @unchecked Sendable {
    /// Where a test may stop an import.
    package enum Point: String, Sendable, CaseIterable {
        /// Just after a load committed a checkpoint.
        case checkpoint
        /// PostgreSQL, a load over several COPY connections: the other
        /// connections committed their rows, the checkpoint is not yet.
        case lanesCommitted = "lanes-committed"
        /// Every record loaded, before the key and indexes are built.
        case beforeIndex = "before-index"
        /// Inside the apply transaction (tables swapped, journal written),
        /// before it commits.
        case inApply = "in-apply"
        /// Just after a feed was applied.
        case afterApply = "after-apply"
    }

    package let point: Point
    package let count: Int
    private var reached = 0
    private let lock = NSLock()

    package init(point: Point, count: Int = 1) {
        self.point = point
        self.count = count
    }

    /// `POINT` or `POINT:N` (the form `EPF_TEST_FAULT` takes); nil for
    /// anything else.
    package convenience init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard let point = parts.first.flatMap({ Point(rawValue: String($0)) }) else { return nil }
        self.init(point: point, count: parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
    }

    package func reach(_ point: Point) {
        guard point == self.point else { return }
        let reached = lock.withLock {
            self.reached += 1
            return self.reached
        }
        if reached == count { kill(getpid(), SIGKILL) }
    }
}
