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

    package init(_ compression: ParquetCompression) {
        self.compression = compression
        switch compression {
        case .uncompressed: context = nil
        case .zstd: context = ZSTD_createCCtx()
        }
    }

    deinit {
        if let context { ZSTD_freeCCtx(context) }
    }

    /// Compresses `body`; false when uncompressed (the body is the page).
    /// The compressed bytes are `withOutput`'s until the next call.
    package func compress(_ body: [UInt8]) -> Bool {
        guard case .zstd(let level) = compression, let context else { return false }
        let bound = ZSTD_compressBound(body.count)
        if storage.count < bound { storage = [UInt8](repeating: 0, count: bound) }
        let size = body.withUnsafeBytes { source in
            storage.withUnsafeMutableBytes { destination in
                ZSTD_compressCCtx(context, destination.baseAddress, bound, source.baseAddress, source.count, level)
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
