import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// A file the import journal lists as applied, as the importer's schedule
/// reads it (`CatalogStore.appliedFiles()`). Named by `CatalogStore`; made
/// and read inside this package. A user reads the journal as
/// `JournalRecord`s (`Catalog.journal(feed:table:status:limit:)`).
public struct AppliedFile: Sendable, Equatable {
    /// The journal row's id.
    package var id: Int64?
    package var feed: String?
    /// `YYYY-MM-DD`.
    package var feedDate: String?
    package var table: String
    /// FULL or INCREMENTAL.
    package var mode: String?
    package var exportDate: Int64?
    package var originSize: Int64?
    package var originMD5: String?
    /// The download's fingerprint (see `JournalEntry.originHash`); nil in
    /// journals written before it was recorded.
    package var originHash: String?
    /// The download's modification time when it was applied (nanoseconds
    /// since 1970); nil in journals written before it was recorded.
    package var originModified: Int64?
    /// For a file read from a feed archive: every table file the archive
    /// held (names without prefix), so a later run knows whether anything of
    /// it is still to import without reading it again.
    package var archiveTables: [String]?
    /// The storefronts the import that applied it kept (`epf import
    /// --storefront`); nil: every storefront.
    package var storefronts: StorefrontSet?

    package init(
        id: Int64? = nil, feed: String?, feedDate: String?, table: String, mode: String?, exportDate: Int64?,
        originSize: Int64?, originMD5: String?, originHash: String? = nil, originModified: Int64? = nil,
        archiveTables: [String]? = nil, storefronts: StorefrontSet? = nil
    ) {
        self.id = id
        self.feed = feed
        self.feedDate = feedDate
        self.table = table
        self.mode = mode
        self.exportDate = exportDate
        self.originSize = originSize
        self.originMD5 = originMD5
        self.originHash = originHash
        self.originModified = originModified
        self.archiveTables = archiveTables
        self.storefronts = storefronts
    }
}

extension StorefrontSet {
    /// The catalog's set: the one its last applied file recorded.
    package static func current(in applied: [AppliedFile]) -> StorefrontSet? {
        applied.last?.storefronts
    }
}
