#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file (or folder) in a zip archive, as the archive's central directory
/// describes it.
package struct ZipEntry: Sendable, Equatable, Hashable {
    /// The full path inside the archive (`itunes20261101/application`), as
    /// stored, read as UTF-8.
    package let name: String
    /// The compression method: 0 stored, 8 deflate (the two this reader
    /// reads), 12 bzip2, 14 LZMA, 93 Zstandard, 99 AES encryption, ...
    package let method: UInt16
    /// The general purpose bit flags (bit 0: encrypted; bit 3: sizes and
    /// CRC follow the data in a data descriptor).
    package let flags: UInt16
    /// The CRC-32 of the uncompressed bytes.
    package let crc32: UInt32
    /// Bytes of (compressed) data in the archive.
    package let compressedSize: Int64
    /// Bytes of data once decompressed.
    package let size: Int64
    /// Where the entry's local header starts in the file.
    package let localHeaderOffset: Int64

    package init(
        name: String, method: UInt16, flags: UInt16 = 0, crc32: UInt32, compressedSize: Int64, size: Int64,
        localHeaderOffset: Int64
    ) {
        self.name = name
        self.method = method
        self.flags = flags
        self.crc32 = crc32
        self.compressedSize = compressedSize
        self.size = size
        self.localHeaderOffset = localHeaderOffset
    }

    /// A folder entry (its name ends with `/`): it has no data.
    package var isDirectory: Bool { name.hasSuffix("/") }
    /// Whether the entry is encrypted (general purpose bit 0).
    package var isEncrypted: Bool { flags & 0x0001 != 0 }
    /// Whether `ZipReader` can read the entry's bytes: stored or deflated,
    /// and not encrypted.
    package var isSupported: Bool { !isEncrypted && (method == 0 || method == 8) }
    /// The compression method's name, for messages.
    package var methodName: String {
        switch method {
        case 0: "stored"
        case 8: "deflate"
        case 9: "deflate64"
        case 12: "bzip2"
        case 14: "LZMA"
        case 93: "Zstandard"
        case 95: "xz"
        case 98: "PPMd"
        case 99: "AES encryption"
        default: "method \(method)"
        }
    }
}

