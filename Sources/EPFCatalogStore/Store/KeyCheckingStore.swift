import EPFCatalogCore
import EPFCatalogRead

/// A key that more than one row of a file holds.
package struct DuplicateKey: Sendable, Encodable, Equatable {
    /// The key's values, as the catalog would store them, as text.
    package var key: [String]
    /// Rows holding it; all but the last would be skipped.
    package var rows: Int
    /// The first and the last record holding it (1-based) and their byte offsets.
    package var firstRecord: Int
    package var firstOffset: Int64
    package var lastRecord: Int
    package var lastOffset: Int64

    package init(key: [String], rows: Int, firstRecord: Int, firstOffset: Int64, lastRecord: Int, lastOffset: Int64) {
        self.key = key
        self.rows = rows
        self.firstRecord = firstRecord
        self.firstOffset = firstOffset
        self.lastRecord = lastRecord
        self.lastOffset = lastOffset
    }
}

/// How much a key-checking store may use, and how much it reports.
package struct KeyCheckSettings: Sendable {
    /// Where the temporary key index goes (nil: the system's temporary folder).
    package var temporaryFolder: String?
    /// Memory for the key check (page cache and sorter; the rest spills to disk).
    package var memory: Int
    /// Repeated keys listed per file (all of them are counted).
    package var examples: Int

    package init(temporaryFolder: String? = nil, memory: Int = 16 << 20, examples: Int = 5) {
        self.temporaryFolder = temporaryFolder
        self.memory = memory
        self.examples = examples
    }
}

/// A store for `epf verify`: it stores nothing; its loaders decode and
/// count every field as an import would, and find the keys the import
/// would find repeated. Applying changes nothing and no journal is kept.
package protocol KeyCheckingStore: CatalogStore {
    /// Examples of repeated keys, by file (its source name).
    var duplicateKeys: [String: [DuplicateKey]] { get }
}
