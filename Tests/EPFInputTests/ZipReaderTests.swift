import EPFInput
import EPFTestSupport
import Foundation
import Testing

/// A folder to build zip archives in with the system's `zip` (Info-ZIP).
struct ZipFolder {
    let folder: TarFolder
    var root: String { folder.root }

    init() throws { folder = try TarFolder() }

    func remove() { folder.remove() }

    func write(_ relative: String, _ bytes: [UInt8]) throws { try folder.write(relative, bytes) }

    /// Runs `zip options archive paths` in the folder; returns the
    /// archive's path. By default the folder entry, then the two tables in
    /// this order.
    func zip(
        _ options: String, _ paths: String = "itunes20261101 itunes20261101/application itunes20261101/storefront",
        archive: String = "itunes20261101.zip"
    ) throws -> String {
        try folder.run("zip -q \(options) \(archive) \(paths)")
        return root + "/" + archive
    }

    /// Runs a shell script in the folder.
    @discardableResult
    func run(_ script: String) throws -> [UInt8] { try folder.run(script) }
}

/// Every file entry of the zip at `path`, with its bytes, read `readSize`
/// bytes at a time.
func readZip(_ path: String, readSize: Int = 1000) throws -> [(ZipEntry, [UInt8])] {
    let zip = try ZipReader(path: path)
    var entries: [(ZipEntry, [UInt8])] = []
    while let entry = try zip.nextEntry() {
        #expect(zip.currentEntry == entry)
        entries.append((entry, try readAll(zip.entryStream(), size: readSize)))
    }
    #expect(zip.sourceBytesRead == zip.archiveSize)
    return entries
}

/// The error `body` throws, which must be an `InputError` naming the archive
/// and (when given) the entry.
func expectZipError(
    _ path: String, entry: String?, _ text: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    let error = #expect(throws: InputError.self, sourceLocation: sourceLocation) { try body() }
    guard let error else { return }
    #expect(error.path == path, sourceLocation: sourceLocation)
    #expect(error.description.contains(path), sourceLocation: sourceLocation)
    if let entry {
        #expect(error.detail.contains(entry), "\(error)", sourceLocation: sourceLocation)
    }
    #expect(error.detail.contains(text), "\(error)", sourceLocation: sourceLocation)
    #expect(!error.hint.isEmpty, sourceLocation: sourceLocation)
}

/// Reads every entry of the zip at `path` to its end.
func readWholeZip(_ path: String) throws {
    let zip = try ZipReader(path: path)
    while try zip.nextEntry() != nil {
        _ = try readAll(zip.entryStream(), size: 1 << 16)
    }
}

/// The CRC-32 of zip and gzip (reflected, polynomial 0xEDB88320), by table,
/// written here so the reader's zlib-computed CRCs are checked against
/// another implementation.
func testCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    bytes.withUnsafeBufferPointer { bytes in
        crcTable.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
    }
    return ~crc
}

private let crcTable: [UInt32] = (0..<256).map { index in
    var crc = UInt32(index)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    return crc
}

/// Raw deflate data of `bytes`: the system's gzip without its 10-byte
/// header (`-n`: no name or time) and 8-byte trailer.
func rawDeflate(_ bytes: [UInt8]) throws -> [UInt8] {
    let gzip = try output(of: "gzip -n -c", on: bytes)
    #expect(gzip.count >= 18 && gzip[3] == 0)
    return Array(gzip[10..<(gzip.count - 8)])
}

/// A zip archive written byte by byte, for what the system's zip does not
/// write on small files: zip64 extra fields and end records, every form of
/// data descriptor.
struct HandMadeZip {
    enum Descriptor: CaseIterable {
        case none, signed32, unsigned32, signed64, unsigned64
    }

    var bytes: [UInt8] = []
    var central: [UInt8] = []
    var count = 0

