import EPFInput
import EPFTestSupport
import Foundation
import Testing

/// Bytes in memory, handed out `piece` bytes at a time at most, so the
/// reader's buffering sees short reads.
final class PieceStream: ByteStream {
    let bytes: [UInt8]
    let piece: Int
    private(set) var position = 0

    init(_ bytes: [UInt8], piece: Int = 7) {
        self.bytes = bytes
        self.piece = piece
    }

    var sourceBytesRead: Int64 { Int64(position) }
    var sourceSize: Int64? { Int64(bytes.count) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(piece, buffer.count, bytes.count - position)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + position, byteCount: count) }
        position += count
        return count
    }
}

/// A temporary folder to build archives in with the system's (GNU) tar.
struct TarFolder {
    let root: String

    init() throws {
        root = try TemporaryFolder.create("epf-tar").path
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Runs `script` in the folder; returns its standard output.
    @discardableResult
    func run(_ script: String) throws -> [UInt8] {
        try shellOutput("cd '\(root)' && \(script)")
    }

    /// An archive of `paths`, entries in name order.
    func tar(format: String, _ paths: String = "itunes20261101") throws -> [UInt8] {
        try run("tar --sort=name --format=\(format) -cf - \(paths)")
    }
}

/// Every regular entry of `archive` with its bytes.
func readArchive(_ archive: [UInt8], piece: Int = 7, readSize: Int = 1000) throws -> [(TarEntry, [UInt8])] {
    let reader = TarReader(stream: PieceStream(archive, piece: piece), archiveName: "feed.tbz")
    var entries: [(TarEntry, [UInt8])] = []
    while let entry = try reader.nextEntry() {
        entries.append((entry, try readAll(reader.entryStream(), size: readSize)))
    }
    return entries
}

/// A tar header built by hand, for what the system's tar will not write.
func tarHeader(
    name: String, typeflag: Character = "0", size: Int64 = 0, sizeField: [UInt8]? = nil, signedChecksum: Bool = false
) -> [UInt8] {
    var header = [UInt8](repeating: 0, count: 512)
    func put(_ bytes: some Collection<UInt8>, at offset: Int) {
        for (index, byte) in bytes.enumerated() { header[offset + index] = byte }
    }
    put(name.utf8, at: 0)
    put("0000644\0".utf8, at: 100)
    put("0000000\0".utf8, at: 108)
    put("0000000\0".utf8, at: 116)
    put(sizeField ?? Array(String(size, radix: 8).leftPadded(to: 11).utf8) + [0], at: 124)
    put("00000000000\0".utf8, at: 136)
    header[156] = typeflag.asciiValue!
    put("ustar\0".utf8, at: 257)
    put("00".utf8, at: 263)
    put([UInt8](repeating: 0x20, count: 8), at: 148)
    let sum = signedChecksum ? header.reduce(0) { $0 + Int(Int8(bitPattern: $1)) } : header.reduce(0) { $0 + Int($1) }
    put(Array(String(sum, radix: 8).leftPadded(to: 6).utf8) + [0, 0x20], at: 148)
    return header
}

/// One pax record, `"<length> <key>=<value>\n"`, its length counting itself.
func paxRecord(_ key: String, _ value: String) -> [UInt8] {
    let body = " \(key)=\(value)\n"
    var length = body.utf8.count + 1
    while String(length).count + body.utf8.count != length { length += 1 }
    return Array("\(length)\(body)".utf8)
}

/// Data padded to a whole number of blocks.
func tarData(_ bytes: [UInt8]) -> [UInt8] {
    bytes + [UInt8](repeating: 0, count: (512 - bytes.count % 512) % 512)
}

let tarEnd = [UInt8](repeating: 0, count: 1024)

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}

