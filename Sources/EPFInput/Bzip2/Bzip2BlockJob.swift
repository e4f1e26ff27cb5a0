import Dispatch
import Foundation

/// One bzip2 block to decode on a worker: where its bits are, and (after
/// `decode`) its bytes or why it failed. Jobs are reused block after block;
/// the decoder's big buffers are borrowed from a `Bzip2DecoderPool` for the
/// length of one decode.
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
    /// The CRC in the block's header (the stream's CRC is made of these).
    var crc: UInt32 = 0

    /// Why the last `decode` failed; nil when the block decoded and its CRC
    /// matched.
    private(set) var failure: Bzip2BlockFailure?
    var succeeded: Bool { failure == nil }

    /// The decompressed bytes: `output.bytes[0..<output.count]`; `delivered`
    /// of them were already copied out.
    private(set) var output: Bzip2Output
    var delivered = 0

    /// Signalled once per `decode` when it has finished.
    let done = DispatchSemaphore(value: 0)

    /// A job whose output buffer starts at `outputCapacity` bytes (it grows
    /// when a block decompresses to more).
    init(outputCapacity: Int) {
        output = Bzip2Output(capacity: outputCapacity)
    }

    deinit {
        output.deallocate()
    }

    /// Gives back an output buffer that a block of long runs made huge, so
    /// idle jobs stay small.
    func trimOutput(to capacity: Int) {
        output.trim(to: capacity)
    }

    /// Decodes bits `startBit..<endBit` of `file` (a block of a stream at
    /// `level`) into `output`, or records why not. Does not signal `done`.
    func decode(_ file: UnsafeRawBufferPointer, decoders: Bzip2DecoderPool) {
        delivered = 0
        let decoder = decoders.take()
        defer { decoders.put(decoder) }
        do {
            try decoder.decode(file, startBit: startBit, endBit: endBit, level: level, into: &output)
            failure = nil
        } catch {
            output.count = 0
            failure = error
        }
    }
}

/// Idle block decoders, shared by one stream's workers: each decode takes
/// one and puts it back, so there are only as many as ever ran at once
/// (about one per core), each keeping its ~6 MB of buffers for the next
/// block.
///
/// Invariant (`@unchecked Sendable`): `idle` is only touched under `lock`;
/// a decoder taken out belongs to the taker alone until it is put back.
final class Bzip2DecoderPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [Bzip2BlockDecoder] = []

    init() {}

    func take() -> Bzip2BlockDecoder {
        lock.lock()
        let decoder = idle.popLast()
        lock.unlock()
        return decoder ?? Bzip2BlockDecoder()
    }

    func put(_ decoder: Bzip2BlockDecoder) {
        lock.lock()
        idle.append(decoder)
        lock.unlock()
    }
}