/// The files of a zip archive read as streams, in one sequential pass over
/// the archive, without extracting anything.
///
/// Opening reads the central directory (where the entries' names, methods,
/// sizes, CRCs and offsets are) with a few positioned reads at the end of the
/// file, so `entries` is known up front. Then `nextEntry()` walks the file
/// from its first byte to its last through one 1 MB buffer: every byte of the
/// file (headers, data, gaps, the central directory and end records at the
/// end) is read once, in order, and shown to the observer set with
/// `observeInput`, so an md5 of the whole archive is computed in the same pass
/// as the import. `finish()`, or the `nextEntry()` that returns nil, reads the
/// rest of the file.
///
/// Reads stored and deflated entries, zip64 archives (sizes and offsets over
/// 4 GB) and data descriptors (with or without their signature, with 32- or
/// 64-bit sizes). Each entry's size and CRC-32 are checked when it has been
/// read to its end; an entry passed over is skipped (the md5 covers it).
/// Folder entries are passed over.
///
/// ```swift
/// let zip = try ZipReader(path: path)
/// zip.observeInput { md5.update($0) }
/// while let entry = try zip.nextEntry() {
///     let source = StreamChunkSource(stream: zip.entryStream(), name: "\(path):\(entry.name)")
///     ...
/// }
/// ```
package final class ZipReader: ByteStream {
    /// The archive's path, named in errors.
    package let path: String
    /// The files in the archive (folders left out), in the order they are
    /// stored in the file, which is the order `nextEntry()` returns them.
    package let entries: [ZipEntry]
    /// The entry `nextEntry()` returned last, until the next call.
    package private(set) var currentEntry: ZipEntry?
    /// Bytes of the archive's file, as it was when opened.
    package let archiveSize: Int64

    /// Bytes of the archive read so far (the sequential pass).
    package var sourceBytesRead: Int64 { input.bytesRead }
    /// The archive's size (progress is through the whole file).
    package var sourceSize: Int64? { archiveSize }

    /// What the central directory says of one entry, folders included.
    struct Record {
        var entry: ZipEntry
        /// The name's bytes as stored, to compare with the local header's.
        var nameBytes: [UInt8]
    }

    /// Every entry, folders too, sorted by local header offset.
    let records: [Record]
    /// Where the central directory starts in the file: the data of the
    /// entries ends there.
    let centralDirectoryStart: Int64
    let input: FileInput
    /// `input.buffer[start..<end]` holds the next bytes of the file not yet
    /// consumed. `input.fill()` overwrites the whole buffer, so it is called
    /// only once `start == end`.
    var start = 0
    var end = 0
    /// The record to visit next.
    var nextRecord = 0

    // The entry being read.
    var currentRecord: Record?
    /// Compressed bytes of the current entry not yet consumed.
    var compressedLeft: Int64 = 0
    /// Bytes of output produced for the current entry, and their CRC.
    var produced: Int64 = 0
    var runningCRC: UInt32 = 0
    /// The local header set bit 3: a data descriptor follows the data.
    var hasDescriptor = false
    /// All of the entry's output was produced and checked.
    var outputDone = false
    /// Why reading the current entry failed: later reads throw it again
    /// rather than end the entry as if it were whole.
    var entryFailure: InputError?
    var inflaterNeedsReset = false
    var inflater: RawInflater?
    /// Bumped by every `nextEntry()`: an older entry stream reads nothing.
    var generation = 0
    var finished = false

    static let localHeaderSignature: UInt32 = 0x0403_4b50
    static let centralHeaderSignature: UInt32 = 0x0201_4b50
    static let descriptorSignature: UInt32 = 0x0807_4b50
    static let endSignature: UInt32 = 0x0605_4b50
    static let zip64EndSignature: UInt32 = 0x0606_4b50
    static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    /// A bigger central directory is damage (EPF archives hold a few dozen
    /// entries: a few KB).
    static let centralDirectoryLimit: Int64 = 256 << 20

    /// Opens the archive and reads its central directory. Throws when the
    /// file is not a zip archive, was cut short, or its directory is damaged.
    package init(path: String) throws(InputError) {
        self.path = path
        let input = try FileInput(path: path)
        guard let size = input.size else {
            throw InputError(path: path, detail: "cannot read the file's size", hint: "Check the file and the disk")
        }
        self.input = input
        archiveSize = size
        let directory = try ZipCentralDirectory(path: path, input: input, size: archiveSize)
        records = directory.records
        centralDirectoryStart = directory.start
        entries = directory.records.filter { !$0.entry.isDirectory }.map(\.entry)
    }

    /// Calls `observer` with every byte of the archive's file as the
    /// sequential pass reads it, in order, each byte once (for an md5 of the
    /// archive in the same pass). Set it before the first `nextEntry()`.
    package func observeInput(_ observer: @escaping (UnsafeRawBufferPointer) -> Void) {
        input.observer = observer
    }

    /// A stream of the current entry's bytes (what is left of them), ending
    /// with the entry, its size and CRC checked. It reads nothing once
    /// `nextEntry()` has moved on.
    package func entryStream() -> any ByteStream {
        ArchiveEntryStream(reader: self, generation: generation)
    }

    /// Skips what is left of the current entry (and its data descriptor) and
    /// returns the next file; nil at the end of the archive, once all of the
    /// file has been read. Folders are passed over. An entry that cannot be
    /// read (another method, encrypted) is returned all the same: reading it
    /// throws, skipping it does not.
    package func nextEntry() throws(InputError) -> ZipEntry? {
        guard !finished else { return nil }
        generation += 1
        try closeCurrent()
        while nextRecord < records.count {
            let record = records[nextRecord]
            nextRecord += 1
            try openLocal(record)
            if record.entry.isDirectory {
                try closeCurrent()
                continue
            }
            currentEntry = record.entry
            return record.entry
        }
        try finish()
        return nil
    }

    /// Reads the rest of the archive: what is left of the current entry, the
    /// entries not visited, the central directory and the end records, so the
    /// observer has seen the whole file. Then `nextEntry()` returns nil.
    package func finish() throws(InputError) {
        guard !finished else { return }
        generation += 1
        try closeCurrent()
        nextRecord = records.count
        start = end
        while try input.fill() > 0 {}
        start = 0
        end = 0
        finished = true
        guard input.bytesRead == archiveSize else {
            throw InputError(
                path: path,
                detail: "the file changed while it was read (\(archiveSize) bytes when opened, \(input.bytesRead) read)",
                hint: "Wait until nothing writes the archive (a download still running?) and import it again")
        }
    }

    /// Reads the current entry's bytes; 0 at its end (once its size and CRC
    /// have been checked), or before the first `nextEntry()`.
    package func read(into destination: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if let entryFailure { throw entryFailure }
        guard let record = currentRecord, !outputDone, !destination.isEmpty else { return 0 }
        do throws(InputError) {
            return try readEntry(record.entry, into: destination)
        } catch {
            entryFailure = error
            throw error
        }
    }

    // MARK: Entries

    private func readEntry(_ entry: ZipEntry, into destination: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard entry.isSupported else {
            if entry.isEncrypted {
                throw InputError(
                    path: path, detail: "entry \(entry.name) is encrypted, which this importer does not read",
                    hint: "EPF archives are not encrypted: download the archive again, or decrypt it and import the files")
            }
            throw InputError(
                path: path,
                detail:
                    "entry \(entry.name) is compressed with \(entry.methodName), which this importer does not read (only stored and deflate)",
                hint: "Repack the archive with deflate (zip -Z deflate), or extract it and import the files")
        }
        if entry.method == 0 { return try readStored(entry, into: destination) }
        return try readDeflated(entry, into: destination)
    }

    private func readStored(_ entry: ZipEntry, into destination: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        var written = 0
        while written < destination.count && compressedLeft > 0 {
            guard try available() else { throw endsInside(entry) }
            let count = Int(min(Int64(min(end - start, destination.count - written)), compressedLeft))
            let output = UnsafeMutableRawBufferPointer(rebasing: destination[written..<written + count])
            output.baseAddress!.copyMemory(from: input.buffer.baseAddress! + start, byteCount: count)
            start += count
            compressedLeft -= Int64(count)
            written += count
            try account(entry, UnsafeRawBufferPointer(output))
        }
        if compressedLeft == 0 { try verifyEnd(entry) }
        return written
    }

    private func readDeflated(_ entry: ZipEntry, into destination: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let inflater = try startInflater(entry)
        var written = 0
        var ended = false
        while written < destination.count {
            if start == end && compressedLeft > 0 {
                guard try available() else { throw endsInside(entry) }
            }
            // Never more than the entry's compressed bytes: what follows is
            // the next header, not deflate data.
            let given = Int(min(Int64(end - start), compressedLeft))
            let step: RawInflater.Step
            do {
                step = try inflater.inflate(
                    input: UnsafeRawBufferPointer(start: input.buffer.baseAddress! + start, count: given),
                    output: UnsafeMutableRawBufferPointer(rebasing: destination[written...]))
            } catch {
                throw damaged(entry, "corrupt deflate data near byte \(position) of the archive (zlib: \(error.message))")
            }
            start += step.consumed
            compressedLeft -= Int64(step.consumed)
            // The CRC of each piece while it is still in the cache.
            try account(entry, UnsafeRawBufferPointer(rebasing: destination[written..<written + step.produced]))
            written += step.produced
            if step.ended {
                ended = true
                break
            }
            if step.consumed == 0 && step.produced == 0 {
                // No input left (given == 0) and the deflate data not ended.
                throw damaged(
                    entry,
                    "corrupt deflate data: it does not end within the \(entry.compressedSize) compressed bytes the central directory gives")
            }
        }
        if ended { try verifyEnd(entry) }
        return written
    }

    private func startInflater(_ entry: ZipEntry) throws(InputError) -> RawInflater {
        if let inflater {
            if inflaterNeedsReset { inflater.reset() }
            inflaterNeedsReset = false
            return inflater
        }
        do {
            let made = try RawInflater()
            inflater = made
            inflaterNeedsReset = false
            return made
        } catch {
            throw InputError(path: path, detail: "entry \(entry.name): \(error.message)", hint: "Check the system's zlib")
        }
    }

    /// Adds output to the entry's size and CRC; more than its size is damage
    /// (and stops a bad entry from producing without end).
    private func account(_ entry: ZipEntry, _ output: UnsafeRawBufferPointer) throws(InputError) {
        guard !output.isEmpty else { return }
        produced += Int64(output.count)
        runningCRC = zipCRC32(runningCRC, output)
        if produced > entry.size {
            throw damaged(entry, "it decompresses to more than the \(entry.size) bytes the central directory gives")
        }
    }

    /// Checks a finished entry against the central directory.
    private func verifyEnd(_ entry: ZipEntry) throws(InputError) {
        outputDone = true
        guard produced == entry.size else {
            throw damaged(entry, "it decompresses to \(produced) bytes, but the central directory gives \(entry.size)")
        }
        guard runningCRC == entry.crc32 else {
            throw damaged(entry, "CRC-32 mismatch: the data read has CRC \(hex(runningCRC)), the archive says \(hex(entry.crc32))")
        }
        guard compressedLeft == 0 else {
            throw damaged(entry, "the deflate data ends \(compressedLeft) bytes before the entry's compressed size")
        }
    }

    /// Where the next structure after the current one starts: the next
    /// local header, or the central directory.
    private var nextStructureOffset: Int64 {
        nextRecord < records.count ? records[nextRecord].entry.localHeaderOffset : centralDirectoryStart
    }

    /// Reads up to `record`'s local header (gap bytes included), then the
    /// header, and checks it against the central directory.
    private func openLocal(_ record: Record) throws(InputError) {
        let entry = record.entry
        let offset = entry.localHeaderOffset
        guard position <= offset else {
            throw damaged(entry, "its local header at byte \(offset) overlaps the entry before it")
        }
        let gap = offset - position
        guard try skip(gap) == gap else { throw cutShort(entry, at: position) }
        let header = try readBytes(30)
        guard header.count == 30 else { throw cutShort(entry, at: position) }
        guard le32(header, 0) == Self.localHeaderSignature else {
            throw damaged(entry, "no local header at byte \(offset), where the central directory says the entry starts")
        }
        let flags = le16(header, 6)
        let method = le16(header, 8)
        let nameLength = Int(le16(header, 26))
        let extraLength = Int(le16(header, 28))
        let rest = try readBytes(nameLength + extraLength)
        guard rest.count == nameLength + extraLength else { throw cutShort(entry, at: position) }

        func disagree(_ what: String) -> InputError {
            damaged(entry, "its local header (byte \(offset)) disagrees with the central directory: \(what)")
        }
        guard rest[..<nameLength].elementsEqual(record.nameBytes) else {
            throw disagree("it names \"\(String(decoding: rest[..<nameLength], as: UTF8.self))\"")
        }
        guard method == entry.method else {
            throw disagree("method \(method) there, \(entry.method) in the central directory")
        }
        guard flags & 0x0001 == entry.flags & 0x0001 else {
            throw disagree("encrypted in one, not in the other")
        }
        if flags & 0x0008 == 0 {
            // No data descriptor: the header holds the CRC and sizes (zip64
            // ones in its extra field).
            let crc = le32(header, 14)
            var compressed = Int64(le32(header, 18))
            var size = Int64(le32(header, 22))
            if let zip64 = extraField(0x0001, in: rest[nameLength...]) {
                // A local zip64 field holds both sizes, uncompressed first.
                if zip64.count >= 16 {
                    if size == 0xFFFF_FFFF { size = Int64(bitPattern: le64(zip64, 0)) }
                    if compressed == 0xFFFF_FFFF { compressed = Int64(bitPattern: le64(zip64, 8)) }
                } else if zip64.count >= 8 {
                    if size == 0xFFFF_FFFF {
                        size = Int64(bitPattern: le64(zip64, 0))
                    } else if compressed == 0xFFFF_FFFF {
                        compressed = Int64(bitPattern: le64(zip64, 0))
                    }
                }
            }
            guard crc == entry.crc32 else { throw disagree("CRC \(hex(crc)) there, \(hex(entry.crc32)) in the central directory") }
            guard compressed == entry.compressedSize else {
                throw disagree("compressed size \(compressed) there, \(entry.compressedSize) in the central directory")
            }
            guard size == entry.size else { throw disagree("size \(size) there, \(entry.size) in the central directory") }
        }
        guard position + entry.compressedSize <= nextStructureOffset else {
            throw damaged(entry, "its data (\(entry.compressedSize) bytes from byte \(position)) runs into what follows it")
        }
        currentRecord = record
        compressedLeft = entry.compressedSize
        produced = 0
        runningCRC = 0
        hasDescriptor = flags & 0x0008 != 0
        outputDone = false
        entryFailure = nil
        inflaterNeedsReset = true
    }

    /// Skips what is left of the current entry's data and checks its data
    /// descriptor, if it has one.
    private func closeCurrent() throws(InputError) {
        currentEntry = nil
        entryFailure = nil
        guard let record = currentRecord else { return }
        currentRecord = nil
        let entry = record.entry
        guard try skip(compressedLeft) == compressedLeft else { throw cutShort(entry, at: position) }
        compressedLeft = 0
        guard hasDescriptor else { return }
        // The descriptor lies between the data and the next structure: 12
        // to 24 bytes, an optional signature, the CRC, then 32- or 64-bit
        // sizes. The reading that matches the central directory is the one.
        let room = max(0, nextStructureOffset - position)
        let bytes = try readBytes(Int(min(room, 24)))
        for signed in [true, false] {
            let base = signed ? 4 : 0
            if signed && (bytes.count < 4 || le32(bytes, 0) != Self.descriptorSignature) { continue }
            for wide in [false, true] where base + (wide ? 20 : 12) <= bytes.count {
                let crc = le32(bytes, base)
                let compressed = wide ? Int64(bitPattern: le64(bytes, base + 4)) : Int64(le32(bytes, base + 4))
                let size = wide ? Int64(bitPattern: le64(bytes, base + 12)) : Int64(le32(bytes, base + 8))
                if crc == entry.crc32 && compressed == entry.compressedSize && size == entry.size { return }
            }
        }
        if bytes.count < Int(min(room, 24)) { throw cutShort(entry, at: position) }
        throw damaged(entry, "its data descriptor is missing or disagrees with the central directory (CRC and sizes)")
    }

    // MARK: Reading the file in order

    /// The file offset of the next byte not yet consumed.
    private var position: Int64 { input.bytesRead - Int64(end - start) }

    /// Makes sure a byte is buffered; false at the end of the file.
    private func available() throws(InputError) -> Bool {
        if start < end { return true }
        end = try input.fill()
        start = 0
        return end > 0
    }

    /// Skips up to `count` bytes (through the observer); returns how many
    /// there were.
    private func skip(_ count: Int64) throws(InputError) -> Int64 {
        var left = count
        while left > 0, try available() {
            let taken = Int(min(Int64(end - start), left))
            start += taken
            left -= Int64(taken)
        }
        return count - left
    }

    /// The next `count` bytes (fewer at the end of the file). For headers.
    private func readBytes(_ count: Int) throws(InputError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count, try available() {
            let taken = min(end - start, count - bytes.count)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: input.buffer[start..<start + taken]))
            start += taken
        }
        return bytes
    }

    // MARK: Errors

    private func damaged(_ entry: ZipEntry, _ what: String) -> InputError {
        InputError(path: path, detail: "entry \(entry.name): \(what)", hint: "The archive is damaged; download it again")
    }

    private func cutShort(_ entry: ZipEntry, at offset: Int64) -> InputError {
        InputError(
            path: path,
            detail: "the archive ends inside entry \(entry.name) at byte \(offset), before the \(archiveSize) bytes it had when opened",
            hint: "The file is being written or was cut short; wait for the download to finish, or download it again")
    }

    private func endsInside(_ entry: ZipEntry) -> InputError {
        cutShort(entry, at: position)
    }
}