@Suite("Tar archives")
struct TarReaderTests {
    static let artist = Array(
        "#export_date\u{1}artist_id\u{1}name\u{2}\n#primaryKey:artist_id\u{2}\n1\u{1}42\u{1}Ren\u{00E9}e \u{1}\n line\u{2}\n".utf8)
    static let song: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<300_001).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }()

    /// `itunes20261101/` with an EPF-like file, an empty one and a big one.
    static func feedFolder() throws -> TarFolder {
        let folder = try TarFolder()
        try folder.write("itunes20261101/artist", artist)
        try folder.write("itunes20261101/genre", [])
        try folder.write("itunes20261101/song", song)
        return folder
    }

    static let feedEntries = [
        TarEntry(name: "itunes20261101/artist", size: Int64(artist.count)),
        TarEntry(name: "itunes20261101/genre", size: 0),
        TarEntry(name: "itunes20261101/song", size: Int64(song.count)),
    ]

    @Test(arguments: ["gnu", "pax", "ustar", "v7"], [7, 4096, 1 << 20])
    func feedEntriesHaveTheirNamesSizesAndBytes(format: String, piece: Int) throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let archive = try folder.tar(format: format)
        let stream = PieceStream(archive, piece: piece)
        let reader = TarReader(stream: stream, archiveName: "feed.tbz")
        var entries: [TarEntry] = []
        var contents: [[UInt8]] = []
        while let entry = try reader.nextEntry() {
            #expect(reader.currentEntry == entry)
            entries.append(entry)
            let entryStream = reader.entryStream()
            #expect(entryStream.sourceSize == Int64(archive.count))
            #expect(entryStream.sourceBytesRead == stream.sourceBytesRead)
            // Small reads go through the buffer, big ones straight through.
            contents.append(try readAll(entryStream, size: entries.count == 1 ? 3 : 1 << 20))
            #expect(reader.entryBytesRemaining == 0)
        }
        #expect(entries == Self.feedEntries)
        #expect(contents == [Self.artist, [], Self.song])
        // The zero blocks after the end are read too: progress is complete.
        #expect(reader.sourceBytesRead == Int64(archive.count))
        #expect(reader.archiveOffset == Int64(archive.count))
        #expect(try reader.nextEntry() == nil)
    }

    @Test func readsThroughBzip2() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        try folder.run("tar --sort=name -cjf feed.tbz itunes20261101")
        let path = folder.root + "/feed.tbz"
        let reader = TarReader(stream: try Bzip2Stream(path: path), archiveName: path)
        var contents: [String: [UInt8]] = [:]
        while let entry = try reader.nextEntry() {
            let source = StreamChunkSource(stream: reader.entryStream(), name: entry.name, chunkSize: 4096)
            contents[entry.name] = try drain(source).flatMap(\.bytes)
            #expect(source.knownSize == reader.sourceSize)
        }
        #expect(contents == Dictionary(uniqueKeysWithValues: zip(Self.feedEntries.map(\.name), [Self.artist, [], Self.song])))
        #expect(reader.sourceBytesRead == reader.sourceSize)
    }

    @Test(arguments: ["gnu", "pax"])
    func longNamesAreRead(format: String) throws {
        let folder = try TarFolder()
        defer { folder.remove() }
        let long = "itunes20261101/" + String(repeating: "n", count: 150)
        try folder.write(long, Self.artist)
        try folder.write("itunes20261101/short", [1, 2, 3])
        let archive = try folder.tar(format: format)
        // The system's tar did write a long-name or pax record.
        let typeflags = stride(from: 0, to: archive.count - 512, by: 512).map { archive[$0 + 156] }
        #expect(typeflags.contains(UInt8(ascii: format == "gnu" ? "L" : "x")))
        let entries = try readArchive(archive)
        #expect(
            entries.map(\.0) == [TarEntry(name: long, size: Int64(Self.artist.count)), TarEntry(name: "itunes20261101/short", size: 3)])
        #expect(entries.map(\.1) == [Self.artist, [1, 2, 3]])
    }

    @Test func ustarPrefixIsJoinedToTheName() throws {
        let folder = try TarFolder()
        defer { folder.remove() }
        let path = "itunes20261101/" + String(repeating: "d", count: 90) + "/" + String(repeating: "f", count: 60)
        try folder.write(path, Self.artist)
        let archive = try folder.tar(format: "ustar")
        // The system's tar split the path: the name field holds only the file's name.
        let headers = stride(from: 0, to: archive.count - 512, by: 512).filter { archive[$0 + 156] == UInt8(ascii: "0") }
        #expect(headers.count == 1 && archive[headers[0] + 345] == UInt8(ascii: "i") && archive[headers[0]] == UInt8(ascii: "f"))
        let entries = try readArchive(archive)
        #expect(entries.map(\.0) == [TarEntry(name: path, size: Int64(Self.artist.count))])
        #expect(entries.first?.1 == Self.artist)
    }

    @Test(arguments: ["gnu", "pax", "ustar", "v7"])
    func directoriesAndLinksAreSkipped(format: String) throws {
        let folder = try TarFolder()
        defer { folder.remove() }
        try folder.write("itunes20261101/a", [7])
        try folder.write("itunes20261101/sub/deeper/b", Self.artist)
        try folder.run("mkdir itunes20261101/empty && ln -s a itunes20261101/link && ln itunes20261101/a itunes20261101/hard")
        let entries = try readArchive(try folder.tar(format: format))
        #expect(entries.map(\.0.name) == ["itunes20261101/a", "itunes20261101/sub/deeper/b"])
        #expect(entries.map(\.1) == [[7], Self.artist])
    }

    @Test func partOfAnEntryThenTheNextIsSkippedCorrectly() throws {
        let folder = try TarFolder()
        defer { folder.remove() }
        try folder.write("itunes20261101/big", Self.song)
        try folder.write("itunes20261101/next", Self.artist)
        let archive = try folder.tar(format: "gnu")
        for readCount in [0, 1, 7, 511, 512, 513, 65_536 + 3, Self.song.count - 1, Self.song.count] {
            let reader = TarReader(stream: PieceStream(archive, piece: 1000), archiveName: "feed.tbz")
            #expect(try reader.nextEntry()?.name == "itunes20261101/big")
            let stream = reader.entryStream()
            var read = [UInt8]()
            while read.count < readCount {
                var buffer = [UInt8](repeating: 0, count: min(4093, readCount - read.count))
                let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
                read += buffer[0..<count]
            }
            #expect(read == Array(Self.song.prefix(readCount)))
            #expect(reader.entryBytesRemaining == Int64(Self.song.count - readCount))
            #expect(try reader.nextEntry() == TarEntry(name: "itunes20261101/next", size: Int64(Self.artist.count)))
            // The old entry's stream has ended; the new one reads.
            #expect(try readAll(stream) == [])
            #expect(try readAll(reader.entryStream()) == Self.artist)
            #expect(try reader.nextEntry() == nil)
        }
    }

    @Test func archiveCutInsideAnEntryIsAnError() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let archive = try folder.tar(format: "gnu")
        // The song's data starts after its header.
        let reader = TarReader(stream: PieceStream(archive), archiveName: "feed.tbz")
        while let entry = try reader.nextEntry(), entry.name != "itunes20261101/song" {}
        let dataStart = Int(reader.archiveOffset)
        let cut = Array(archive.prefix(dataStart + 123_456))

        // Reading the entry.
        let reading = #expect(throws: InputError.self) { _ = try readArchive(cut) }
        #expect(reading?.path == "feed.tbz")
        #expect(reading?.detail == "the archive ends inside entry itunes20261101/song after 123456 of 300001 bytes")
        #expect(reading?.hint.contains("download it again") == true)

        // Skipping it.
        let skipping = #expect(throws: InputError.self) {
            let reader = TarReader(stream: PieceStream(cut, piece: 5000), archiveName: "feed.tbz")
            while try reader.nextEntry() != nil {}
        }
        #expect(skipping?.detail == "the archive ends inside entry itunes20261101/song after 123456 of 300001 bytes")

        // Inside a header.
        let inHeader = #expect(throws: InputError.self) { _ = try readArchive(Array(archive.prefix(dataStart - 300))) }
        #expect(inHeader?.detail.contains("the archive ends inside a tar header at byte \(dataStart - 512)") == true)
    }

    @Test func damagedHeaderIsAnError() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        var archive = try folder.tar(format: "gnu")
        let reader = TarReader(stream: PieceStream(archive), archiveName: "feed.tbz")
        while let entry = try reader.nextEntry(), entry.name != "itunes20261101/genre" {}
        let header = Int(reader.archiveOffset) - 512
        archive[header + 20] ^= 0x01
        let error = #expect(throws: InputError.self) { _ = try readArchive(archive) }
        #expect(error?.path == "feed.tbz")
        #expect(error?.detail.contains("not a tar archive or damaged at byte \(header)") == true)
        #expect(error?.detail.contains("after entry itunes20261101/artist") == true)
        #expect(error?.hint.contains("download it again") == true)

        let notTar = #expect(throws: InputError.self) { _ = try readArchive(Array(repeating: Self.artist, count: 20).flatMap { $0 }) }
        #expect(notTar?.detail.contains("not a tar archive or damaged at byte 0") == true)
    }

    @Test func base256SizesAreRead() throws {
        var five = [UInt8](repeating: 0, count: 12)
        five[0] = 0x80
        five[11] = 5
        let archive =
            tarHeader(name: "itunes20261101/tiny", sizeField: five) + tarData(Array("hello".utf8))
            + tarHeader(name: "itunes20261101/after", size: 2) + tarData([1, 2]) + tarEnd
        let entries = try readArchive(archive)
        #expect(entries.map(\.0) == [TarEntry(name: "itunes20261101/tiny", size: 5), TarEntry(name: "itunes20261101/after", size: 2)])
        #expect(entries.map(\.1) == [Array("hello".utf8), [1, 2]])

        // Over 8 GB: the size reads; the data (not there) is cut short.
        let huge: Int64 = 9 << 30
        var field = [UInt8](repeating: 0, count: 12)
        field[0] = 0x80
        for index in 0..<8 { field[11 - index] = UInt8(truncatingIfNeeded: huge >> (8 * index)) }
        let reader = TarReader(
            stream: PieceStream(tarHeader(name: "itunes20261101/huge", sizeField: field) + [UInt8](repeating: 9, count: 1000)),
            archiveName: "feed.tbz")
        #expect(try reader.nextEntry() == TarEntry(name: "itunes20261101/huge", size: huge))
        let error = #expect(throws: InputError.self) { _ = try readAll(reader.entryStream(), size: 1 << 20) }
        #expect(error?.detail == "the archive ends inside entry itunes20261101/huge after 1000 of 9663676416 bytes")

        // Negative base-256 is damage.
        let negative = [UInt8](repeating: 0xFF, count: 12)
        let bad = #expect(throws: InputError.self) { _ = try readArchive(tarHeader(name: "x", sizeField: negative) + tarEnd) }
        #expect(bad?.detail.contains("damaged tar header at byte 0") == true)
    }

    @Test func octalSizesWithSpacesAndNULs() throws {
        let fields: [String] = ["     5 \0\0\0\0\0", "00000000005 ", "5\0          ", "0000005\0    "]
        for field in fields {
            let archive = tarHeader(name: "itunes20261101/t", sizeField: Array(field.utf8)) + tarData(Array("hello".utf8)) + tarEnd
            let entries = try readArchive(archive)
            #expect(entries.map(\.0) == [TarEntry(name: "itunes20261101/t", size: 5)], "\(field)")
        }
        let error = #expect(throws: InputError.self) {
            _ = try readArchive(tarHeader(name: "itunes20261101/t", sizeField: Array("00000000009 ".utf8)) + tarEnd)
        }
        #expect(error?.detail.contains("the size field is not an octal number") == true)
    }

    @Test func paxRecordsSetPathAndSize() throws {
        let global = paxRecord("comment", "whatever")
        let records = paxRecord("mtime", "1.5") + paxRecord("path", "itunes20261101/from-pax-name") + paxRecord("size", "5")
        let archive =
            tarHeader(name: "pax_global_header", typeflag: "g", size: Int64(global.count)) + tarData(global)
            + tarHeader(name: "PaxHeaders/x", typeflag: "x", size: Int64(records.count)) + tarData(records)
            // The header's own name and size are overridden.
            + tarHeader(name: "itunes20261101/short-name", size: 0) + tarData(Array("hello".utf8))
            + tarHeader(name: "itunes20261101/plain", size: 1) + tarData([42]) + tarEnd
        let entries = try readArchive(archive)
        #expect(
            entries.map(\.0) == [TarEntry(name: "itunes20261101/from-pax-name", size: 5), TarEntry(name: "itunes20261101/plain", size: 1)])
        #expect(entries.map(\.1) == [Array("hello".utf8), [42]])

        let malformed = Array("99 path=x\n".utf8)
        let error = #expect(throws: InputError.self) {
            _ = try readArchive(tarHeader(name: "p", typeflag: "x", size: Int64(malformed.count)) + tarData(malformed) + tarEnd)
        }
        #expect(error?.detail.contains("a pax header record is malformed") == true)
    }

    @Test func signedChecksumIsAccepted() throws {
        let name = "itunes20261101/caf\u{00E9}"
        let archive = tarHeader(name: name, size: 1, signedChecksum: true) + tarData([1]) + tarEnd
        #expect(try readArchive(archive).map(\.0) == [TarEntry(name: name, size: 1)])
    }

    @Test func endsOfArchive() throws {
        let one = tarHeader(name: "itunes20261101/a", size: 3) + tarData([1, 2, 3])
        // Empty stream, end blocks only, one zero block, no end blocks.
        #expect(try readArchive([]).isEmpty)
        #expect(try readArchive(tarEnd).isEmpty)
        #expect(try readArchive(one + Array(tarEnd.prefix(512))).map(\.1) == [[1, 2, 3]])
        #expect(try readArchive(one).map(\.1) == [[1, 2, 3]])
        // Blocking-factor padding after the end is read and ignored.
        #expect(try readArchive(one + tarEnd + [UInt8](repeating: 0, count: 9216)).map(\.1) == [[1, 2, 3]])
        // Cut in the padding after the data.
        let error = #expect(throws: InputError.self) { _ = try readArchive(Array(one.prefix(600))) }
        #expect(error?.detail.contains("just after the data of entry itunes20261101/a") == true)
        // Reading before the first entry gives nothing.
        let reader = TarReader(stream: PieceStream(one), archiveName: "feed.tbz")
        #expect(try readAll(reader) == [])
        #expect(try reader.nextEntry()?.name == "itunes20261101/a")
        #expect(try readAll(reader) == [1, 2, 3])
    }
}
