import EPFCatalogCore
import EPFCatalogRead
import Foundation

/// The tests' settings (`EPF_TEST_*`, listed in docs/development.md,
/// "Crash tests"), read from the environment in this one place (by `epf`)
/// and handed to the stores and the importer as values; unset, they
/// change nothing. Nothing in the libraries reads them on its own.
package struct TestEnvironment {
    package var hooks = LoadHooks()
    package var compactionHooks = CompactionHooks()
    package var chunkBytes: Int?
    package var retryDelay: TimeInterval?
    package var downloadFreeBytes: Int64?

    package init(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
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
