import CBZip2
import Dispatch

/// One bzip2 block decompressed on its own: its bits cut out of the file,
/// re-wrapped as a complete one-block stream and handed to libbz2. Each job
/// owns its buffers and its `bz_stream` and is reused block after block.
///
/// The one-block stream is `BZh` + the level, the block's bits shifted to
/// start on a byte, the end-of-stream magic, the stream CRC (for one block
/// it equals the block's CRC) and zero padding. libbz2 then checks the
/// block's CRC against the bytes it produced, and that CRC against the
/// stream CRC.
///
/// Invariant (`@unchecked Sendable`): one thread at a time. The stream sets
/// the block's range, then hands the job to one Dispatch worker; the worker
/// writes the result and signals `done`; the stream reads the result only
/// after waiting on `done` (the semaphore orders the memory accesses).
final class Bzip2BlockJob: @unchecked Sendable {
    /// The block's first bit (its magic) in the file.
    var startBit = 0
    /// The bit after the block's last (the next marker's first).
    var endBit = 0
    /// The stream's block size in 100 kB (the header's digit, 1-9).
    var level = 9
    /// The CRC in the block's header.
    var crc: UInt32 = 0

    /// libbz2's result: `BZ_STREAM_END` when the block decoded and its CRC
    /// matched.
    private(set) var code: Int32 = BZ_OK
    var succeeded: Bool { code == BZ_STREAM_END }
    var outOfMemory: Bool { code == BZ_MEM_ERROR }

    /// The decompressed bytes: `output[0..<outputCount]`; `delivered` of
    /// them were already copied out.
    private(set) var output: UnsafeMutableRawPointer
    private(set) var outputCapacity: Int
    private(set) var outputCount = 0
    var delivered = 0

    /// Signalled once per `decode` when it has finished.
    let done = DispatchSemaphore(value: 0)

    private var wrapped: UnsafeMutableRawPointer
    private var wrappedCapacity: Int
    /// libbz2 keeps a pointer back to its stream: it must not move.
    private let stream: UnsafeMutablePointer<bz_stream>

    /// A job whose output buffer starts at `outputCapacity` bytes (it grows
    /// when a block decompresses to more).
    init(outputCapacity: Int) {
        self.outputCapacity = max(outputCapacity, 4096)
        output = .allocate(byteCount: self.outputCapacity, alignment: 16)
        wrappedCapacity = 64 << 10
        wrapped = .allocate(byteCount: wrappedCapacity, alignment: 16)
        stream = .allocate(capacity: 1)
        stream.initialize(to: bz_stream())
    }

    deinit {
        output.deallocate()
        wrapped.deallocate()
        stream.deallocate()
    }

    /// Gives back an output buffer that a block of long runs made huge (a
    /// bzip2 block can expand up to ~46 MB), so idle jobs stay small.
    func trimOutput(to capacity: Int) {
        guard outputCapacity > capacity * 2 else { return }
        output.deallocate()
        outputCapacity = capacity
        output = .allocate(byteCount: capacity, alignment: 16)
    }

    /// Decompresses bits `startBit..<endBit` of `file` (a block of a stream
    /// at `level`), leaving the bytes in `output` and libbz2's verdict in
    /// `code`. Does not signal `done`.
    func decode(_ file: UnsafeRawBufferPointer) {
        outputCount = 0
        delivered = 0
        let length = wrap(file)
        code = decompress(length)
    }

