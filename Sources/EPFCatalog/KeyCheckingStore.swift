/// A key that more than one row of a file holds.
public struct DuplicateKey: Sendable, Encodable, Equatable {
    /// The key's values, as the catalog would store them, as text.
    public var key: [String]
    /// Rows holding it; all but the last would be skipped.
    public var rows: Int
    /// The first and the last record holding it (1-based) and their byte offsets.
    public var firstRecord: Int
    public var firstOffset: Int64
    public var lastRecord: Int
    public var lastOffset: Int64

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
public struct KeyCheckSettings: Sendable {
    /// Where the temporary key index goes (nil: the system's temporary folder).
    public var temporaryFolder: String?
    /// Memory for the key check (page cache and sorter; the rest spills to disk).
    public var memory: Int
    /// Repeated keys listed per file (all of them are counted).
    public var examples: Int

    public init(temporaryFolder: String? = nil, memory: Int = 16 << 20, examples: Int = 5) {
        self.temporaryFolder = temporaryFolder
        self.memory = memory
        self.examples = examples
    }
}

/// A store for `epf verify`: it stores nothing; its loaders decode and
/// count every field as an import would, and find the keys the import
/// would find repeated. Applying changes nothing and no journal is kept.
public protocol KeyCheckingStore: CatalogStore {
    /// Examples of repeated keys, by file (its source name).
    var duplicateKeys: [String: [DuplicateKey]] { get }
}
