import CBZip2

/// A bzip2 file (`.bz2`, and the bzip2 layer of `.tbz`) decompressed as it
/// is read. Several bzip2 streams one after the other (what parallel
/// compressors such as pbzip2 and lbzip2 write) read as one.
package final class Bzip2Stream: ByteStream {
    package var path: String { input.path }
    package var sourceBytesRead: Int64 { input.bytesRead }
    package var sourceSize: Int64? { input.size }

    let input: FileInput
    /// libbz2 keeps a pointer back to its stream: it must not move.
    let bzstream: UnsafeMutablePointer<bz_stream>
    var active = false
    var finished = false
    var produced: Int64 = 0
    var availableIn: Int { Int(bzstream.pointee.avail_in) }

    package init(path: String) throws(InputError) {
        input = try FileInput(path: path)
        bzstream = .allocate(capacity: 1)
        bzstream.initialize(to: bz_stream())
        try start()
    }

    deinit {
        if active { BZ2_bzDecompressEnd(bzstream) }
        bzstream.deallocate()
    }

    /// Called with every compressed byte read (for an md5 in the same pass).
    package func observeInput(_ observer: @escaping (UnsafeRawBufferPointer) -> Void) {
        input.observer = observer
    }

    private func start() throws(InputError) {
        let code = BZ2_bzDecompressInit(bzstream, 0, 0)
        guard code == BZ_OK else {
            throw InputError(path: path, detail: "cannot start bzip2 decompression (code \(code))", hint: "Check the system's libbz2")
        }
        active = true
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, !buffer.isEmpty else { return 0 }
        bzstream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
        bzstream.pointee.avail_out = UInt32(min(buffer.count, Int(UInt32.max)))
        while bzstream.pointee.avail_out > 0 {
            if bzstream.pointee.avail_in == 0 {
                let count = try input.fill()
                if count == 0 {
                    if active && (bzstream.pointee.total_in_lo32 > 0 || bzstream.pointee.total_in_hi32 > 0) {
                        throw InputError.bzip2EndsEarly(
                            path,
                            "after \(input.bytesRead) compressed bytes, \(produced + Int64(buffer.count - Int(bzstream.pointee.avail_out))) bytes out"
                        )
                    }
                    if input.bytesRead == 0 {
                        throw InputError.bzip2Empty(path)
                    }
                    finished = true
                    break
                }
                bzstream.pointee.next_in = UnsafeMutablePointer(mutating: input.buffer.baseAddress!.assumingMemoryBound(to: CChar.self))
                bzstream.pointee.avail_in = UInt32(count)
            }
            if !active { try start() }
            let code = BZ2_bzDecompress(bzstream)
            switch code {
            case BZ_OK:
                continue
            case BZ_STREAM_END:
                // Another stream may follow (pbzip2, lbzip2).
                BZ2_bzDecompressEnd(bzstream)
                active = false
                // A fresh bz_stream for the next one, keeping both cursors.
                var next = bz_stream()
                next.next_in = bzstream.pointee.next_in
                next.avail_in = bzstream.pointee.avail_in
                next.next_out = bzstream.pointee.next_out
                next.avail_out = bzstream.pointee.avail_out
                bzstream.pointee = next
            case BZ_DATA_ERROR_MAGIC:
                throw InputError.notBzip2(path, at: input.bytesRead - Int64(availableIn))
            case BZ_DATA_ERROR:
                throw InputError.bzip2Corrupt(path, at: input.bytesRead - Int64(availableIn), "a block's CRC or structure is wrong")
            case BZ_MEM_ERROR:
                throw InputError.bzip2OutOfMemory(path)
            default:
                throw InputError(path: path, detail: "bzip2 error \(code)", hint: "The archive is damaged; download it again")
            }
        }
        let written = buffer.count - Int(bzstream.pointee.avail_out)
        produced += Int64(written)
        return written
    }
}