extension ZipReader: InputObservable {}

// MARK: - The central directory

/// The entries of an archive, read from the end records and the central
/// directory with positioned reads (none of it through the sequential pass).
struct ZipCentralDirectory {
    var records: [ZipReader.Record]
    /// Where the central directory starts in the file.
    var start: Int64

    init(path: String, input: FileInput, size: Int64) throws(InputError) {
        let location = try Self.locate(path: path, input: input, size: size)
        start = location.start
        let directory = try input.bytes(count: location.size, at: start)
        guard directory.count == location.size else {
            throw InputError(path: path, detail: "the file ends inside its central directory", hint: "Download it again")
        }
        var records = try Self.entries(of: directory, at: location, path: path)
        // More than 65535 entries without zip64: the count wrapped.
        guard
            UInt64(records.count) == location.entryCount
                || (!location.isZip64 && UInt64(records.count) & 0xFFFF == location.entryCount)
        else {
            throw Self.damaged(path, "the central directory holds \(records.count) entries, the end record says \(location.entryCount)")
        }
        // Read in the order they are in the file.
        records.sort { $0.entry.localHeaderOffset < $1.entry.localHeaderOffset }
        try Self.checkNoOverlap(records, directoryStart: start, path: path)
        self.records = records
    }

    /// Where the central directory is, as the end records say.
    struct Location {
        /// Where it starts in the file (its recorded offset, moved by `shift`).
        var start: Int64
        /// Its bytes.
        var size: Int
        /// The entries it holds, as the end record says.
        var entryCount: UInt64
        /// Whether a zip64 end record gave the figures.
        var isZip64: Bool
        /// Bytes before the archive (a stub prepended to it): they move
        /// every offset the archive records by the same amount.
        var shift: Int64
    }