    /// Adds an entry; `zip64` puts its sizes (and, in the central directory,
    /// its offset) in zip64 extra fields, with all-ones in the headers.
    mutating func add(
        _ name: String, _ data: [UInt8], deflate: Bool = false, zip64: Bool = false, descriptor: Descriptor = .none
    ) throws {
        let stored = deflate ? try rawDeflate(data) : data
        let crc = testCRC32(data)
        let offset = UInt64(bytes.count)
        let nameBytes = Array(name.utf8)
        let flags: UInt16 = descriptor == .none ? 0 : 0x0008
        let method: UInt16 = deflate ? 8 : 0

        var localExtra: [UInt8] = []
        if zip64 {
            localExtra =
                le(UInt16(1)) + le(UInt16(16))
                + (descriptor == .none ? le(UInt64(data.count)) + le(UInt64(stored.count)) : [UInt8](repeating: 0, count: 16))
        }
        let sizes32: (UInt32, UInt32) =
            zip64 ? (0xFFFF_FFFF, 0xFFFF_FFFF) : descriptor == .none ? (UInt32(stored.count), UInt32(data.count)) : (0, 0)
        bytes += le(UInt32(0x0403_4b50)) + le(UInt16(zip64 ? 45 : 20)) + le(flags) + le(method)
        bytes += le(UInt16(0)) + le(UInt16(0x5b21))
        bytes += le(descriptor == .none ? crc : 0) + le(sizes32.0) + le(sizes32.1)
        bytes += le(UInt16(nameBytes.count)) + le(UInt16(localExtra.count)) + nameBytes + localExtra
        bytes += stored
        switch descriptor {
        case .none: break
        case .signed32: bytes += le(UInt32(0x0807_4b50)) + le(crc) + le(UInt32(stored.count)) + le(UInt32(data.count))
        case .unsigned32: bytes += le(crc) + le(UInt32(stored.count)) + le(UInt32(data.count))
        case .signed64: bytes += le(UInt32(0x0807_4b50)) + le(crc) + le(UInt64(stored.count)) + le(UInt64(data.count))
        case .unsigned64: bytes += le(crc) + le(UInt64(stored.count)) + le(UInt64(data.count))
        }

        let centralExtra = zip64 ? le(UInt16(1)) + le(UInt16(24)) + le(UInt64(data.count)) + le(UInt64(stored.count)) + le(offset) : []
        central += le(UInt32(0x0201_4b50)) + le(UInt16(0x031e)) + le(UInt16(zip64 ? 45 : 20)) + le(flags) + le(method)
        central += le(UInt16(0)) + le(UInt16(0x5b21)) + le(crc)
        central += zip64 ? le(UInt32(0xFFFF_FFFF)) + le(UInt32(0xFFFF_FFFF)) : le(UInt32(stored.count)) + le(UInt32(data.count))
        central += le(UInt16(nameBytes.count)) + le(UInt16(centralExtra.count)) + le(UInt16(0)) + le(UInt16(0)) + le(UInt16(0))
        central += le(UInt32(0o100644 << 16)) + (zip64 ? le(UInt32(0xFFFF_FFFF)) : le(UInt32(offset))) + nameBytes + centralExtra
        count += 1
    }

    /// The archive: entries, central directory, then (with `zip64`) a zip64
    /// end record and locator, and the end record, its fields all ones.
    func archive(zip64: Bool = false, comment: String = "") -> [UInt8] {
        let directoryOffset = UInt64(bytes.count)
        var out = bytes + central
        if zip64 {
            let recordOffset = UInt64(out.count)
            out += le(UInt32(0x0606_4b50)) + le(UInt64(44)) + le(UInt16(0x031e)) + le(UInt16(45)) + le(UInt32(0)) + le(UInt32(0))
            out += le(UInt64(count)) + le(UInt64(count)) + le(UInt64(central.count)) + le(directoryOffset)
            out += le(UInt32(0x0706_4b50)) + le(UInt32(0)) + le(recordOffset) + le(UInt32(1))
        }
        out += le(UInt32(0x0605_4b50)) + le(UInt16(0)) + le(UInt16(0))
        out += zip64 ? le(UInt16(0xFFFF)) + le(UInt16(0xFFFF)) : le(UInt16(count)) + le(UInt16(count))
        out += zip64 ? le(UInt32(0xFFFF_FFFF)) + le(UInt32(0xFFFF_FFFF)) : le(UInt32(central.count)) + le(UInt32(directoryOffset))
        out += le(UInt16(comment.utf8.count)) + Array(comment.utf8)
        return out
    }
}

