import Dispatch
import Foundation

/// A bzip2 file (`.bz2`, and the bzip2 layer of `.tbz`) decompressed on all
/// cores: the same bytes, errors and observer as `Bzip2Stream` (which stays
/// the fallback for input that cannot be mapped), up to N times faster on N
/// cores.
///
/// bzip2 compresses blocks (100-900 kB of input each) independently. The
/// file is memory-mapped; the reading thread finds the block boundaries
/// (`Bzip2BlockScanner`), Dispatch workers decode the blocks with our own
/// decoder (`Bzip2BlockJob`, `Bzip2BlockDecoder`: ~3x libbz2's speed),
/// and `read(into:)` hands out their bytes in file order. Several streams
/// one after the other (pbzip2, lbzip2, `cat a.bz2 b.bz2`), with different
/// block sizes, read as one.
///
/// Checks: every block's CRC against its bytes; each stream's CRC is
/// recomputed from its blocks' CRCs and compared with its footer.
///
/// Memory: at most `maxBlocksInFlight` blocks are being decompressed or
/// waiting to be read (one more while a block is being repaired, below).
/// Each holds its output (at most 100 kB x level for ordinary data, up to
/// ~46 MB for a level-9 block of long runs; such a buffer is trimmed again
/// when reused), and each running worker a decoder's buffers (~6 MB for
/// level-9 blocks, most of it the inverse transform's vector). With the
/// default 4 blocks per core that is ~20 MB on 2 cores.
///
/// A false block magic: the 48-bit magic could in principle appear inside a
/// block's compressed bits (a 2^-48 chance per bit). The scanner cannot
/// tell, so the block is cut in two there, and the first piece needs bits
/// past its end. Such a block is therefore merged with the next piece and
/// decoded again, until it decodes or is longer than any real block could
/// be; only then is it reported as corrupt. Any other failure (a CRC, a
/// bad table, ...) is reported at once. An end-of-stream magic is believed
/// only where a new stream (or the end of the file) follows it.
///
/// SPI (`@_spi(Benchmarks) import EPFInput`): public for the benchmark
/// package's input suite, which measures it alone; an import opens it
/// through `InputFormat`.
@_spi(Benchmarks)
public final class ParallelBzip2Stream: ByteStream, InputObservable {
    /// The path as given.
    public var path: String { file.path }
    /// Compressed bytes the scanner has passed (and shown to the observer).
    package var sourceBytesRead: Int64 { Int64(observed) }
    /// The compressed file's size.
    package var sourceSize: Int64? { Int64(file.size) }
    /// The most blocks decompressed ahead of the reader.
    public let maxBlocksInFlight: Int

    let file: MappedFile
    let scanner: Bzip2BlockScanner
    let workers = DispatchQueue.global(qos: .userInitiated)
    /// Set when the stream goes away: blocks not started yet are skipped
    /// (a probe reads a few kB and drops the stream).
    let cancelled = CancellationFlag()
    /// The workers' block decoders and their buffers, reused.
    let decoders = Bzip2DecoderPool()

    private var observer: ((UnsafeRawBufferPointer) -> Void)?
    /// Bytes shown to the observer: the front of the file.
    private var observed = 0
    private var state: ParseState = .streamHeader(byte: 0)
    /// What the parser found and the reader has not reached yet, in file order.
    private var pending: [Item] = []
    private var pendingHead = 0
    /// The block being read out.
    private var current: Bzip2BlockJob?
    /// Jobs holding a block (pending or current), and idle ones to reuse.
    private var liveJobs = 0
    private var idleJobs: [Bzip2BlockJob] = []
    /// The current stream's CRC from its blocks' CRCs so far.
    private var combinedCRC: UInt32 = 0
    /// The first error; every later read throws it again.
    private var failure: InputError?
    /// Tests only: bit offsets the parser takes for block magics as well, to
    /// play false magics inside blocks (sorted).
    var falseMagicsForTesting: [Int] = []
    /// Pieces merged back into the block before them (for tests).
    private(set) var mergedPieces = 0