    /// Reads the end record (22 bytes and a comment of up to 64 KB, last in
    /// the file) and, when a zip64 locator stands before it, the zip64 end
    /// record whose fields replace its 16- and 32-bit ones; checks that the
    /// archive is on one disk and that the directory lies where the records
    /// end.
    static func locate(path: String, input: FileInput, size: Int64) throws(InputError) -> Location {
        let tailStart = max(0, size - 22 - 0xFFFF)
        let tail = try input.bytes(count: Int(size - tailStart), at: tailStart)
        guard let endIndex = Self.findEndRecord(tail) else {
            throw Self.notAZip(path: path, input: input, size: size)
        }
        let endOffset = tailStart + Int64(endIndex)
        let end = Array(tail[endIndex..<endIndex + 22])
        var disk = UInt32(le16(end, 4))
        var directoryDisk = UInt32(le16(end, 6))
        var entriesOnDisk = UInt64(le16(end, 8))
        var entryCount = UInt64(le16(end, 10))
        var directorySize = UInt64(le32(end, 12))
        var directoryOffset = UInt64(le32(end, 16))
        /// Where the central directory ends: at the zip64 end record if
        /// there is one, else at the end record.
        var directoryEnd = endOffset

        // A zip64 locator, just before the end record, points to the zip64
        // end record, whose fields replace the 16- and 32-bit ones.
        let locator = endOffset >= 20 ? try input.bytes(count: 20, at: endOffset - 20) : []
        let isZip64 = locator.count == 20 && le32(locator, 0) == ZipReader.zip64LocatorSignature
        if isZip64 {
            guard le32(locator, 16) <= 1 else { throw Self.split(path) }
            let recordOffset = le64(locator, 8)
            guard recordOffset <= UInt64(endOffset - 20) else {
                throw damaged(path, "the zip64 locator points past itself (byte \(recordOffset))")
            }
            let record = try input.bytes(count: 56, at: Int64(recordOffset))
            guard record.count == 56, le32(record, 0) == ZipReader.zip64EndSignature else {
                throw damaged(path, "no zip64 end of central directory record at byte \(recordOffset), where the zip64 locator points")
            }
            disk = le32(record, 16)
            directoryDisk = le32(record, 20)
            entriesOnDisk = le64(record, 24)
            entryCount = le64(record, 32)
            directorySize = le64(record, 40)
            directoryOffset = le64(record, 48)
            directoryEnd = Int64(recordOffset)
        } else if directoryOffset == 0xFFFF_FFFF || directorySize == 0xFFFF_FFFF || entryCount == 0xFFFF {
            throw damaged(path, "the end record marks a zip64 archive, but there is no zip64 locator before it")
        }
        guard disk == 0, directoryDisk == 0, entriesOnDisk == entryCount else { throw Self.split(path) }
        guard directoryOffset <= UInt64(directoryEnd), directorySize <= UInt64(directoryEnd) else {
            throw InputError(
                path: path,
                detail:
                    "the central directory would lie past the end of the file (at byte \(directoryOffset), \(directorySize) bytes; the file has \(size)): the archive was cut short or damaged",
                hint: "Download it again")
        }
        // Bytes before the archive (a stub prepended to it) move every
        // offset by the same amount; fewer bytes than the offsets say means
        // some are missing.
        let shift = directoryEnd - Int64(directoryOffset + directorySize)
        guard shift >= 0 else {
            throw InputError(
                path: path,
                detail:
                    "the central directory should end at byte \(directoryOffset + directorySize) but the end record is at byte \(directoryEnd): \(-shift) bytes of the archive are missing",
                hint: "The download was cut short or damaged; download it again")
        }
        guard Int64(directorySize) <= ZipReader.centralDirectoryLimit else {
            throw damaged(path, "a central directory of \(directorySize) bytes")
        }
        return Location(
            start: Int64(directoryOffset) + shift, size: Int(directorySize), entryCount: entryCount, isZip64: isZip64, shift: shift)
    }

