import EPFCatalogCore
import EPFCatalogRead

/// A load an import was killed in the middle of, kept so that an import of
/// the same file goes on from its last checkpoint.
public struct ResumableLoad: Sendable, Equatable {
    /// The staging table the load fills.
    public var staging: String
    /// The catalog table it goes into.
    public var table: String
    /// The records its last commit holds.
    public var records: Int
    /// The storefronts it keeps (`epf import --storefront`); nil: every
    /// storefront. It resumes only under the same filter.
    public var storefronts: StorefrontSet?

    package init(staging: String, table: String, records: Int, storefronts: StorefrontSet? = nil) {
        self.staging = staging
        self.table = table
        self.records = records
        self.storefronts = storefronts
    }
}

/// Which interrupted loads an import keeps to resume and which it drops,
/// decided once for every store that stages: on open, a staging table is
/// kept when it has a checkpoint (and the import may resume), dropped
/// otherwise; a checkpoint without its staging table is forgotten. When
/// the import is over, the kept loads it did not go on with (it read other
/// files) are dropped too: they would only take space.
package struct ResumeLedger: Sendable {
    /// The loads kept to resume.
    package private(set) var resumable: [ResumableLoad] = []
    /// Staging tables to drop now: no checkpoint, or no resuming.
    package let drop: [String]
    /// Checkpoints whose staging table is gone.
    package let orphanCheckpoints: [String]
    private var touched: Set<String> = []

    /// - Parameters:
    ///   - stagingTables: the staging tables the catalog holds.
    ///   - checkpoints: the loads with a checkpoint, oldest first.
    ///   - keepResumable: false for `--restart`: drop them all.
    package init(stagingTables: [String], checkpoints: [ResumableLoad], keepResumable: Bool) {
        var drop: [String] = []
        for name in stagingTables {
            if keepResumable, let load = checkpoints.last(where: { $0.staging == name }) {
                resumable.append(load)
            } else {
                drop.append(name)
            }
        }
        self.drop = drop
        let present = Set(stagingTables)
        var orphans: [String] = []
        for load in checkpoints where !present.contains(load.staging) && !orphans.contains(load.staging) {
            orphans.append(load.staging)
        }
        orphanCheckpoints = orphans
    }

    /// Notes that this import loads into (or resumes) `staging`.
    package mutating func touch(_ staging: String) { touched.insert(staging) }

    /// The kept loads this import did not touch, to drop when it is over;
    /// nothing is kept after.
    package mutating func takeUntouched() -> [String] {
        defer { resumable.removeAll() }
        return resumable.map(\.staging).filter { !touched.contains($0) }
    }
}
