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
    /// The last compressed page (reused: its capacity stays).
    package private(set) var output: [UInt8] = []

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

    /// Compresses `body` into `output`; false when uncompressed (the body
    /// is the page).
    package func compress(_ body: [UInt8]) -> Bool {
        guard case .zstd(let level) = compression, let context else { return false }
        let bound = ZSTD_compressBound(body.count)
        if output.count < bound {
            output.append(contentsOf: repeatElement(0, count: bound - output.count))
        }
        let size = body.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                ZSTD_compressCCtx(
                    context, destination.baseAddress, destination.count, source.baseAddress, source.count, level)
            }
        }
        // Only a destination smaller than the bound can fail.
        precondition(ZSTD_isError(size) == 0, "zstd: \(String(cString: ZSTD_getErrorName(size)))")
        output.removeLast(output.count - size)
        return true
    }
}