    /// Opens (maps) the file at `path`; reading starts with the first
    /// `read(into:)`, which reports a file that is not bzip2. Throws when
    /// the file cannot be opened or mapped.
    public convenience init(path: String, maxBlocksInFlight: Int = 4 * ProcessInfo.processInfo.activeProcessorCount) throws {
        self.init(file: try MappedFile(path: path), maxBlocksInFlight: maxBlocksInFlight)
    }

    /// Reads the bzip2 data of a file already mapped.
    package init(file: MappedFile, maxBlocksInFlight: Int = 4 * ProcessInfo.processInfo.activeProcessorCount) {
        self.file = file
        scanner = Bzip2BlockScanner(bytes: file.bytes)
        self.maxBlocksInFlight = max(2, maxBlocksInFlight)
    }

    deinit {
        // Running blocks finish on their own; they hold what they use.
        cancelled.set()
    }

    /// Called with every compressed byte of the file, once, in order, as
    /// the scanner passes it (for an md5 in the same pass).
    package func observeInput(_ observer: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.observer = observer
    }

    /// Fills `buffer` with the next decompressed bytes, in file order;
    /// returns how many, 0 at the end. Throws for a file that is empty, not
    /// bzip2, cut short or corrupt (after handing out the good
    /// bytes before the problem), and again on every later call.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let failure { throw failure }
        guard !buffer.isEmpty else { return 0 }
        var written = 0
        do {
            try fill(buffer, written: &written)
        } catch {
            // The bytes before the problem go out first; the error next time.
            failure = error
            if written == 0 { throw error }
        }
        return written
    }

    private func fill(_ buffer: UnsafeMutableRawBufferPointer, written: inout Int) throws(InputError) {
        while written < buffer.count {
            if let job = current {
                let count = min(job.output.count - job.delivered, buffer.count - written)
                if count > 0 {
                    (buffer.baseAddress! + written).copyMemory(from: job.output.bytes + job.delivered, byteCount: count)
                    job.delivered += count
                    written += count
                    continue
                }
                release(job)
                current = nil
            }
            startBlocks()
            guard let item = takeItem() else { break }
            switch item {
            case .block(let job):
                try finish(job)
            case .streamEnd(let stored, let byte):
                guard stored == combinedCRC else {
                    throw corrupt(at: byte, "the stream's CRC does not match its blocks")
                }
                combinedCRC = 0
            case .failure(let error):
                throw error
            }
        }
    }

    // MARK: The workers

    /// Parses ahead and starts blocks until `maxBlocksInFlight` are live.
    private func startBlocks() {
        while liveJobs < maxBlocksInFlight, let item = parseNext() {
            pending.append(item)
        }
    }

    private func takeItem() -> Item? {
        guard pendingHead < pending.count else { return nil }
        let item = pending[pendingHead]
        pendingHead += 1
        if pendingHead == pending.count || pendingHead > 64 {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        return item
    }

    /// A job for bits `start..<end`, already started on a worker.
    private func startBlock(start: Int, end: Int, level: Int, crc: UInt32) -> Bzip2BlockJob {
        let job = idleJobs.popLast() ?? Bzip2BlockJob(outputCapacity: level * 100_000 + 4096)
        job.startBit = start
        job.endBit = end
        job.level = level
        job.crc = crc
        liveJobs += 1
        let file = file
        let cancelled = cancelled
        let decoders = decoders
        workers.async {
            if !cancelled.isSet { job.decode(file.bytes, decoders: decoders) }
            job.done.signal()
        }
        return job
    }

    private func release(_ job: Bzip2BlockJob) {
        job.trimOutput(to: 900_000 + 4096)
        liveJobs -= 1
        idleJobs.append(job)
    }

    /// Waits for `job` and makes it the block being read; repairs a block
    /// cut at a false magic (see the type's comment): only a block that
    /// needs bits past its end can be such a piece, any other failure is
    /// reported at once.
    private func finish(_ job: Bzip2BlockJob) throws(InputError) {
        job.done.wait()
        while let failure = job.failure {
            guard failure == .runsPastEnd else { throw corrupt(at: job.startBit / 8, failure.what) }
            if pendingHead == pending.count, let item = parseNext() { pending.append(item) }
            guard pendingHead < pending.count, case .block(let next) = pending[pendingHead],
                next.endBit - job.startBit <= Self.longestBlockBits(level: job.level)
            else {
                if pendingHead < pending.count, case .failure(let error) = pending[pendingHead] { throw error }
                throw corrupt(at: job.startBit / 8, failure.what)
            }
            _ = takeItem()
            next.done.wait()
            job.endBit = next.endBit
            release(next)
            mergedPieces += 1
            job.decode(file.bytes, decoders: decoders)
        }
        combinedCRC = (combinedCRC << 1 | combinedCRC >> 31) ^ job.crc
        current = job
    }

    /// More bits than any real block of a stream at `level` can take: up to
    /// 100 kB x level symbols of at most 20 bits, plus tables.
    static func longestBlockBits(level: Int) -> Int { level * 100_000 * 20 + 1_000_000 }

    // MARK: The parser

    /// Where the parser is in the file.
    private enum ParseState {
        /// A stream header (`BZh1`-`BZh9`) or the end of the file is due.
        case streamHeader(byte: Int)
        /// A block starts at `bit`; its end is not found yet.
        case block(bit: Int, level: Int, crc: UInt32)
        /// A stream's end marker is at `bit`.
        case streamEnd(bit: Int)
        case done
    }

    /// What the reader meets, in file order.
    private enum Item {
        case block(Bzip2BlockJob)
        /// A stream's end with the CRC its footer stores.
        case streamEnd(storedCRC: UInt32, byte: Int)
        /// The file stops making sense here; output before it is good.
        case failure(InputError)
    }

    /// The next item, starting its block; nil at the end of the file.
    private func parseNext() -> Item? {
        while true {
            switch state {
            case .done:
                return nil

            case .streamHeader(let byte):
                let count = file.size
                if byte == count {
                    state = .done
                    if count == 0 {
                        return .failure(InputError.bzip2Empty(path))
                    }
                    showObserver(upTo: count)
                    return nil
                }
                let header = Self.headerLevel(file.bytes, at: byte)
                guard let level = header.level else {
                    state = .done
                    if header.isPrefix { return .failure(endsEarly(inBlockAt: nil)) }
                    return .failure(
                        InputError.notBzip2(path, at: Int64(byte)))
                }
                let first = (byte + 4) * 8
                guard first + 80 <= scanner.bitCount else {
                    state = .done
                    return .failure(endsEarly(inBlockAt: nil))
                }
                switch scanner.bits(at: first, count: 48) {
                case Bzip2BlockScanner.blockMagic:
                    state = .block(bit: first, level: level, crc: UInt32(scanner.bits(at: first + 48, count: 32)))
                case Bzip2BlockScanner.endOfStreamMagic:
                    state = .streamEnd(bit: first)
                default:
                    state = .done
                    return .failure(corrupt(at: byte + 4, "no block after the stream header"))
                }

            case .block(let start, let level, let crc):
                // A rejected end-of-stream magic, the last one believed if
                // the file has no marker after it (extra bytes at the end).
                var rejectedEnd: Int?
                var from = start + 80
                while true {
                    guard let marker = nextMarker(from: from) else {
                        if let end = rejectedEnd {
                            state = .streamEnd(bit: end)
                            return .block(startBlock(start: start, end: end, level: level, crc: crc))
                        }
                        state = .done
                        return .failure(endsEarly(inBlockAt: start / 8))
                    }
                    showObserver(upTo: marker.bitOffset / 8)
                    switch marker.kind {
                    case .block:
                        let next = marker.bitOffset
                        state = .block(bit: next, level: level, crc: UInt32(scanner.bits(at: next + 48, count: 32)))
                        return .block(startBlock(start: start, end: next, level: level, crc: crc))
                    case .endOfStream where endsStream(at: marker.bitOffset):
                        state = .streamEnd(bit: marker.bitOffset)
                        return .block(startBlock(start: start, end: marker.bitOffset, level: level, crc: crc))
                    case .endOfStream:
                        rejectedEnd = marker.bitOffset
                        from = marker.bitOffset + 1
                    }
                }

            case .streamEnd(let bit):
                guard bit + 80 <= scanner.bitCount else {
                    state = .done
                    return .failure(endsEarly(inBlockAt: nil))
                }
                let stored = UInt32(scanner.bits(at: bit + 48, count: 32))
                state = .streamHeader(byte: (bit + 80 + 7) / 8)
                return .streamEnd(storedCRC: stored, byte: bit / 8)
            }
        }
    }

    /// The scanner's next marker, or an earlier false one planted by a test.
    private func nextMarker(from bit: Int) -> Bzip2BlockScanner.Marker? {
        let found = scanner.nextMarker(from: bit)
        if let planted = falseMagicsForTesting.first(where: { $0 >= bit }), planted < found?.bitOffset ?? .max {
            return Bzip2BlockScanner.Marker(bitOffset: planted, kind: .block)
        }
        return found
    }

    /// Whether an end-of-stream magic at `bit` is real: its CRC fits, and
    /// the file ends or a new stream (header, then a marker) follows.
    private func endsStream(at bit: Int) -> Bool {
        guard bit + 80 <= scanner.bitCount else { return false }
        let next = (bit + 80 + 7) / 8
        if next == file.size { return true }
        guard Self.headerLevel(file.bytes, at: next).level != nil, (next + 10) * 8 <= scanner.bitCount else { return false }
        let magic = scanner.bits(at: (next + 4) * 8, count: 48)
        return magic == Bzip2BlockScanner.blockMagic || magic == Bzip2BlockScanner.endOfStreamMagic
    }

    /// The block size digit of a `BZh1`-`BZh9` header at `byte`; or nil, and
    /// whether the file's last bytes are the start of one.
    static func headerLevel(_ bytes: UnsafeRawBufferPointer, at byte: Int) -> (level: Int?, isPrefix: Bool) {
        let expected: [UInt8] = [0x42, 0x5A, 0x68]
        let available = bytes.count - byte
        for index in 0..<min(3, available) where bytes[byte + index] != expected[index] {
            return (nil, false)
        }
        guard available >= 4 else { return (nil, true) }
        let digit = bytes[byte + 3]
        guard digit >= 0x31 && digit <= 0x39 else { return (nil, false) }
        return (Int(digit - 0x30), false)
    }

    private func showObserver(upTo byte: Int) {
        guard byte > observed else { return }
        observer?(UnsafeRawBufferPointer(rebasing: file.bytes[observed..<byte]))
        observed = byte
    }

    // MARK: Errors (worded in Bzip2Errors.swift, as Bzip2Stream's)

    private func corrupt(at byte: Int, _ what: String) -> InputError {
        .bzip2Corrupt(path, at: Int64(byte), what)
    }

    private func endsEarly(inBlockAt byte: Int?) -> InputError {
        let place = byte.map { ", inside the block at compressed byte \($0)" } ?? ""
        return .bzip2EndsEarly(path, "after \(file.size) compressed bytes\(place)")
    }
}

/// A flag set once, read from any thread (a stream going away, a pipeline
/// stopping).
///
/// Invariant (`@unchecked Sendable`): `value` is only touched under `lock`.
package final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    package init() {}

    package var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    package func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
