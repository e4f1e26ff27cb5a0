import EPFCatalogStore
import EPFFormat
import Foundation

/// A table loader that stores nothing: it decodes every field as
/// `SQLiteTableLoader` does (`RecordDecoder`), counts the same repairs and
/// misfits, refuses the same rows under `strict` (same wording), and puts
/// each row's key, as the catalog would store it, into a temporary
/// `KeyIndex` (`KeyIndexSink`), which counts the repeated keys at the end.
final class VerifyingLoader: TableLoader {
    private(set) var progress: LoadProgress

    let decoder: RecordDecoder
    /// For each column, its place in the key, or -1.
    let keyPosition: [Int]
    let store: SQLiteKeyCheckStore
    var keys: KeyIndex?

    init(target: StagingTarget, strict: Bool, store: SQLiteKeyCheckStore) throws {
        progress = LoadProgress(target: target, checkpointBytes: .max, resume: nil)
        self.store = store
        let header = target.header
        decoder = RecordDecoder(header: header, strict: strict, file: target.sourceName, sink: KeyIndexSink.self)
        var positions = Array(repeating: -1, count: header.columns.count)
        for (place, column) in header.keyColumnIndexes.enumerated() { positions[column] = place }
        keyPosition = positions
        if !header.keyColumnIndexes.isEmpty {
            do throws(SQLiteError) {
                keys = try KeyIndex(
                    keyColumns: header.keyColumnIndexes.count, folder: store.settings.temporaryFolder,
                    memory: store.settings.memory)
            } catch {
                throw CatalogError(error, while: "creating the temporary key index for \(target.table)")
            }
        }
    }

    func load(_ batch: RecordBatch, chunk: UnsafeRawBufferPointer, firstRecord: Int, chunkOffset: Int64) throws {
        guard let base = progress.begin(batch, chunk: chunk) else { return }
        var sink = KeyIndexSink(keys: keys, keyPosition: keyPosition)
        for record in 0..<batch.count {
            let number = firstRecord + batch.ordinal(record)
            let offset = chunkOffset + Int64(batch.offset(record))
            let tally = try decoder.decode(record, of: batch, base: base, number: number, chunkOffset: chunkOffset, into: &sink)
            progress.counts.add(tally)
            if let keys {
                do throws(SQLiteError) {
                    try keys.add(record: number, offset: offset)
                } catch {
                    throw CatalogError(error, while: "recording the key of record \(number) of \(target.table)")
                }
            }
        }
        progress.counts.rowsRead += batch.count
    }

    /// Counts the repeated keys (every row of a key but the last would be
    /// skipped, as the import keeps the last).
    func finish() throws -> StagedTable {
        if let keys {
            self.keys = nil
            do throws(SQLiteError) {
                let found = try keys.duplicates(examples: store.settings.examples)
                progress.counts.duplicateKeys = found.skipped
                if !found.examples.isEmpty { store.duplicateKeys[target.sourceName] = found.examples }
            } catch {
                throw CatalogError(error, while: "checking the keys of \(target.table) in the temporary key index")
            }
        }
        return progress.staged(in: "", keyIndex: nil)
    }

    func abandon() {
        keys = nil
    }
}

/// The keys of one file in a temporary SQLite database on disk, so that
/// repeated keys are found in bounded memory whatever the file size: rows
/// are appended (record number as rowid, key columns with no type, so each
/// value keeps the class the catalog would store: `1` and `01` are the same
/// integer key, as in the catalog's unique index), then one `GROUP BY` over
/// the key columns, which SQLite sorts externally (page cache and sorter
/// bounded by `memory`, the rest in temporary files).
final class KeyIndex {
    let database: SQLiteDatabase
    let path: String
    let keyColumns: Int
    private var insert: SQLiteStatement?

    init(keyColumns: Int, folder: String?, memory: Int) throws(SQLiteError) {
        self.keyColumns = keyColumns
        let directory = folder ?? FileManager.default.temporaryDirectory.path
        path = (directory as NSString).appendingPathComponent("epf-verify-keys-\(UUID().uuidString).sqlite")
        database = try SQLiteDatabase(path: path)
        do throws(SQLiteError) {
            try database.execute(
                """
                PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA temp_store = FILE; PRAGMA cache_size = -\(max(1024, memory >> 10));
                """)
            let columns = (0..<keyColumns).map { "k\($0)" }
            try database.execute("CREATE TABLE keys (record INTEGER PRIMARY KEY, byte_offset, \(columns.joined(separator: ", ")))")
            try database.execute("BEGIN")
            let parameters = Array(repeating: "?", count: keyColumns + 2).joined(separator: ", ")
            insert = try database.prepare("INSERT INTO keys VALUES (\(parameters))")
        } catch {
            remove()
            throw error
        }
    }

    deinit {
        insert = nil
        remove()
    }

    private func remove() {
        for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Binds key column `place` (0-based) of the row being added. Text is
    /// bound without a copy: `bytes` must stay put until `add`.
    func bindText(_ bytes: UnsafePointer<UInt8>, count: Int, at place: Int) {
        insert?.bindStatic(bytes, count: count, at: Int32(place + 3))
    }

    func bind(_ value: Int64, at place: Int) { insert?.bind(value, at: Int32(place + 3)) }
    func bind(_ value: Double, at place: Int) { insert?.bind(value, at: Int32(place + 3)) }

    /// Adds the row whose key columns were just bound.
    func add(record: Int, offset: Int64) throws(SQLiteError) {
        guard let insert else { return }
        insert.bind(Int64(record), at: 1)
        insert.bind(offset, at: 2)
        defer { insert.reset() }
        _ = try insert.step()
    }

    /// The rows an import would skip (for each key, all its rows but the
    /// last) and the first `examples` repeated keys in file order.
    func duplicates(examples: Int) throws(SQLiteError) -> (skipped: Int, examples: [DuplicateKey]) {
        insert = nil
        try database.execute("COMMIT")
        let columns = (0..<keyColumns).map { "k\($0)" }.joined(separator: ", ")
        let query = try database.prepare(
            """
            SELECT count(*), min(record), min(byte_offset), max(record), max(byte_offset), \(columns)
            FROM keys GROUP BY \(columns) HAVING count(*) > 1
            """)
        var skipped = 0
        var found: [DuplicateKey] = []
        while try query.step() {
            let rows = Int(query.int64(0))
            skipped += rows - 1
            found.append(
                DuplicateKey(
                    key: (0..<keyColumns).map { query.value(5 + $0).textValue ?? "" }, rows: rows,
                    firstRecord: Int(query.int64(1)), firstOffset: query.int64(2),
                    lastRecord: Int(query.int64(3)), lastOffset: query.int64(4)))
            if found.count > 4 * max(1, examples) {
                found.sort { $0.firstRecord < $1.firstRecord }
                found.removeLast(found.count - examples)
            }
        }
        found.sort { $0.firstRecord < $1.firstRecord }
        return (skipped, Array(found.prefix(examples)))
    }
}