/// `value`'s bytes, little-endian.
private func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

/// Reads a little-endian field of an archive in a test.
func zipField(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int {
    (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
}

/// Where the first entry's data starts (after its local header).
func firstDataOffset(_ zip: [UInt8]) -> Int {
    30 + zipField(zip, 26, 2) + zipField(zip, 28, 2)
}

/// Where the central directory starts (archives without a comment or zip64).
func centralDirectoryOffset(_ zip: [UInt8]) -> Int {
    zipField(zip, zip.count - 6, 4)
}

@Suite("Zip archives")
struct ZipReaderTests {
    static let application: [UInt8] = epfRows(
        ["#export_date\u{1}application_id\u{1}title", "#primaryKey:application_id"]
            + (0..<3000).map { "1780000000000\u{1}\($0 * 7919)\u{1}App n\u{00B0} \($0) \u{2014} \(String(repeating: "x", count: $0 % 97))" }
    )
    static let storefront = epfRows(["#export_date\u{1}storefront_id\u{1}country_code", "1\u{1}143441\u{1}USA", "1\u{1}143442\u{1}FRA"])
    /// Random bytes: stored as they are even by deflate.
    static let noise: [UInt8] = randomBytes(300_007)
    /// A little over 1 MB of random bytes.
    static let megabyte: [UInt8] = randomBytes((1 << 20) + 64)

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: count, by: 8) {
                withUnsafeBytes(of: generator.next()) { word in
                    buffer.baseAddress!.advanced(by: offset).copyMemory(from: word.baseAddress!, byteCount: min(8, count - offset))
                }
            }
        }
        return bytes
    }

    /// `itunes20261101/application` and `itunes20261101/storefront`.
    static func feedFolder() throws -> ZipFolder {
        let folder = try ZipFolder()
        try folder.write("itunes20261101/application", application)
        try folder.write("itunes20261101/storefront", storefront)
        return folder
    }

    static let feedNames = ["itunes20261101/application", "itunes20261101/storefront"]

    @Test(arguments: [("-0", UInt16(0)), ("-6", UInt16(8)), ("-1", UInt16(8))], [3, 4096, 1 << 20])
    func feedFolderEntriesReadExactly(level: (String, UInt16), readSize: Int) throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let path = try folder.zip(level.0)
        let zip = try ZipReader(path: path)
        // The folder entry `itunes20261101/` is in the archive but not listed.
        #expect(zip.entries.map(\.name) == Self.feedNames)
        #expect(zip.entries.map(\.size) == [Int64(Self.application.count), Int64(Self.storefront.count)])
        #expect(zip.entries.allSatisfy { $0.method == level.1 && $0.isSupported })
        let entries = try readZip(path, readSize: readSize)
        #expect(entries.map(\.0) == zip.entries)
        #expect(entries.map(\.1) == [Self.application, Self.storefront])
    }

    @Test func entriesReadThroughChunkSources() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let path = try folder.zip("")
        let zip = try ZipReader(path: path)
        var tables: [String: [UInt8]] = [:]
        while let entry = try zip.nextEntry() {
            let source = StreamChunkSource(stream: zip.entryStream(), name: "\(path):\(entry.name)", chunkSize: 4096)
            let chunks = try drain(source)
            expectWellFormed(chunks, file: entry.name.hasSuffix("application") ? Self.application : Self.storefront)
            tables[entry.name] = chunks.flatMap(\.bytes)
            #expect(source.knownSize == zip.archiveSize)
        }
        #expect(tables.count == 2)
        #expect(zip.sourceBytesRead == zip.archiveSize)
    }

    @Test(arguments: ["-0", "-6"])
    func partOfAnEntryThenTheNextIsSkippedCorrectly(level: String) throws {
        let folder = try ZipFolder()
        defer { folder.remove() }
        try folder.write("itunes20261101/a_noise", Self.noise)
        try folder.write("itunes20261101/b_application", Self.application)
        try folder.write("itunes20261101/c_storefront", Self.storefront)
        let path = try folder.zip(level, "itunes20261101/a_noise itunes20261101/b_application itunes20261101/c_storefront")
        for readCount in [0, 1, 4096, 65_537, Self.noise.count - 1, Self.noise.count] {
            let zip = try ZipReader(path: path)
            #expect(try zip.nextEntry()?.name == "itunes20261101/a_noise")
            let stream = zip.entryStream()
            var read = [UInt8]()
            while read.count < readCount {
                var buffer = [UInt8](repeating: 0, count: min(4093, readCount - read.count))
                let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
                read += buffer[0..<count]
            }
            #expect(read == Array(Self.noise.prefix(readCount)))
            #expect(try zip.nextEntry()?.name == "itunes20261101/b_application")
            // The old entry's stream has ended; the new one reads.
            #expect(try readAll(stream) == [])
            #expect(try readAll(zip.entryStream()) == Self.application)
            // Skipped without reading a byte.
            #expect(try zip.nextEntry()?.name == "itunes20261101/c_storefront")
            #expect(try zip.nextEntry() == nil)
            #expect(try zip.nextEntry() == nil)
            #expect(zip.sourceBytesRead == zip.archiveSize)
        }
    }

    /// 0: read every entry; 1: skip every entry; 2: read half of the first,
    /// then `finish()`; 3: `finish()` before the first entry.
    @Test(arguments: 0..<4)
    func theObserverSeesEveryByteOfTheFileOnceInOrder(way: Int) throws {
        let folder = try ZipFolder()
        defer { folder.remove() }
        try folder.write("itunes20261101/application", Self.application)
        try folder.write("itunes20261101/noise", Self.noise)
        try folder.write("itunes20261101/storefront", Self.storefront)
        // A folder entry, extra fields and an archive comment too.
        try folder.run("zip -q -r -fd itunes20261101.zip itunes20261101 && echo 'EPF feed' | zip -q -z itunes20261101.zip")
        let path = folder.root + "/itunes20261101.zip"
        let file = try fileBytes(path)

        let zip = try ZipReader(path: path)
        let seen = ObservedBytes()
        var md5 = MD5()
        zip.observeInput { bytes in
            seen.bytes += bytes
            md5.update(bytes)
        }
        switch way {
        case 0:
            while try zip.nextEntry() != nil { _ = try readAll(zip.entryStream(), size: 1 << 16) }
        case 1:
            while try zip.nextEntry() != nil {}
        case 2:
            _ = try zip.nextEntry()
            var buffer = [UInt8](repeating: 0, count: Self.application.count / 2)
            _ = try buffer.withUnsafeMutableBytes { try zip.entryStream().read(into: $0) }
            try zip.finish()
            #expect(try zip.nextEntry() == nil)
        default:
            try zip.finish()
        }
        #expect(seen.bytes == file)
        #expect(MD5.hex(md5.finalize()) == file.withUnsafeBytes { MD5.hexDigest($0) })
        #expect(zip.sourceBytesRead == Int64(file.count))
    }

    @Test func dataDescriptorsFromZipFd() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        for options in ["-fd", "-fd -0"] {
            let path = try folder.zip(options, archive: "fd\(options.count).zip")
            #expect(try ZipReader(path: path).entries.allSatisfy { $0.flags & 8 != 0 }, "zip \(options) wrote data descriptors")
            let entries = try readZip(path)
            #expect(entries.map(\.0.name) == Self.feedNames)
            #expect(entries.map(\.1) == [Self.application, Self.storefront])
        }
    }

    @Test(arguments: [false, true])
    func streamedFromStandardInputWithZip64Descriptor(big: Bool) throws {
        let folder = try ZipFolder()
        defer { folder.remove() }
        let data = big ? Self.application : Self.storefront
        try folder.write("table", data)
        // Written to a pipe, zip cannot seek back: it streams, with bit 3, a
        // zip64 local extra field and a 64-bit data descriptor.
        try folder.run("zip -q - - < table | cat > streamed.zip")
        let path = folder.root + "/streamed.zip"
        let bytes = try fileBytes(path)
        #expect(zipField(bytes, 6, 2) & 8 != 0)
        let entries = try readZip(path, readSize: 777)
        #expect(entries.map(\.0.name) == ["-"])
        #expect(entries.first?.1 == data)
    }

    @Test func zip64RecordsFromZipFz() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let path = try folder.zip("-fz")
        let bytes = try fileBytes(path)
        #expect(bytes.indices.dropLast(4).contains { zipField(bytes, $0, 4) == 0x0606_4b50 }, "zip -fz wrote a zip64 end record")
        let entries = try readZip(path)
        #expect(entries.map(\.0.name) == Self.feedNames)
        #expect(entries.map(\.1) == [Self.application, Self.storefront])
    }

    @Test(arguments: HandMadeZip.Descriptor.allCases)
    func handMadeZip64(descriptor: HandMadeZip.Descriptor) throws {
        var made = HandMadeZip()
        try made.add("itunes2026110100/storefront", Self.storefront)
        try made.add("itunes2026110100/", [])
        try made.add("itunes2026110100/application", Self.application, deflate: true, zip64: true, descriptor: descriptor)
        try made.add("itunes2026110100/noise", Self.noise, zip64: true, descriptor: descriptor)
        let archive = made.archive(zip64: true, comment: "zip64 by hand")
        let path = try temporaryFile(archive, suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let zip = try ZipReader(path: path)
        #expect(zip.entries.map(\.name) == ["itunes2026110100/storefront", "itunes2026110100/application", "itunes2026110100/noise"])
        #expect(zip.entries.map(\.method) == [0, 8, 0])
        #expect(zip.entries.map(\.size) == [Self.storefront, Self.application, Self.noise].map { Int64($0.count) })
        #expect(zip.entries[1].crc32 == testCRC32(Self.application))
        let entries = try readZip(path, readSize: 65_536)
        #expect(entries.map(\.1) == [Self.storefront, Self.application, Self.noise])
    }

    @Test(arguments: HandMadeZip.Descriptor.allCases)
    func dataDescriptorsOfEveryFormWithoutZip64(descriptor: HandMadeZip.Descriptor) throws {
        var made = HandMadeZip()
        try made.add("itunes20261101/application", Self.application, deflate: true, descriptor: descriptor)
        try made.add("itunes20261101/storefront", Self.storefront, descriptor: descriptor)
        let path = try temporaryFile(made.archive(), suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let entries = try readZip(path)
        #expect(entries.map(\.0.name) == Self.feedNames)
        #expect(entries.map(\.1) == [Self.application, Self.storefront])
    }

    /// Headers and descriptors that straddle the 1 MB read buffer.
    @Test(arguments: [-40, -30, -17, -5, 0, 3, 20])
    func structuresAcrossTheReadBuffer(shift: Int) throws {
        var made = HandMadeZip()
        let name = "itunes20261101/first"
        // The first entry's data ends `shift` bytes from 1 MB; a signed
        // 32-bit descriptor and the next header follow.
        let size = (1 << 20) - 30 - name.utf8.count + shift
        let first = Array(Self.megabyte.prefix(size))
        try made.add(name, first, descriptor: .signed32)
        try made.add("itunes20261101/storefront", Self.storefront, deflate: true, descriptor: .unsigned64)
        let path = try temporaryFile(made.archive(), suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let entries = try readZip(path, readSize: 1 << 16)
        #expect(entries.map(\.1) == [first, Self.storefront])
        // And skipped.
        let zip = try ZipReader(path: path)
        while try zip.nextEntry() != nil {}
        #expect(zip.sourceBytesRead == zip.archiveSize)
    }

    @Test func emptyEntriesAndAnEmptyArchive() throws {
        var made = HandMadeZip()
        try made.add("itunes20261101/empty", [])
        try made.add("itunes20261101/empty_deflated", [], deflate: true, descriptor: .signed32)
        let path = try temporaryFile(made.archive(), suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let entries = try readZip(path)
        #expect(entries.map(\.0.name) == ["itunes20261101/empty", "itunes20261101/empty_deflated"])
        #expect(entries.map(\.1) == [[], []])

        let emptyPath = try temporaryFile(HandMadeZip().archive(), suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: emptyPath) }
        let zip = try ZipReader(path: emptyPath)
        let seen = ObservedBytes()
        zip.observeInput { seen.bytes += $0 }
        #expect(zip.entries.isEmpty)
        #expect(try zip.nextEntry() == nil)
        #expect(seen.bytes.count == 22)
    }

    @Test func bytesBeforeTheArchiveAreReadToo() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let path = try folder.zip("")
        let stub = Array("#!/bin/sh\nexit 0\n".utf8)
        let prefixed = try temporaryFile(stub + fileBytes(path), suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: prefixed) }
        let zip = try ZipReader(path: prefixed)
        let seen = ObservedBytes()
        zip.observeInput { seen.bytes += $0 }
        var contents: [[UInt8]] = []
        while try zip.nextEntry() != nil { contents.append(try readAll(zip.entryStream())) }
        #expect(contents == [Self.application, Self.storefront])
        #expect(seen.bytes == stub + (try fileBytes(path)))
    }

    // MARK: Errors

    @Test(arguments: [0.5, 0.95, 0.999])
    func aCutShortArchiveNamesItsFirstEntry(kept: Double) throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let whole = try fileBytes(try folder.zip("-D"))
        let path = try temporaryFile(Array(whole.prefix(Int(Double(whole.count) * kept))), suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        expectZipError(path, entry: Self.feedNames[0], "cut short") { _ = try ZipReader(path: path) }
    }

    @Test func aFileCutAfterItWasOpenedIsAnError() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let path = try folder.zip("-D -0")
        let zip = try ZipReader(path: path)
        // The central directory was read; the file then loses its end.
        #expect(truncate(path, off_t(firstDataOffset(try fileBytes(path)) + 1000)) == 0)
        _ = try zip.nextEntry()
        expectZipError(path, entry: Self.feedNames[0], "the archive ends inside entry") { _ = try readAll(zip.entryStream()) }
    }

    @Test func missingBytesInsideTheArchive() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        var bytes = try fileBytes(try folder.zip("-D"))
        bytes.removeSubrange(1000..<1100)
        let path = try temporaryFile(bytes, suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        expectZipError(path, entry: nil, "100 bytes of the archive are missing") { _ = try ZipReader(path: path) }
    }

    @Test func garbageAndEmptyFilesAreNotZipArchives() throws {
        let garbage = try temporaryFile(Self.application, suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        expectZipError(garbage, entry: nil, "not a zip archive") { _ = try ZipReader(path: garbage) }
        let empty = try temporaryFile([], suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        expectZipError(empty, entry: nil, "empty") { _ = try ZipReader(path: empty) }
        expectZipError("/nonexistent/feed.zip", entry: nil, "cannot open") { _ = try ZipReader(path: "/nonexistent/feed.zip") }
    }

    @Test func aFlippedByteInDeflateDataIsAnError() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let bytes = try fileBytes(try folder.zip("-D"))
        let start = firstDataOffset(bytes)
        let compressed = zipField(bytes, 18, 4)
        // Each damage must be caught, by zlib or by the CRC and size checks.
        for position in [start + 3, start + compressed / 3, start + compressed / 2, start + compressed - 5] {
            var damaged = bytes
            damaged[position] ^= 0x10
            let path = try temporaryFile(damaged, suffix: ".zip")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let error = #expect(throws: InputError.self) { try readWholeZip(path) }
            #expect(error?.path == path)
            #expect(error?.detail.contains("entry \(Self.feedNames[0])") == true, "\(String(describing: error))")
            let text = error?.detail ?? ""
            #expect(
                text.contains("corrupt deflate data") || text.contains("CRC-32 mismatch") || text.contains("decompresses to"),
                "\(text)")
        }
    }

    @Test func aFlippedByteInStoredDataIsACRCMismatch() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        var bytes = try fileBytes(try folder.zip("-D -0"))
        bytes[firstDataOffset(bytes) + 5000] ^= 1
        let path = try temporaryFile(bytes, suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        expectZipError(path, entry: Self.feedNames[0], "CRC-32 mismatch") { try readWholeZip(path) }
        // Read again after the error, the entry does not end as if whole.
        let again = try ZipReader(path: path)
        _ = try again.nextEntry()
        let stream = again.entryStream()
        expectZipError(path, entry: Self.feedNames[0], "CRC-32 mismatch") { _ = try readAll(stream) }
        expectZipError(path, entry: Self.feedNames[0], "CRC-32 mismatch") { _ = try readAll(stream) }
        #expect(try again.nextEntry()?.name == Self.feedNames[1])
        #expect(try readAll(again.entryStream()) == Self.storefront)
        // Skipped rather than read, the entry is not checked (an md5 is).
        let zip = try ZipReader(path: path)
        while try zip.nextEntry() != nil {}
    }

    @Test func aWrongSizeInTheCentralDirectoryIsAnError() throws {
        var made = HandMadeZip()
        try made.add("itunes20261101/application", Self.application, deflate: true, descriptor: .signed32)
        var bytes = made.archive()
        // The uncompressed size in the central directory, one too small.
        let field = centralDirectoryOffset(bytes) + 24
        bytes[field] &-= 1
        let path = try temporaryFile(bytes, suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        expectZipError(path, entry: Self.feedNames[0], "decompresses to more than") { try readWholeZip(path) }
    }

    @Test func aDescriptorDisagreeingWithTheCentralDirectoryIsAnError() throws {
        var made = HandMadeZip()
        try made.add("itunes20261101/storefront", Self.storefront, descriptor: .signed32)
        var bytes = made.archive()
        // The descriptor's CRC.
        bytes[firstDataOffset(bytes) + Self.storefront.count + 4] ^= 0xFF
        let path = try temporaryFile(bytes, suffix: ".zip")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let zip = try ZipReader(path: path)
        _ = try zip.nextEntry()
        #expect(try readAll(zip.entryStream()) == Self.storefront)
        expectZipError(path, entry: Self.feedNames[1], "data descriptor") { _ = try zip.nextEntry() }
    }

    @Test func aLocalHeaderDisagreeingWithTheCentralDirectoryIsAnError() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let bytes = try fileBytes(try folder.zip("-D -0"))
        var method = bytes
        method[8] = 8
        var name = bytes
        name[30 + 3] = UInt8(ascii: "X")
        var crc = bytes
        crc[14] ^= 1
        for (damaged, what) in [(method, "method 8 there, 0 in the central directory"), (name, "it names"), (crc, "CRC")] {
            let path = try temporaryFile(damaged, suffix: ".zip")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let zip = try ZipReader(path: path)
            expectZipError(path, entry: Self.feedNames[0], what) { _ = try zip.nextEntry() }
        }
    }

    @Test func unsupportedMethodsAreNamedAndCanBeSkipped() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        try folder.run(
            "zip -q -D -Z bzip2 itunes20261101.zip itunes20261101/application && zip -q -D itunes20261101.zip itunes20261101/storefront")
        let path = folder.root + "/itunes20261101.zip"
        let zip = try ZipReader(path: path)
        #expect(zip.entries.map(\.method) == [12, 8])
        #expect(zip.entries.map(\.isSupported) == [false, true])
        _ = try zip.nextEntry()
        expectZipError(path, entry: Self.feedNames[0], "bzip2") { _ = try readAll(zip.entryStream()) }
        // Passed over, the rest of the archive reads.
        #expect(try zip.nextEntry()?.name == Self.feedNames[1])
        #expect(try readAll(zip.entryStream()) == Self.storefront)
        #expect(try zip.nextEntry() == nil)
    }

    @Test func encryptedEntriesAreNamed() throws {
        let folder = try Self.feedFolder()
        defer { folder.remove() }
        let path = try folder.zip("-D -P secret")
        let zip = try ZipReader(path: path)
        #expect(zip.entries.allSatisfy { $0.isEncrypted })
        _ = try zip.nextEntry()
        expectZipError(path, entry: Self.feedNames[0], "encrypted") { _ = try readAll(zip.entryStream()) }
    }
}
