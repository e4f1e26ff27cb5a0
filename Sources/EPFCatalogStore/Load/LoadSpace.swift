import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// How a load uses the disk besides the table it writes: what the check
/// before a file loads adds to and takes from the table's size. Named by
/// `CatalogStore`; made and read inside this package.
public struct LoadSpace: Sendable, Equatable {
    /// Bytes free inside the catalog that a load fills before it takes more
    /// of the disk: SQLite's free pages, which a FULL re-import leaves
    /// (the replaced table's) until `epf compact` returns them.
    package var reusableBytes: Int64
    /// The most a load writes beside its table for a while: SQLite's
    /// write-ahead log, which holds the pages a load writes until they are
    /// copied into the file (`WALCheckpointer` bounds it).
    package var transientBytes: Int64

    package init(reusableBytes: Int64 = 0, transientBytes: Int64 = 0) {
        self.reusableBytes = reusableBytes
        self.transientBytes = transientBytes
    }
}
