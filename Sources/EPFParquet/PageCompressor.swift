import CZstd

/// How pages are compressed.
public enum ParquetCompression: Sendable, Hashable {
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

/// Compresses page bodies for one encoding call: one zstd context, made at
/// `init` and freed with the compressor, used for every page (a context
/// allocates megabytes; a page should not). Not shareable between threads:
/// make one per row group being encoded.
package final class PageCompressor {
    package let compression: ParquetCompression
    private let context: OpaquePointer?
    /// Room for the compressed pages, as large as the largest bound yet
    /// (reused: neither reallocated nor cleared page after page).
    private var storage: [UInt8] = []
    private var count = 0

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

    /// Compresses `body`; false when uncompressed (the body is the page).
    /// The compressed bytes are `withOutput`'s until the next call.
    package func compress(_ body: [UInt8]) -> Bool {
        guard let context else { return false }
        let bound = ZSTD_compressBound(body.count)
        if storage.count < bound { storage = [UInt8](repeating: 0, count: bound) }
        let size = body.withUnsafeBytes { source in
            storage.withUnsafeMutableBytes { destination in
                ZSTD_compress2(context, destination.baseAddress, bound, source.baseAddress, source.count)
            }
        }
        // Only a destination smaller than the bound can fail.
        precondition(ZSTD_isError(size) == 0, "zstd: \(String(cString: ZSTD_getErrorName(size)))")
        count = size
        return true
    }

    /// The bytes of the last compressed page.
    package var outputCount: Int { count }

    /// Calls `body` with the bytes of the last compressed page.
    package func withOutput<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }
}