    /// The entries of the central directory `directory`, each a 46-byte
    /// header, its name, extra field and comment, in the directory's order.
    static func entries(of directory: [UInt8], at location: Location, path: String) throws(InputError) -> [ZipReader.Record] {
        var records: [ZipReader.Record] = []
        var cursor = 0
        while cursor + 46 <= directory.count {
            guard le32(directory, cursor) == ZipReader.centralHeaderSignature else {
                throw damaged(
                    path,
                    "the central directory's entry \(records.count + 1) has no header signature (byte \(location.start + Int64(cursor)))")
            }
            let flags = le16(directory, cursor + 8)
            let method = le16(directory, cursor + 10)
            let crc = le32(directory, cursor + 16)
            var compressed = UInt64(le32(directory, cursor + 20))
            var uncompressed = UInt64(le32(directory, cursor + 24))
            let nameLength = Int(le16(directory, cursor + 28))
            let extraLength = Int(le16(directory, cursor + 30))
            let commentLength = Int(le16(directory, cursor + 32))
            var diskStart = UInt32(le16(directory, cursor + 34))
            var localOffset = UInt64(le32(directory, cursor + 42))
            let nameStart = cursor + 46
            let next = nameStart + nameLength + extraLength + commentLength
            guard next <= directory.count else {
                throw damaged(path, "the central directory's entry \(records.count + 1) runs past its end")
            }
            let nameBytes = Array(directory[nameStart..<nameStart + nameLength])
            let name = String(decoding: nameBytes, as: UTF8.self)
            if uncompressed == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || localOffset == 0xFFFF_FFFF || diskStart == 0xFFFF {
                let extra = directory[(nameStart + nameLength)..<(nameStart + nameLength + extraLength)]
                try readZip64Values(
                    from: extra, entry: name, path: path, uncompressed: &uncompressed, compressed: &compressed,
                    localOffset: &localOffset, diskStart: &diskStart)
            }
            guard diskStart == 0 else { throw Self.split(path) }
            guard uncompressed <= UInt64(Int64.max), compressed <= UInt64(Int64.max),
                localOffset <= UInt64(location.start)
            else {
                throw damaged(path, "entry \(name) has a size or offset past the central directory")
            }
            let entry = ZipEntry(
                name: name, method: method, flags: flags, crc32: crc, compressedSize: Int64(compressed),
                size: Int64(uncompressed), localHeaderOffset: Int64(localOffset) + location.shift)
            if method == 0 && entry.compressedSize != entry.size && !entry.isEncrypted {
                throw damaged(path, "entry \(name) is stored (not compressed) but its two sizes differ (\(compressed) and \(uncompressed))")
            }
            records.append(ZipReader.Record(entry: entry, nameBytes: nameBytes))
            cursor = next
        }
        return records
    }

