import EPFCatalog
import EPFFormat
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// A catalog in a temporary folder.
final class TemporaryCatalog {
    let folder: URL
    let path: String
    private var openStore: SQLiteCatalogStore?
    /// The catalog opened for importing (it holds the import lock).
    var store: SQLiteCatalogStore { openStore! }

    init() throws {
        folder = try TemporaryFolder.create("epf-catalog")
        path = folder.appendingPathComponent("catalog.sqlite").path
        openStore = try SQLiteCatalogStore(path: path)
    }

    /// Closes the store and opens the catalog again, as the next import
    /// would.
    @discardableResult
    func reopen(restart: Bool = false) throws -> SQLiteCatalogStore {
        openStore = nil
        openStore = try SQLiteCatalogStore(path: path, restart: restart)
        return store
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Parses `table` and loads it into staging, as the importer does.
    func stage(_ table: TableBytes, as name: String, strict: Bool = false) throws -> StagedTable {
        try stage(bytes: table.bytes, as: name, strict: strict)
    }

    /// Parses a table file's bytes and loads them into staging.
    func stage(bytes: [UInt8], as name: String, strict: Bool = false) throws -> StagedTable {
        try bytes.withUnsafeBytes { raw in
            guard case .header(let header) = try HeaderParser.parse(raw, isComplete: true) else {
                Issue.record("header incomplete")
                throw CancellationError()
            }
            let loader = try store.makeLoader(for: StagingTarget(table: name, header: header, sourceName: name), strict: strict)
            let parser = RecordParser(header: header)
            let batch = RecordBatch(columnCount: header.columns.count, capacity: 2)
            var position = header.dataOffset
            var records = 0
            repeat {
                position = parser.parse(raw, from: position, isFinal: true, recordsBefore: records, into: batch)
                if let fault = batch.fault { throw fault }
                try loader.load(batch, chunk: raw, firstRecord: records + 1, chunkOffset: 0)
                records += batch.count
            } while batch.count > 0 && batch.footer == nil
            return try loader.finish()
        }
    }

    /// Stages and applies one table.
    @discardableResult
    func apply(_ table: TableBytes, as name: String) throws -> ApplyOutcome {
        let staged = try stage(table, as: name)
        return try store.apply([staged], journal: []).first!
    }

    /// Every row of `table` in key order, as values.
    func rows(_ sql: String) throws -> [[SQLValue]] {
        try store.database.rows(sql)
    }
}
