import EPFCatalog
import Foundation

/// The crash tests' settings, read from the environment in this one place
/// and handed to the stores and the importer as values; unset, they change
/// nothing.
///
/// - `EPF_TEST_FAULT=POINT[:N]` kills the process with SIGKILL the Nth
///   time (default 1st) it reaches `POINT` (a `FaultInjection.Point`).
/// - `EPF_TEST_CHECKPOINT_BYTES=N` commits a load every N bytes of input.
/// - `EPF_TEST_CHUNK_BYTES=N` cuts files into chunks of N bytes.
/// - `EPF_TEST_FREE_BYTES=N` makes the catalog's disk look N bytes free
///   (to the import, and to `epf sync`'s check before downloading).
/// - `EPF_TEST_RETRY_DELAY_MS=N` makes `epf fetch`'s first wait before a
///   retry N ms (default 1 s; each next wait doubles).
/// - `EPF_TEST_DOWNLOAD_FREE_BYTES=N` makes `epf fetch`'s download folder
///   look N bytes free (the check before downloading; when the catalog of
///   `epf sync` is on the same disk, that disk).
/// - `EPF_TEST_CACHE_KIB=N` gives the importer's SQLite connection a page
///   cache of N KiB (a small one leaves a hot journal when killed).
/// - `EPF_TEST_COMPACT_STEP_MS=N` makes `epf compact` wait N ms after each
///   step of its write back (readers' tests ask while the write is open);
///   `EPF_TEST_FREE_BYTES` is its catalog's free space too.
struct TestEnvironment {
    var hooks = LoadHooks()
    var compactionHooks = CompactionHooks()
    var chunkBytes: Int?
    var retryDelay: TimeInterval?
    var downloadFreeBytes: Int64?

    init(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        hooks.fault = environment["EPF_TEST_FAULT"].flatMap { FaultInjection($0) }
        hooks.checkpointBytes = environment["EPF_TEST_CHECKPOINT_BYTES"].flatMap { Int64($0) }
        hooks.freeBytes = environment["EPF_TEST_FREE_BYTES"].flatMap { Int64($0) }
        hooks.cacheKiB = environment["EPF_TEST_CACHE_KIB"].flatMap { Int($0) }
        chunkBytes = environment["EPF_TEST_CHUNK_BYTES"].flatMap { Int($0) }
        downloadFreeBytes = environment["EPF_TEST_DOWNLOAD_FREE_BYTES"].flatMap { Int64($0) }
        retryDelay = environment["EPF_TEST_RETRY_DELAY_MS"].flatMap { Double($0) }.map { $0 / 1000 }
        compactionHooks.freeBytes = hooks.freeBytes
        compactionHooks.stepPause = environment["EPF_TEST_COMPACT_STEP_MS"].flatMap { Int($0) }.map { Duration.milliseconds($0) }
    }
}
