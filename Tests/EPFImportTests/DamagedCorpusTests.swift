import EPFCatalog
import EPFFormat
import EPFImport
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

// Plain values (arrays of bytes and numbers), declared in other files of
// this target: shared between test cases only to be read.
extension CatalogSnapshot.Table: @unchecked Sendable {}
extension CatalogSnapshot: @unchecked Sendable {}

/// A catalog holding the sample itunes FULL, built once, kept as bytes:
/// each case gets its own copy.
struct BaseCatalog: Sendable {
    let bytes: [UInt8]
    let snapshot: CatalogSnapshot

    static let shared: Result<BaseCatalog, any Error> = Result {
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("catalog.sqlite").path
            let reports = try runImport([SampleFeeds.path("itunes20261101")], catalog: path)
            guard reports.allSatisfy({ $0.status == .applied }) else { throw RawSQLiteError(description: "the base import failed") }
            return BaseCatalog(bytes: try fileBytes(URL(fileURLWithPath: path)), snapshot: try CatalogSnapshot(path: path))
        }
    }
}

@Suite(
    "Damaged-input corpus: verify and import agree; each file is refused with its place, or repaired and counted", .timeLimit(.minutes(2)))
struct DamagedCorpusTests {
    @Test("A damaged file, verified and imported", arguments: DamagedCorpus.all)
    func damagedFile(_ corpusCase: CorpusCase) throws {
        let base = try BaseCatalog.shared.get()
        try withScratchFolder { folder in
            let feed = folder.appendingPathComponent(corpusCase.feedFolder, isDirectory: true)
            try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
            let file = feed.appendingPathComponent(corpusCase.fileName)
            if corpusCase.gzip {
                let plain = feed.appendingPathComponent(String(corpusCase.fileName.dropLast(3)))
                try write(corpusCase.bytes, to: plain)
                try shell("gzip -n '\(plain.lastPathComponent)'", in: feed)
            } else {
                try write(corpusCase.bytes, to: file)
            }
            let path = file.path

            // epf verify's library entry.
            let keys = folder.appendingPathComponent("keys", isDirectory: true)
            try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
            let verified = try FeedVerifier(options: VerifyOptions(temporaryFolder: keys.path), makeStore: SQLiteKeyCheckStore.init).run(
                paths: [path])
            try #require(verified.count == 1, "\(verified)")
            let verdict = verified[0]
            #expect(try FileManager.default.contentsOfDirectory(atPath: keys.path).isEmpty, "the temporary key index was left behind")

            // epf import, into a copy of the base catalog.
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            try write(base.bytes, to: URL(fileURLWithPath: catalog))
            // --allow-shrink: the shrink guard is about the catalog, not the
            // file (a FULL of 0 rows is a sound file that verify passes).
            let imported = try runImport([path], catalog: catalog, options: ImportOptions(allowShrink: true))
            try #require(imported.count == 1, "\(imported)")
            let report = imported[0]

            // They agree, error for error and count for count.
            #expect(
                (verdict.status == .damaged) == (report.status == .failed),
                "verify: \(verdict.status), import: \(report.status) \(report.error ?? "")")
            if verdict.status == .damaged {
                #expect(verdict.error == report.error)
            } else {
                #expect(verdict.counts == report.counts)
                #expect(verdict.rows == report.rows && verdict.skipped == report.skipped && verdict.repaired == report.repaired)
            }

            switch corpusCase.expected {
            case .refused(let place, let wording):
                #expect(verdict.status == .damaged, "expected refused, got \(verdict.status): \(verdict.counts)")
                let error = verdict.error ?? ""
                if let place {
                    #expect(error.hasPrefix("\(path): \(place): "), "error: \(error)")
                }
                #expect(wording.isEmpty || error.contains(wording), "error: \(error)")
            case .accepted(let status, let counts):
                #expect(verdict.status == status, "error: \(verdict.error ?? "")")
                #expect(counts.mismatches(verdict).isEmpty, "\(counts.mismatches(verdict))")
            case .either:
                break
            }

            if report.status == .failed {
                // The error names the file and a byte inside it.
                let error = report.error ?? ""
                #expect(error.hasPrefix("\(path): "), "error: \(error)")
                let offset = error.firstRange(of: /byte (\d+)/).flatMap { Int(error[$0].dropFirst(5)) }
                #expect(offset != nil && offset! <= corpusCase.bytes.count, "error: \(error)")
                // The catalog is as it was; the journal says why.
                #expect(try CatalogSnapshot(path: catalog) == base.snapshot, "the catalog changed")
                let journal = try JournalRow.all(in: catalog).last
                #expect(journal?.sourcePath == path && journal?.status == "failed" && journal?.message == report.error)
            }
        }
    }

    @Test("The corpus covers every kind of damage listed in the brief")
    func corpusIsComplete() {
        let names = DamagedCorpus.all.map(\.name)
        for part in [
            "cut header row", "mid-field", "right before 0x01", "right after 0x01", "between 0x02 and 0x0A", "after record 25",
            "mid-footer", "flip", "became 0x02 0x0A", "FULL: records 1 and 2 again", "NUL", "10 MB", "10000 columns", "CRLF", "gzip:",
        ] {
            #expect(names.contains { $0.contains(part) }, "no case for \(part)")
        }
        #expect(DamagedCorpus.all.count > 350)
    }
}

/// Like `withTemporaryFolder`, on /dev/shm when the machine has it: the
/// corpus writes a catalog per case, and commits on a memory file system
/// cost no disk flush (the suite stays within seconds).
func withScratchFolder<T>(_ body: (URL) throws -> T) throws -> T {
    var isDirectory: ObjCBool = false
    let memory =
        FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory) && isDirectory.boolValue
        && FileManager.default.isWritableFile(atPath: "/dev/shm")
    let root = memory ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    let folder = try TemporaryFolder.create("epf-corpus", in: root)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