    /// Reads an entry's zip64 extra field (in `extra`, its extra fields),
    /// which holds, in this order, the 64-bit values of those of its fields
    /// that are all ones.
    static func readZip64Values(
        from extra: ArraySlice<UInt8>, entry name: String, path: String, uncompressed: inout UInt64, compressed: inout UInt64,
        localOffset: inout UInt64, diskStart: inout UInt32
    ) throws(InputError) {
        guard let zip64 = extraField(0x0001, in: extra) else {
            throw damaged(path, "entry \(name) has a size or offset marked as zip64 but no zip64 extra field")
        }
        var field = 0
        func value() throws(InputError) -> UInt64 {
            guard field + 8 <= zip64.count else {
                throw damaged(path, "entry \(name) has a zip64 extra field too short for the values it should hold")
            }
            defer { field += 8 }
            return le64(zip64, field)
        }
        if uncompressed == 0xFFFF_FFFF { uncompressed = try value() }
        if compressed == 0xFFFF_FFFF { compressed = try value() }
        if localOffset == 0xFFFF_FFFF { localOffset = try value() }
        if diskStart == 0xFFFF {
            guard field + 4 <= zip64.count else {
                throw damaged(path, "entry \(name) has a zip64 extra field too short for the values it should hold")
            }
            diskStart = le32(zip64, field)
        }
    }

