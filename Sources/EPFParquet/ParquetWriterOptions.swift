/// How the writer cuts, encodes and compresses: sizes of pages and
/// dictionaries, the codec, and the `created_by` it records.
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): public with the writer for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public struct ParquetWriterOptions: Sendable {
    /// A data page closes once its values take this many bytes (default 1 MiB).
    public let pageSize: Int
    /// ... or once it holds this many rows (default 20,000).
    public let maxRowsPerPage: Int
    /// A dictionary-encoded chunk falls back to PLAIN once its dictionary
    /// page passes this many bytes (default 1 MiB).
    public let dictionaryPageSizeLimit: Int
    /// How pages are compressed (default zstd, level 3).
    public let compression: ParquetCompression
    /// The footer's `created_by` ("<application> version <version>").
    public let createdBy: String

    /// The options, each as its property says.
    public init(
        pageSize: Int = 1 << 20, maxRowsPerPage: Int = 20_000, dictionaryPageSizeLimit: Int = 1 << 20,
        compression: ParquetCompression = .zstd(level: 3), createdBy: String = "epf-importer version 0.1.0"
    ) {
        // Page sizes and value counts are i32 in the page headers.
        precondition((1...(1 << 30)).contains(pageSize), "page size \(pageSize) outside 1...2^30")
        precondition((1...(1 << 30)).contains(maxRowsPerPage), "rows per page \(maxRowsPerPage) outside 1...2^30")
        precondition(
            (0...(1 << 30)).contains(dictionaryPageSizeLimit), "dictionary limit \(dictionaryPageSizeLimit) outside 0...2^30")
        self.pageSize = pageSize
        self.maxRowsPerPage = maxRowsPerPage
        self.dictionaryPageSizeLimit = dictionaryPageSizeLimit
        self.compression = compression
        self.createdBy = createdBy
    }
}
