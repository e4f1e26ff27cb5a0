/// How the writer cuts, encodes and compresses: sizes of pages and
/// dictionaries, the codec, and the `created_by` it records.
public struct ParquetWriterOptions: Sendable {
    /// A data page closes once its values take this many bytes (default 1 MiB).
    public var pageSize: Int
    /// ... or once it holds this many rows (default 20,000).
    public var maxRowsPerPage: Int
    /// A dictionary-encoded chunk falls back to PLAIN once its dictionary
    /// page would pass this many bytes (default 1 MiB).
    public var dictionaryPageSizeLimit: Int
    /// How pages are compressed (default zstd, level 3).
    public var compression: ParquetCompression
    /// The footer's `created_by` ("<application> version <version>").
    public var createdBy: String

    public init(
        pageSize: Int = 1 << 20, maxRowsPerPage: Int = 20_000, dictionaryPageSizeLimit: Int = 1 << 20,
        compression: ParquetCompression = .zstd(level: 3), createdBy: String = "epf-importer version 0.1.0"
    ) {
        precondition(pageSize > 0 && maxRowsPerPage > 0 && dictionaryPageSizeLimit >= 0)
        self.pageSize = pageSize
        self.maxRowsPerPage = maxRowsPerPage
        self.dictionaryPageSizeLimit = dictionaryPageSizeLimit
        self.compression = compression
        self.createdBy = createdBy
    }
}