    /// Checks that each of `records` (sorted by local header offset) ends
    /// before the next starts, the last before the central directory:
    /// overlapping entries are damage, or a trick.
    static func checkNoOverlap(_ records: [ZipReader.Record], directoryStart: Int64, path: String) throws(InputError) {
        for (index, record) in records.enumerated() {
            let limit = index + 1 < records.count ? records[index + 1].entry.localHeaderOffset : directoryStart
            let minimumEnd = record.entry.localHeaderOffset + 30 + Int64(record.nameBytes.count) + record.entry.compressedSize
            guard minimumEnd <= limit else {
                let what = index + 1 < records.count ? "entry \(records[index + 1].entry.name)" : "the central directory"
                throw InputError(
                    path: path, detail: "damaged zip archive: entry \(record.entry.name) overlaps \(what)",
                    hint: "The archive is damaged; download it again")
            }
        }
    }

    static func damaged(_ path: String, _ what: String) -> InputError {
        InputError(path: path, detail: "damaged zip archive: \(what)", hint: "The archive is damaged; download it again")
    }

    /// The offset in `tail` of the end of central directory record: the last
    /// signature whose comment ends the file, else the last signature.
    static func findEndRecord(_ tail: [UInt8]) -> Int? {
        guard tail.count >= 22 else { return nil }
        var loose: Int?
        for index in stride(from: tail.count - 22, through: 0, by: -1) where le32(tail, index) == ZipReader.endSignature {
            if index + 22 + Int(le16(tail, index + 20)) == tail.count { return index }
            if loose == nil { loose = index }
        }
        return loose
    }

