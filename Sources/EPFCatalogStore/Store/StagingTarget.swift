import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// What a loader writes: one table file, mapped to its catalog table.
/// Named by `CatalogStore`; made and read inside this package.
public struct StagingTarget: Sendable {
    /// The catalog table (the file's name, `-` made `_`, plus any prefix).
    package var table: String
    /// The file's header.
    package var header: EPFHeader
    /// The file as the user named it, for messages.
    package var sourceName: String
    /// The feed the file belongs to (`itunes`, `pricing`, ...), if known.
    package var feed: String?
    /// What tells this file's bytes from other files: a load resumes only
    /// from a checkpoint made for the same source. nil: never resumed.
    package var source: SourceIdentity?
    /// How many days of the change log the apply keeps (`epf import
    /// --keep-history`); nil keeps every change.
    package var keepHistoryDays: Int?

    /// The file named `sourceName` (for messages), whose header is
    /// `header`, loaded into catalog table `table`; never resumed. For the
    /// loader benchmark (`Benchmarks/`), which loads through a store's
    /// `makeLoader(for:strict:)` without the importer.
    @_spi(Benchmarks)
    public init(table: String, header: EPFHeader, sourceName: String) {
        self.init(table: table, header: header, sourceName: sourceName, feed: nil, source: nil)
    }

    /// As `init(table:header:sourceName:)`, with the feed the file belongs
    /// to and, to resume a load of it, its identity.
    package init(table: String, header: EPFHeader, sourceName: String, feed: String? = nil, source: SourceIdentity? = nil) {
        self.table = table
        self.header = header
        self.sourceName = sourceName
        self.feed = feed
        self.source = source
    }
}
