import CZlib

/// A gzip file (`.gz`, also zlib streams and several gzip members one after
/// the other, as `cat a.gz b.gz` makes) decompressed as it is read.
package final class GzipStream: ByteStream {
    package var path: String { input.path }
    package var sourceBytesRead: Int64 { input.bytesRead }
    package var sourceSize: Int64? { input.size }

    let input: FileInput
    /// zlib keeps a pointer back to its stream: it must not move, so it lives
    /// on the heap.
    let zstream: UnsafeMutablePointer<z_stream>
    var inputEnded: Bool { input.reachedEnd }
    var streamEnded = false
    /// Bytes of output produced, for error positions.
    var produced: Int64 = 0

    package init(path: String) throws(InputError) {
        input = try FileInput(path: path)
        zstream = .allocate(capacity: 1)
        zstream.initialize(to: z_stream())
        // 15 window bits + 32: accept gzip and zlib headers alike.
        let code = inflateInit2_(zstream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else {
            zstream.deallocate()
            throw InputError(path: path, detail: "cannot start zlib (code \(code))", hint: "Check the system's zlib")
        }
    }

    deinit {
        inflateEnd(zstream)
        zstream.deallocate()
    }

    /// Called with every compressed byte read (for an md5 in the same pass).
    package func observeInput(_ observer: @escaping (UnsafeRawBufferPointer) -> Void) {
        input.observer = observer
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !buffer.isEmpty else { return 0 }
        zstream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        zstream.pointee.avail_out = uInt(min(buffer.count, Int(UInt32.max)))
        while zstream.pointee.avail_out > 0 {
            if zstream.pointee.avail_in == 0 && !inputEnded {
                try refill()
            }
            if streamEnded {
                // Another gzip member may follow.
                if zstream.pointee.avail_in == 0 && inputEnded { break }
                if zstream.pointee.avail_in == 0 { continue }
                inflateReset(zstream)
                streamEnded = false
            }
            let before = zstream.pointee.avail_out
            let code = inflate(zstream, Z_NO_FLUSH)
            switch code {
            case Z_OK, Z_BUF_ERROR:
                if zstream.pointee.avail_out == before && zstream.pointee.avail_in == 0 && inputEnded {
                    throw InputError(
                        path: path,
                        detail:
                            "the gzip data ends early (after \(sourceBytesRead) compressed bytes, \(produced + Int64(buffer.count - Int(zstream.pointee.avail_out))) bytes out)",
                        hint: "The download was cut short; download it again")
                }
            case Z_STREAM_END:
                streamEnded = true
            default:
                let message = zstream.pointee.msg.map { String(cString: $0) } ?? "code \(code)"
                throw InputError(
                    path: path,
                    detail: "corrupt gzip data near compressed byte \(sourceBytesRead - Int64(zstream.pointee.avail_in)): \(message)",
                    hint: "The archive is damaged; download it again")
            }
        }
        let written = buffer.count - Int(zstream.pointee.avail_out)
        produced += Int64(written)
        return written
    }

    private func refill() throws(InputError) {
        let count = try input.fill()
        guard count > 0 else { return }
        zstream.pointee.next_in = input.buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        zstream.pointee.avail_in = uInt(count)
    }
}