    /// No end record: a cut-short download if the file starts like a zip
    /// archive (naming its first entry), else not a zip archive at all.
    static func notAZip(path: String, input: FileInput, size: Int64) -> InputError {
        guard size > 0 else {
            return InputError(path: path, detail: "the file is empty, not a zip archive", hint: "Download it again")
        }
        let head = (try? input.bytes(count: 30, at: 0)) ?? []
        guard head.count == 30, le32(head, 0) == ZipReader.localHeaderSignature else {
            return InputError(
                path: path, detail: "not a zip archive (no end of central directory record, and it does not start with a zip header)",
                hint: "Check that the file is an EPF .zip archive; download it again if it should be")
        }
        let nameLength = Int(le16(head, 26))
        let name = (try? input.bytes(count: nameLength, at: 30)).map { String(decoding: $0, as: UTF8.self) }
        return InputError(
            path: path,
            detail:
                "the zip archive has no end of central directory record: it was cut short (\(size) bytes; its first entry is \(name ?? "unreadable"))",
            hint: "The download was cut short; download it again")
    }

    static func split(_ path: String) -> InputError {
        InputError(
            path: path, detail: "a zip archive split over several files (disks), which this importer does not read",
            hint: "Join the parts into one archive (zip -s 0 in.zip --out whole.zip) and import that")
    }
}

// MARK: - Bytes

/// The data of the extra field with `id` in a list of extra fields (2-byte
/// id, 2-byte length, data), or nil.
private func extraField(_ id: UInt16, in extra: ArraySlice<UInt8>) -> [UInt8]? {
    var cursor = extra.startIndex
    while cursor + 4 <= extra.endIndex {
        let fieldID = UInt16(extra[cursor]) | UInt16(extra[cursor + 1]) << 8
        let length = Int(extra[cursor + 2]) | Int(extra[cursor + 3]) << 8
        let data = cursor + 4
        guard data + length <= extra.endIndex else { return nil }
        if fieldID == id { return Array(extra[data..<data + length]) }
        cursor = data + length
    }
    return nil
}

private func le16<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> UInt16 where Bytes.Index == Int {
    let base = bytes.startIndex + offset
    return UInt16(bytes[base]) | UInt16(bytes[base + 1]) << 8
}

private func le32<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> UInt32 where Bytes.Index == Int {
    UInt32(le16(bytes, offset)) | UInt32(le16(bytes, offset + 2)) << 16
}

private func le64<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> UInt64 where Bytes.Index == Int {
    UInt64(le32(bytes, offset)) | UInt64(le32(bytes, offset + 4)) << 32
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
