import EPFCatalogStore

/// What an import did, file by file: the value `epf import --format json`
/// prints (keys `catalog`, `seconds`, `applied`, `failed`, `files`).
public struct ImportSummary: Sendable, Encodable {
    /// The catalog imported into, as the caller names it.
    public var catalog: String
    /// Time spent importing.
    public var elapsed: Duration
    /// One report per file, in the order they ended.
    public var files: [FileReport]

    /// The summary of `files`, imported into `catalog` in `elapsed`.
    package init(catalog: String, elapsed: Duration, files: [FileReport]) {
        self.catalog = catalog
        self.elapsed = elapsed
        self.files = files
    }

    /// Files applied to the live tables.
    public var applied: Int { files.filter { $0.status == .applied }.count }
    /// Files refused.
    public var failed: Int { files.filter { $0.status == .failed }.count }
    /// Whether every file was applied (true when there were none).
    public var allApplied: Bool { !files.contains { $0.status != .applied } }
    /// Rows of the files applied.
    public var rowsApplied: Int { files.filter { $0.status == .applied }.reduce(0) { $0 + $1.rows } }
    /// Rows of other storefronts the applied files left out (`--storefront`).
    public var rowsOfOtherStorefronts: Int { files.filter { $0.status == .applied }.reduce(0) { $0 + $1.counts.filteredRows } }
    /// Rows of the applied INCREMENTAL files that were the same as the
    /// catalog's but for `export_date`, so not written.
    public var rowsUnchanged: Int { files.filter { $0.status == .applied }.reduce(0) { $0 + ($1.outcome?.unchanged ?? 0) } }
    /// `elapsed` in seconds.
    public var seconds: Double { elapsed.inSeconds }

    private enum CodingKeys: String, CodingKey {
        case catalog, seconds, applied, failed, files
    }

    /// Encodes the summary as `epf import --format json` prints it:
    /// `catalog`, `seconds` (to the millisecond), `applied`, `failed` and
    /// `files`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(catalog, forKey: .catalog)
        try container.encode(seconds.toThousandths, forKey: .seconds)
        try container.encode(applied, forKey: .applied)
        try container.encode(failed, forKey: .failed)
        try container.encode(files, forKey: .files)
    }
}
