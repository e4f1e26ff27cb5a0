/// One regular file in a tar archive.
package struct TarEntry: Sendable, Equatable, Hashable {
    /// The full path inside the archive (`itunes20261101/artist`), as stored:
    /// a leading `./` is kept.
    package let name: String
    /// Bytes of data.
    package let size: Int64

    package init(name: String, size: Int64) {
        self.name = name
        self.size = size
    }
}

/// The regular files of a tar archive read from a stream (the decompressed
/// bytes of a `.tbz`), one after the other, without extracting anything.
///
/// `nextEntry()` moves to the next regular file; the reader itself (or
/// `entryStream()`) then reads that file's bytes and ends with it. Reads ustar
/// (with its name prefix), GNU (long names, base-256 sizes for files over
/// 8 GB) and pax (`path` and `size` records) archives, and V7 ones.
package final class TarReader: ByteStream {
    package let archiveName: String
    /// The entry `nextEntry()` returned last, until the next call.
    package private(set) var currentEntry: TarEntry?
    /// Bytes of the (decompressed) archive consumed so far.
    package private(set) var archiveOffset: Int64 = 0
    /// Bytes of the current entry not yet read.
    package private(set) var entryBytesRemaining: Int64 = 0

    package var sourceBytesRead: Int64 { stream.sourceBytesRead }
    package var sourceSize: Int64? { stream.sourceSize }

    static let blockSize = 512
    /// Names and pax headers are read into memory: a bigger one is damage.
    static let metadataLimit: Int64 = 1 << 20

    let stream: any ByteStream
    /// Holds `buffer[start..<end]`, the next bytes of the archive.
    let buffer: UnsafeMutableRawBufferPointer
    var start = 0
    var end = 0
    var streamEnded = false
    /// Padding after the current entry's data, up to the next block.
    var padding = 0
    /// Bumped by every `nextEntry()`: an older entry stream reads nothing.
    var generation = 0
    var finished = false
    /// The last header read, for errors that follow it.
    var lastName: String?

    package init(stream: any ByteStream, archiveName: String) {
        self.stream = stream
        self.archiveName = archiveName
        buffer = .allocate(byteCount: 64 << 10, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// A stream of the current entry's bytes (what is left of them), ending
    /// with the entry. It reads nothing once `nextEntry()` has moved on.
    package func entryStream() -> any ByteStream {
        ArchiveEntryStream(reader: self, generation: generation)
    }

    /// Skips what is left of the current entry and returns the next regular
    /// file; nil at the end of the archive, and only once the underlying
    /// stream has been read to its end (the padding after the end blocks
    /// too), so an observer of that stream has seen every byte. Directories,
    /// links and other special entries are passed over.
    package func nextEntry() throws -> TarEntry? {
        guard !finished else { return nil }
        generation += 1
        if let entry = currentEntry {
            currentEntry = nil
            try skipRest(of: entry)
        }
        var extensions = ExtensionHeaders()
        var header = [UInt8](repeating: 0, count: Self.blockSize)
        while true {
            let headerOffset = archiveOffset
            switch try readHeaderBlock(into: &header, at: headerOffset) {
            case .end: return nil
            case .zeroBlock: continue
            case .header: break
            }
            try verifyChecksum(header, at: headerOffset)
            let headerSize = try number(header, 124, 12, field: "size", at: headerOffset)
            if try extensions.read(header[156], size: headerSize, at: headerOffset, from: self) { continue }
            if let entry = try entry(header, size: extensions.paxSize ?? headerSize, extensions: extensions, at: headerOffset) {
                return entry
            }
            extensions = ExtensionHeaders()
        }
    }

    /// Skips what is left of `entry`'s data, and its padding.
    private func skipRest(of entry: TarEntry) throws {
        let wanted = entryBytesRemaining
        let skipped = try skip(wanted)
        entryBytesRemaining -= skipped
        if skipped < wanted { throw endsInside(entry) }
        if try skip(Int64(padding)) < Int64(padding) {
            throw InputError(
                path: archiveName, detail: "the archive ends just after the data of entry \(entry.name), before its padding",
                hint: "The download was cut short; download it again")
        }
        padding = 0
    }

    /// What a header block read was.
    private enum HeaderBlock {
        /// A header, in the block given.
        case header
        /// A lone zero block inside the archive, passed over.
        case zeroBlock
        /// The end of the archive (nothing more, or two zero blocks): the
        /// stream is read to its end.
        case end
    }

    /// Reads the next block, a header, into `header`.
    private func readHeaderBlock(into header: inout [UInt8], at headerOffset: Int64) throws -> HeaderBlock {
        let available = try fill(atLeast: Self.blockSize)
        if available == 0 {
            finish()
            return .end
        }
        guard available >= Self.blockSize else {
            throw InputError(
                path: archiveName,
                detail: "the archive ends inside a tar header at byte \(headerOffset)\(afterLast)",
                hint: "The download was cut short; download it again")
        }
        header.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<start + Self.blockSize])) }
        consume(Self.blockSize)
        guard header.allSatisfy({ $0 == 0 }) else { return .header }
        // Two zero blocks end the archive; one then the end of the stream
        // too. A lone zero block inside is passed over.
        let next = try fill(atLeast: Self.blockSize)
        if next == 0 || (next >= Self.blockSize && isZeroBlock(at: start)) {
            try drain()
            finish()
            return .end
        }
        return .zeroBlock
    }

    /// What the extension headers before an entry say of it: a GNU long
    /// name, a pax path, size or sparse mark.
    private struct ExtensionHeaders {
        var longName: String?
        var paxPath: String?
        var paxSize: Int64?
        var paxSparse = false

        /// Reads the header of type `typeflag` (its data `size` bytes) if
        /// it is an extension (`L`, `K`, `x`, `g`): true when it was.
        mutating func read(_ typeflag: UInt8, size: Int64, at headerOffset: Int64, from reader: TarReader) throws -> Bool {
            switch typeflag {
            case UInt8(ascii: "L"):
                longName = reader.string(try reader.readMetadata(size: size, at: headerOffset))
            case UInt8(ascii: "K"):
                _ = try reader.readMetadata(size: size, at: headerOffset)
            case UInt8(ascii: "x"):
                let records = try reader.paxRecords(try reader.readMetadata(size: size, at: headerOffset), at: headerOffset)
                for (key, value) in records {
                    switch key {
                    case "path": paxPath = value.isEmpty ? nil : value
                    case "size":
                        guard let parsed = Int64(value), parsed >= 0 else {
                            throw reader.damaged(at: headerOffset, "a pax header's size \"\(value)\" is not a number")
                        }
                        paxSize = parsed
                    default:
                        if key.hasPrefix("GNU.sparse.") { paxSparse = true }
                    }
                }
            case UInt8(ascii: "g"):
                try reader.skipData(size: size, at: headerOffset)
            default:
                return false
            }
            return true
        }
    }

    /// The entry of `header` (its data `size` bytes) when it is a regular
    /// file, which becomes the current entry; nil for a directory or
    /// another special entry, whose data is skipped.
    private func entry(_ header: [UInt8], size: Int64, extensions: ExtensionHeaders, at headerOffset: Int64) throws -> TarEntry? {
        let typeflag = header[156]
        let name = extensions.paxPath ?? extensions.longName ?? headerName(header)
        lastName = name
        let isRegular =
            typeflag == UInt8(ascii: "0") || typeflag == UInt8(ascii: "7")
            || (typeflag == 0 && !name.hasSuffix("/"))
        let isDirectory = typeflag == UInt8(ascii: "5") || (typeflag == 0 && name.hasSuffix("/"))
        if (isRegular && extensions.paxSparse) || typeflag == UInt8(ascii: "S") {
            throw InputError(
                path: archiveName, detail: "entry \(name) is stored as a sparse file, which cannot be read as a stream",
                hint: "Repack the archive without --sparse")
        }
        if isRegular {
            let entry = TarEntry(name: name, size: size)
            currentEntry = entry
            entryBytesRemaining = size
            padding = Self.padding(after: size)
            return entry
        }
        // Directories have no data (whatever their size says); other
        // entries are skipped with their data, as GNU tar does.
        if !isDirectory { try skipData(size: size, at: headerOffset) }
        return nil
    }

    /// Reads the current entry's bytes; 0 at its end (or before the first
    /// `nextEntry()`).
    package func read(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let entry = currentEntry, entryBytesRemaining > 0, !destination.isEmpty else { return 0 }
        let wanted = Int(min(Int64(destination.count), entryBytesRemaining))
        if start == end {
            start = 0
            end = 0
            if wanted >= buffer.count {
                // A big read goes straight to the caller's buffer.
                let count = streamEnded ? 0 : try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: destination[0..<wanted]))
                guard count > 0 else {
                    streamEnded = true
                    throw endsInside(entry)
                }
                archiveOffset += Int64(count)
                entryBytesRemaining -= Int64(count)
                return count
            }
            guard try fill(atLeast: 1) > 0 else { throw endsInside(entry) }
        }
        let count = min(wanted, end - start)
        destination.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: count)
        consume(count)
        entryBytesRemaining -= Int64(count)
        return count
    }

    // MARK: Buffer

    /// Reads until at least `count` bytes are buffered or the stream ends;
    /// returns the bytes buffered.
    private func fill(atLeast count: Int) throws -> Int {
        if end - start >= count || streamEnded { return end - start }
        if buffer.count - start < count {
            let kept = end - start
            if kept > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: kept) }
            start = 0
            end = kept
        }
        while end - start < count && end < buffer.count {
            let read = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
            if read == 0 {
                streamEnded = true
                break
            }
            end += read
        }
        return end - start
    }

    private func consume(_ count: Int) {
        start += count
        archiveOffset += Int64(count)
    }

    /// Skips up to `count` bytes; returns how many there were.
    private func skip(_ count: Int64) throws -> Int64 {
        var left = count
        while left > 0 {
            guard try available() else { break }
            let taken = Int(min(Int64(end - start), left))
            consume(taken)
            left -= Int64(taken)
        }
        return count - left
    }

    /// Reads to the end of the stream (the zero padding after the end of the
    /// archive), so the decompressor checks its last bytes and progress
    /// reaches the whole file.
    private func drain() throws {
        while try available() { consume(end - start) }
    }

    /// Whether buffered bytes are there, refilling the empty buffer from its
    /// front first; false at the end of the stream.
    private func available() throws -> Bool {
        if start < end { return true }
        start = 0
        end = 0
        return try fill(atLeast: 1) > 0
    }

    private func finish() {
        finished = true
        currentEntry = nil
        entryBytesRemaining = 0
    }

    private func isZeroBlock(at offset: Int) -> Bool {
        UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + Self.blockSize]).allSatisfy { $0 == 0 }
    }

    // MARK: Headers

    static func padding(after size: Int64) -> Int {
        Int((Int64(blockSize) - size % Int64(blockSize)) % Int64(blockSize))
    }

    /// Skips an entry's data and padding; the stream must hold all of it.
    private func skipData(size: Int64, at headerOffset: Int64) throws {
        let total = size + Int64(Self.padding(after: size))
        let skipped = try skip(total)
        if skipped < total {
            throw InputError(
                path: archiveName,
                detail:
                    "the archive ends inside the entry at byte \(headerOffset)\(lastName.map { " (\($0))" } ?? "") after \(min(skipped, size)) of \(size) bytes",
                hint: "The download was cut short; download it again")
        }
    }

    /// The data of a long-name or pax entry.
    private func readMetadata(size: Int64, at headerOffset: Int64) throws -> [UInt8] {
        guard size <= Self.metadataLimit else {
            throw damaged(at: headerOffset, "a name or pax header of \(size) bytes")
        }
        let count = Int(size)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        while bytes.count < count {
            guard try available() else { break }
            let taken = min(count - bytes.count, end - start)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start..<start + taken]))
            consume(taken)
        }
        let padding = Int64(Self.padding(after: size))
        guard bytes.count == count, try skip(padding) == padding else {
            throw InputError(
                path: archiveName, detail: "the archive ends inside the tar header at byte \(headerOffset)\(afterLast)",
                hint: "The download was cut short; download it again")
        }
        return bytes
    }

    /// The unsigned sum of the header with its checksum field as spaces;
    /// some old writers summed signed bytes, which is accepted too.
    private func verifyChecksum(_ header: [UInt8], at offset: Int64) throws {
        var unsigned = 0
        var signed = 0
        for (index, byte) in header.enumerated() {
            let value = (148..<156).contains(index) ? 0x20 : byte
            unsigned += Int(value)
            signed += Int(Int8(bitPattern: value))
        }
        guard let stored = octal(header[148..<156]), stored == Int64(unsigned) || stored == Int64(signed) else {
            throw InputError(
                path: archiveName,
                detail: "not a tar archive or damaged at byte \(offset) (a header's checksum is wrong)\(afterLast)",
                hint: "Check that the file is an EPF .tbz archive; if it is, download it again")
        }
    }

    /// A numeric field: octal digits (after optional spaces, ended by a
    /// space or NUL), or GNU base-256 when the first byte's high bit is set.
    private func number(_ header: [UInt8], _ offset: Int, _ length: Int, field: String, at headerOffset: Int64) throws -> Int64 {
        let bytes = header[offset..<offset + length]
        if bytes.first! & 0x80 != 0 {
            // Base-256, big-endian; 0xFF starts a negative number.
            guard bytes.first! == 0x80 else { throw damaged(at: headerOffset, "the \(field) field is negative") }
            var value: Int64 = 0
            for byte in bytes.dropFirst() {
                guard value <= Int64.max >> 8 else { throw damaged(at: headerOffset, "the \(field) field is too big") }
                value = value << 8 | Int64(byte)
            }
            return value
        }
        guard let value = octal(bytes) else {
            throw damaged(at: headerOffset, "the \(field) field is not an octal number")
        }
        return value
    }

    /// Octal digits after optional spaces, ended by a space, a NUL or the
    /// field's end; an empty field is 0.
    private func octal(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var index = bytes.startIndex
        while index < bytes.endIndex && bytes[index] == 0x20 { index += 1 }
        var value: Int64 = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0 || byte == 0x20 { break }
            guard (0x30...0x37).contains(byte), value <= Int64.max >> 3 else { return nil }
            value = value << 3 | Int64(byte - 0x30)
            index += 1
        }
        return value
    }

    /// The name field, joined to the ustar prefix (POSIX ustar and star
    /// archives only: GNU archives keep times there).
    private func headerName(_ header: [UInt8]) -> String {
        let name = string(header[0..<100])
        let posix = header[257..<263].elementsEqual("ustar\0".utf8)
        guard posix else { return name }
        let isStar = header[508..<512].elementsEqual("tar\0".utf8)
        let prefix = string(header[345..<(isStar ? 476 : 500)])
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    /// Bytes up to the first NUL, as UTF-8.
    private func string<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// `"<length> <key>=<value>\n"` records.
    private func paxRecords(_ bytes: [UInt8], at headerOffset: Int64) throws -> [(String, String)] {
        var records: [(String, String)] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0 { break }
            var length = 0
            var cursor = index
            while cursor < bytes.count, (0x30...0x39).contains(bytes[cursor]), length < 1 << 24 {
                length = length * 10 + Int(bytes[cursor] - 0x30)
                cursor += 1
            }
            guard cursor > index, cursor < bytes.count, bytes[cursor] == 0x20,
                index + length <= bytes.count, index + length > cursor + 1, bytes[index + length - 1] == 0x0A,
                let equals = bytes[(cursor + 1)..<(index + length - 1)].firstIndex(of: UInt8(ascii: "="))
            else {
                throw damaged(at: headerOffset, "a pax header record is malformed")
            }
            records.append(
                (
                    String(decoding: bytes[(cursor + 1)..<equals], as: UTF8.self),
                    String(decoding: bytes[(equals + 1)..<(index + length - 1)], as: UTF8.self)
                ))
            index += length
        }
        return records
    }

    // MARK: Errors

    private var afterLast: String { lastName.map { ", after entry \($0)" } ?? "" }

    private func damaged(at offset: Int64, _ what: String) -> InputError {
        InputError(
            path: archiveName, detail: "damaged tar header at byte \(offset)\(afterLast): \(what)",
            hint: "The archive is damaged; download it again")
    }

    private func endsInside(_ entry: TarEntry) -> InputError {
        InputError(
            path: archiveName,
            detail: "the archive ends inside entry \(entry.name) after \(entry.size - entryBytesRemaining) of \(entry.size) bytes",
            hint: "The download was cut short; download it again")
    }
}
