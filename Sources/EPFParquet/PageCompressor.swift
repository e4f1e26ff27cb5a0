import CZstd

/// How pages are compressed.
///
/// SPI (`@_spi(Benchmarks) import EPFParquet`): public with the writer for the
/// benchmark package's Parquet suite; the lake writes through it inside
/// this package.
@_spi(Benchmarks)
public enum ParquetCompression: Sendable, Hashable {
    /// Pages as they are.
    case uncompressed
    /// zstd (the system libzstd) at `level` (1...22; 3 is zstd's default).
    case zstd(level: Int32)

    package var codec: CompressionCodec {
        switch self {
        case .uncompressed: return .uncompressed
        case .zstd: return .zstd
        }
    }
}

/// Compresses page bodies on one thread: one zstd context, made at `init`
/// and freed with the compressor, used for every page (a context
/// allocates megabytes; a page should not). Not shareable between threads:
/// a row group encoder keeps one per thread that compresses its pages.
package final class PageCompressor: @unchecked Sendable {
    package let compression: ParquetCompression
    private let context: OpaquePointer?

    /// The hash table (log2 of its entries) of levels 1 and below, which
    /// take 2^13 entries: 2^16 finds more matches in text pages of a
    /// megabyte for no more CPU (1.3% smaller lake files of generated
    /// applications, CPU unchanged: docs/PERFORMANCE.md "Parquet lake").
    /// Higher levels keep their own, as large or larger.
    static let fastHashLog: Int32 = 16

    package init(_ compression: ParquetCompression) {
        self.compression = compression
        switch compression {
        case .uncompressed: context = nil
        case .zstd(let level):
            // Parameters set once: every page then takes ZSTD_compress2.
            context = ZSTD_createCCtx()
            ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
            if level <= 1 { ZSTD_CCtx_setParameter(context, ZSTD_c_hashLog, Self.fastHashLog) }
        }
    }

    deinit {
        if let context { ZSTD_freeCCtx(context) }
    }

    /// Compresses `body` into the start of `output` (grown to zstd's bound
    /// when smaller; never shrunk, so that a reused output allocates once)
    /// and returns the compressed size; nil when uncompressed (the body is
    /// the page).
    package func compress(_ body: [UInt8], into output: inout [UInt8]) -> Int? {
        body.withUnsafeBytes { compress($0, into: &output) }
    }

    /// The same, from `body`'s memory: a page body that lies in a slice's
    /// values is compressed from there, not copied.
    package func compress(_ body: UnsafeRawBufferPointer, into output: inout [UInt8]) -> Int? {
        guard let context else { return nil }
        let bound = ZSTD_compressBound(body.count)
        if output.count < bound {
            // Uninitialized: zstd writes what is read back.
            output = [UInt8](unsafeUninitializedCapacity: bound) { _, count in count = bound }
        }
        let size = output.withUnsafeMutableBytes { destination in
            ZSTD_compress2(context, destination.baseAddress, bound, body.baseAddress, body.count)
        }
        // Only a destination smaller than the bound can fail.
        precondition(ZSTD_isError(size) == 0, "zstd: \(String(cString: ZSTD_getErrorName(size)))")
        return size
    }
}
