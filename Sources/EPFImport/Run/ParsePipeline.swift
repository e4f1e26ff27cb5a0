import EPFCatalogStore
import EPFFormat
import EPFInput
import Foundation

/// The records of one chunk, parsed into batches of field spans that point
/// into the chunk's bytes.
///
/// Invariant: built by one parsing task, then handed (through the
/// pipeline's mailbox, which synchronises) to the loader, which alone reads
/// it; so it may cross threads (`@unchecked Sendable`).
final class ParsedChunk: @unchecked Sendable {
    let chunk: Chunk
    /// Batches in record order; the last one may hold a fault or the footer.
    var batches: [RecordBatch] = []
    /// Data records in the chunk.
    var records = 0
    /// How far the reader was in the source (compressed bytes for a
    /// compressed file) when it cut this chunk: progress for people.
    let sourcePosition: Int64
    /// With a `RowSieve`: each kept record's digest, batch after batch.
    var digests: [RowDigest] = []
    /// With a previous day's digests, while the sieve matches: whether each
    /// is among them (empty for a chunk not matched).
    var known: [Bool] = []
    /// With an `ApplicationDigester`: the runs of each application's rows.
    var applicationRuns: [ApplicationDigest] = []

    init(chunk: Chunk, sourcePosition: Int64) {
        self.chunk = chunk
        self.sourcePosition = sourcePosition
    }
}

/// Record batches that go back and forth between parsing tasks and the
/// loader, so their storage is allocated once per import, not per chunk.
final class BatchPool: @unchecked Sendable {
    let columnCount: Int
    let capacity: Int
    private var free: [RecordBatch] = []
    private let lock = NSLock()

    init(columnCount: Int, capacity: Int) {
        self.columnCount = columnCount
        self.capacity = capacity
    }

    func take() -> RecordBatch {
        lock.lock()
        defer { lock.unlock() }
        return free.popLast() ?? RecordBatch(columnCount: columnCount, capacity: capacity)
    }

    func give(_ batches: [RecordBatch]) {
        lock.lock()
        free += batches
        lock.unlock()
    }
}

/// Hands values from any thread to one consumer in sequence order: value
/// `n` is taken only after `n - 1`, whatever order they were put in.
final class OrderedMailbox<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Int: Value] = [:]
    private var total: Int?
    private var failure: (any Error)?

    func put(_ value: Value, at sequence: Int) {
        condition.lock()
        values[sequence] = value
        condition.broadcast()
        condition.unlock()
    }

    /// No value after `count - 1` will come.
    func close(count: Int) {
        condition.lock()
        total = count
        condition.broadcast()
        condition.unlock()
    }

    /// The producer failed: the consumer gets this error once the values
    /// before it are taken.
    func fail(_ error: any Error, count: Int) {
        condition.lock()
        failure = error
        total = count
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for value `sequence`; nil when the sequence is over.
    func take(_ sequence: Int) throws -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = values.removeValue(forKey: sequence) { return value }
            if let total, sequence >= total {
                if let failure { throw failure }
                return nil
            }
            condition.wait()
        }
    }
}

/// Reads a table file's chunks on a reader thread, parses them on Dispatch
/// workers, and hands them to the caller (the one loader) in file order.
///
/// At most `inFlight` chunks are read but not yet loaded, which bounds
/// memory whatever the file size: a few chunk buffers and their batches.
final class ParsePipeline {
    let header: EPFHeader
    let inFlight: Int
    let batchCapacity: Int
    /// The storefronts kept, when the import keeps only some.
    let storefronts: StorefrontFilter?
    /// How rows end and fields split.
    let separators: Separators
    /// Hashes each record for the previous day's digests, when set.
    let sieve: RowSieve?
    /// Sums each application's rows of a FULL file of prices, when set.
    let digester: ApplicationDigester?

    /// - Parameters:
    ///   - batchCapacity: records per batch; by default 4096, fewer for
    ///     wide tables, so a batch's spans (16 bytes per field) stay within
    ///     ~4 MB whatever the column count.
    ///   - storefronts: the storefronts to keep (`epf import
    ///     --storefront`); the parsers leave the records of others out of
    ///     each batch on the parsing workers, so no loader decodes them.
    ///   - separators: how the file's rows end and fields split.
    ///   - sieve: takes each record's digest on the parsing workers
    ///     (`ParsedChunk.digests`), for the loader thread's `RowSieve.sift`.
    ///   - digester: sums each application's rows on the parsing workers
    ///     (`ParsedChunk.applicationRuns`).
    init(
        header: EPFHeader, inFlight: Int = 2 * ProcessInfo.processInfo.activeProcessorCount + 2, batchCapacity: Int? = nil,
        storefronts: StorefrontFilter? = nil, separators: Separators = .relational, sieve: RowSieve? = nil,
        digester: ApplicationDigester? = nil
    ) {
        self.sieve = sieve
        self.digester = digester
        self.separators = separators
        self.header = header
        self.inFlight = max(2, inFlight)
        self.batchCapacity = batchCapacity ?? Self.batchCapacity(columns: header.columns.count)
        self.storefronts = storefronts
    }

