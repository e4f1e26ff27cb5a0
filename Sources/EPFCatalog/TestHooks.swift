import Foundation

/// Hooks for the crash tests, read from the environment once; unset, they
/// change nothing.
///
/// - `EPF_TEST_FAULT=POINT[:N]` kills the process with SIGKILL the Nth
///   time (default 1st) it reaches `POINT` (a `FaultPoint`), as a crash or
///   `kill -9` would, at a moment a test can name.
/// - `EPF_TEST_CHECKPOINT_BYTES=N` commits a load every N bytes instead of
///   every `SQLiteCatalogStore.checkpointBytes` (or, in PostgreSQL,
///   `PostgresStoreOptions.commitBytes`).
/// - `EPF_TEST_CHUNK_BYTES=N` cuts files into chunks of N bytes.
/// - `EPF_TEST_FREE_BYTES=N` makes the catalog's disk look N bytes free.
/// - `EPF_TEST_CACHE_KIB=N` gives the importer's SQLite connection a page
///   cache of N KiB instead of `SQLiteCatalogStore.cacheKiB`: a small one
///   spills pages into the catalog mid-transaction, so a killed import
///   leaves a hot rollback journal (or uncommitted WAL frames), as a large
///   import killed a few seconds in does.
public enum TestHooks {
    /// Where a test may stop an import.
    public enum FaultPoint: String, Sendable, CaseIterable {
        /// Just after a load committed a checkpoint.
        case checkpoint
        /// Every record loaded, before the key and indexes are built.
        case beforeIndex = "before-index"
        /// Inside the apply transaction (tables swapped, journal written),
        /// before it commits.
        case inApply = "in-apply"
        /// Just after a feed was applied.
        case afterApply = "after-apply"
    }

    private static let environment = ProcessInfo.processInfo.environment

    private static let fault: (point: FaultPoint, count: Int)? = {
        guard let text = environment["EPF_TEST_FAULT"] else { return nil }
        let parts = text.split(separator: ":")
        guard let point = parts.first.flatMap({ FaultPoint(rawValue: String($0)) }) else { return nil }
        return (point, parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
    }()

    nonisolated(unsafe) private static var reached: [FaultPoint: Int] = [:]
    private static let lock = NSLock()

    /// Kills the process if the environment asks for it at this point.
    public static func reach(_ point: FaultPoint) {
        guard let fault, fault.point == point else { return }
        let count = lock.withLock {
            reached[point, default: 0] += 1
            return reached[point, default: 0]
        }
        if count == fault.count { kill(getpid(), SIGKILL) }
    }

    public static let checkpointBytes: Int64? = environment["EPF_TEST_CHECKPOINT_BYTES"].flatMap { Int64($0) }
    public static let freeBytes: Int64? = environment["EPF_TEST_FREE_BYTES"].flatMap { Int64($0) }
    public static let chunkBytes: Int? = environment["EPF_TEST_CHUNK_BYTES"].flatMap { Int($0) }
    public static let cacheKiB: Int? = environment["EPF_TEST_CACHE_KIB"].flatMap { Int($0) }
}
