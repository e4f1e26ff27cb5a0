import CZlib

/// A raw deflate decoder (RFC 1951 data with no gzip or zlib wrapper, as
/// zip entries hold it) that works between buffers the caller owns: input
/// from wherever the compressed bytes are buffered, output straight into the
/// reader's buffer, so nothing is copied or allocated per call.
final class RawInflater {
    /// Why zlib stopped: its message, or its code when it gave none.
    struct Failure: Error {
        var message: String
    }

    /// What one `inflate` call did.
    struct Step {
        var consumed: Int
        var produced: Int
        /// The deflate data's last block has been decoded.
        var ended: Bool
    }

    /// zlib keeps a pointer back to its stream: it must not move, so it
    /// lives on the heap for the life of the inflater.
    private let zstream: UnsafeMutablePointer<z_stream>

    init() throws(Failure) {
        zstream = .allocate(capacity: 1)
        zstream.initialize(to: z_stream())
        // Negative window bits: raw deflate, no header or trailer.
        let code = inflateInit2_(zstream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else {
            zstream.deallocate()
            throw Failure(message: "cannot start zlib (code \(code))")
        }
    }

    deinit {
        inflateEnd(zstream)
        zstream.deallocate()
    }

    /// Forgets the stream decoded so far, ready for the next one (keeps the
    /// 32 KB window zlib allocated, so no allocation per entry).
    func reset() {
        inflateReset(zstream)
    }

    /// Decodes from `input` into `output` until one of them is used up or
    /// the deflate data ends. zlib holds no pointer into either buffer after
    /// the call returns: `next_in`/`next_out` are set afresh on each call.
    func inflate(input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) throws(Failure) -> Step {
        let inCount = min(input.count, Int(UInt32.max))
        let outCount = min(output.count, Int(UInt32.max))
        // zlib's `next_in` is not const, but it never writes through it.
        zstream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        zstream.pointee.avail_in = uInt(inCount)
        zstream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        zstream.pointee.avail_out = uInt(outCount)
        let code = CZlib.inflate(zstream, Z_NO_FLUSH)
        let step = Step(
            consumed: inCount - Int(zstream.pointee.avail_in),
            produced: outCount - Int(zstream.pointee.avail_out),
            ended: code == Z_STREAM_END)
        zstream.pointee.next_in = nil
        zstream.pointee.next_out = nil
        switch code {
        case Z_OK, Z_STREAM_END:
            return step
        case Z_BUF_ERROR:
            // No progress was possible (no input left, or no room): not an
            // error by itself; the caller knows which.
            return step
        case Z_MEM_ERROR:
            throw Failure(message: "out of memory")
        default:
            throw Failure(message: zstream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)")
        }
    }
}

/// The CRC-32 (zip's and gzip's) of `bytes`, continuing from `crc`.
func zipCRC32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard var next = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return crc }
    var value = uLong(crc)
    var left = bytes.count
    // zlib takes a 32-bit length: big buffers go in pieces.
    while left > 0 {
        let piece = min(left, 1 << 30)
        value = crc32(value, next, uInt(piece))
        next += piece
        left -= piece
    }
    return UInt32(truncatingIfNeeded: value)
}