    static func batchCapacity(columns: Int) -> Int {
        min(4096, max(16, (4 << 20) / (MemoryLayout<FieldSpan>.stride * max(1, columns))))
    }

    /// Runs the pipeline over `source`, starting with `first` (already read,
    /// holding the header) at `start`. `consume` runs on the calling thread,
    /// once per chunk, in order; when it throws, reading stops and the error
    /// is rethrown after every task has finished with the source.
    func run(
        source: any ChunkSource, first: Chunk, start: Int, consume: (ParsedChunk) throws -> Void
    ) throws {
        let pool = BatchPool(columnCount: header.columns.count, capacity: batchCapacity)
        let mailbox = OrderedMailbox<ParsedChunk>()
        let slots = DispatchSemaphore(value: inFlight)
        let tasks = DispatchGroup()
        let stop = CancellationFlag()
        let header = header
        let storefronts = storefronts
        let separators = separators
        let sieve = sieve
        let digester = digester
        let workers = DispatchQueue.global(qos: .userInitiated)
        let reader = SourceBox(source)
        let firstPosition = source.bytesRead

        @Sendable func parse(_ chunk: Chunk, from: Int, sequence: Int, sourcePosition: Int64) {
            tasks.enter()
            workers.async {
                defer { tasks.leave() }
                let parsed = ParsedChunk(chunk: chunk, sourcePosition: sourcePosition)
                let parser = RecordParser(header: header, storefronts: storefronts, separators: separators)
                // One answer for the whole chunk: its batches are matched
                // all or none.
                let matching = sieve?.isMatching ?? false
                var position = from
                repeat {
                    let batch = pool.take()
                    position = parser.parse(
                        chunk.bytes, from: position, isFinal: chunk.isFinal, recordsBefore: parsed.records, into: batch)
                    parsed.records += batch.records
                    parsed.batches.append(batch)
                    if let sieve, let base = chunk.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) {
                        sieve.digest(batch, base: base, matching: matching, into: &parsed.digests, known: &parsed.known)
                    }
                    if let digester, let base = chunk.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) {
                        digester.digest(batch, base: base, into: &parsed.applicationRuns)
                    }
                    if batch.fault != nil || batch.footer != nil { break }
                    if batch.count < batch.capacity { break }
                } while position < chunk.bytes.count
                mailbox.put(parsed, at: sequence)
            }
        }

        // The reader: cuts chunks (decompressing, for streams) and starts a
        // parsing task per chunk, never more than `inFlight` ahead.
        tasks.enter()
        let readerThread = Thread {
            defer { tasks.leave() }
            var sequence = 0
            slots.wait()
            parse(first, from: start, sequence: sequence, sourcePosition: firstPosition)
            sequence += 1
            do {
                while !stop.isSet, let chunk = try reader.source.nextChunk() {
                    slots.wait()
                    if stop.isSet { slots.signal(); break }
                    parse(chunk, from: 0, sequence: sequence, sourcePosition: reader.source.bytesRead)
                    sequence += 1
                }
                mailbox.close(count: sequence)
            } catch {
                mailbox.fail(error, count: sequence)
            }
        }
        readerThread.name = "epf-reader"
        readerThread.start()

        defer {
            stop.set()
            // Unblock the reader if it waits for a slot, then wait for it and
            // every parsing task: they use the source and its buffers.
            for _ in 0..<inFlight { slots.signal() }
            tasks.wait()
        }
        var sequence = 0
        while let parsed = try mailbox.take(sequence) {
            defer {
                pool.give(parsed.batches)
                slots.signal()
            }
            try consume(parsed)
            sequence += 1
        }
    }
}

/// Gives the chunk source to the reader thread.
///
/// Invariant: only the reader thread calls the source while the pipeline
/// runs; the caller touches it again only after the reader has finished.
final class SourceBox: @unchecked Sendable {
    let source: any ChunkSource
    init(_ source: any ChunkSource) { self.source = source }
}
