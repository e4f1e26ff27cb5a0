/// What the Parquet writer refuses or fails at.
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): public with the writer for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public enum ParquetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A schema the writer cannot write (the reason in words).
    case invalidSchema(String)
    /// The columns of a row group hold different numbers of rows.
    case rowCountMismatch(column: String, rows: Int, expected: Int)
    /// A row group with no rows (Parquet readers accept them; this writer
    /// writes none, so a file's row groups each hold data).
    case emptyRowGroup
    /// A row group written after `close()`, or `close()` twice.
    case closed
    /// A system call failed: what was done, the file, errno.
    case io(operation: String, path: String, errno: Int32)

    /// The problem in words.
    public var description: String {
        switch self {
        case .invalidSchema(let reason): return "invalid Parquet schema: \(reason)"
        case .rowCountMismatch(let column, let rows, let expected):
            return "column \(column) holds \(rows) rows, the row group \(expected)"
        case .emptyRowGroup: return "a row group with no rows"
        case .closed: return "the Parquet file is already closed"
        case .io(let operation, let path, let code): return "\(operation) \(path): errno \(code)"
        }
    }
}