    /// Writes the one-block stream into `wrapped`; returns its length.
    private func wrap(_ file: UnsafeRawBufferPointer) -> Int {
        let blockBits = endBit - startBit
        let blockBytes = (blockBits + 7) / 8
        // Header, block, 80 trailer bits, padding, and slack for 8-byte stores.
        let needed = 4 + blockBytes + 11 + 16
        if needed > wrappedCapacity {
            wrapped.deallocate()
            wrappedCapacity = max(needed, wrappedCapacity * 2)
            wrapped = .allocate(byteCount: wrappedCapacity, alignment: 16)
        }
        let out = wrapped.assumingMemoryBound(to: UInt8.self)
        out[0] = 0x42  // B
        out[1] = 0x5A  // Z
        out[2] = 0x68  // h
        out[3] = 0x30 + UInt8(level)
        copyBits(from: file, to: out + 4, byteCount: blockBytes)

        // Clear what follows the block's last bit, then append the trailer.
        var bit = 32 + blockBits
        let partial = bit % 8
        if partial != 0 { out[bit / 8] &= UInt8(truncatingIfNeeded: 0xFF << (8 - partial)) }
        let firstClear = (bit + 7) / 8
        (out + firstClear).initialize(repeating: 0, count: 12)
        // 80 bits per block, written bit by bit: nothing here to optimise.
        let trailer = [(Bzip2BlockScanner.endOfStreamMagic, 48), (UInt64(crc), 32)]
        for (value, count) in trailer {
            for index in stride(from: count - 1, through: 0, by: -1) {
                if (value >> UInt64(index)) & 1 == 1 { out[bit / 8] |= 0x80 >> UInt8(bit % 8) }
                bit += 1
            }
        }
        return (bit + 7) / 8
    }

    /// Copies `byteCount` bytes' worth of bits from bit `startBit` of `file`
    /// to `out`, shifted so the first lands on bit 0 of `out[0]`. The last
    /// byte may carry bits past the block; the caller clears them.
    private func copyBits(from file: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>, byteCount: Int) {
        let first = startBit / 8
        let shift = startBit % 8
        let source = file.baseAddress!.assumingMemoryBound(to: UInt8.self) + first
        let available = file.count - first
        if shift == 0 {
            out.update(from: source, count: min(byteCount, available))
            return
        }
        let raw = UnsafeRawPointer(source)
        let destination = UnsafeMutableRawPointer(out)
        var index = 0
        // Eight bytes at a time while a ninth source byte exists.
        while index + 8 <= byteCount && index + 9 <= available {
            let high = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let next = UInt64(source[index + 8])
            let value = high << UInt64(shift) | next >> UInt64(8 - shift)
            destination.storeBytes(of: value.bigEndian, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < byteCount {
            let high = source[index] << UInt8(shift)
            let low = index + 1 < available ? source[index + 1] >> UInt8(8 - shift) : 0
            out[index] = high | low
            index += 1
        }
    }

    /// Runs libbz2 over `wrapped[0..<length]`, growing `output` as needed.
    private func decompress(_ length: Int) -> Int32 {
        let initCode = BZ2_bzDecompressInit(stream, 0, 0)
        guard initCode == BZ_OK else { return initCode }
        defer { BZ2_bzDecompressEnd(stream) }
        stream.pointee.next_in = wrapped.assumingMemoryBound(to: CChar.self)
        stream.pointee.avail_in = UInt32(length)
        while true {
            if outputCount == outputCapacity {
                // Long runs expand: double the buffer, keeping what is there.
                let bigger = UnsafeMutableRawPointer.allocate(byteCount: outputCapacity * 2, alignment: 16)
                bigger.copyMemory(from: output, byteCount: outputCount)
                output.deallocate()
                output = bigger
                outputCapacity *= 2
            }
            let room = outputCapacity - outputCount
            stream.pointee.next_out = (output + outputCount).assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_out = UInt32(min(room, Int(UInt32.max)))
            let inBefore = stream.pointee.avail_in
            let code = BZ2_bzDecompress(stream)
            let produced = Int(UInt32(min(room, Int(UInt32.max))) - stream.pointee.avail_out)
            outputCount += produced
            switch code {
            case BZ_STREAM_END:
                return code
            case BZ_OK:
                // Out of input before the end: the block was cut short.
                if stream.pointee.avail_in == 0 && produced < room { return BZ_UNEXPECTED_EOF }
                if produced == 0 && stream.pointee.avail_in == inBefore { return BZ_DATA_ERROR }
            default:
                return code
            }
        }
    }
}
