import EPFCatalogStore
import Foundation

/// One line of `DIR/_epf/journal.jsonl`: a file applied to the lake. The
/// catalog journal's fields (`JournalEntry`: feed, feedDate, table,
/// exportDate, mode, rows, repairedRows, skippedRows, sourcePath,
/// sourceSize, startedAt, finishedAt, status, message, details, originSize,
/// originMD5, originHash, originModified), with the partition it wrote
/// (`<table>/export_date=YYYY-MM-DD/mode=FULL|INCREMENTAL`), the file's key
/// (`key`), columns (`columns`) and their declared types (`dbTypes`), all in
/// one flat JSON object.
package struct LakeJournalLine: Codable, Equatable, Sendable {
    package var entry: JournalEntry
    package var partition: String
    /// The file's `#primaryKey` columns (empty: no key).
    package var key: [String]
    /// The file's columns and their `#dbTypes`, for the views of engines
    /// that declare a table's columns (Trino).
    package var columns: [String]
    package var dbTypes: [String]

    enum Keys: String, CodingKey { case partition, key, columns, dbTypes }

    package init(entry: JournalEntry, partition: String, key: [String], columns: [String], dbTypes: [String]) {
        self.entry = entry
        self.partition = partition
        self.key = key
        self.columns = columns
        self.dbTypes = dbTypes
    }

    package init(from decoder: any Decoder) throws {
        entry = try JournalEntry(from: decoder)
        let container = try decoder.container(keyedBy: Keys.self)
        partition = try container.decode(String.self, forKey: .partition)
        key = try container.decode([String].self, forKey: .key)
        columns = try container.decode([String].self, forKey: .columns)
        dbTypes = try container.decode([String].self, forKey: .dbTypes)
    }

    package func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(partition, forKey: .partition)
        try container.encode(key, forKey: .key)
        try container.encode(columns, forKey: .columns)
        try container.encode(dbTypes, forKey: .dbTypes)
    }

    /// As `appliedFiles()` lists it; `id` is the line's number (from 1).
    func applied(id: Int64) -> AppliedFile {
        let archiveTables = entry.details.flatMap { details in
            (try? JSONSerialization.jsonObject(with: Data(details.utf8)) as? [String: Any])?["archiveTables"] as? [String]
        }
        return AppliedFile(
            id: id, feed: entry.feed, feedDate: entry.feedDate, table: entry.table, mode: entry.mode, exportDate: entry.exportDate,
            originSize: entry.originSize, originMD5: entry.originMD5, originHash: entry.originHash,
            originModified: entry.originModified, archiveTables: archiveTables,
            storefronts: StorefrontSet.recorded(inDetails: entry.details))
    }
}

/// The lake's journal file: lines appended (and synced) only, never
/// rewritten. A line that does not parse (a kill in the middle of an
/// append) is ignored, and its file is applied again by the next run.
package struct LakeJournal {
    package let path: String

    package init(path: String) { self.path = path }

    /// Every line that parses, oldest first.
    package func lines() throws -> [LakeJournalLine] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CatalogError(.failed, detail: "cannot read the lake's journal \(path): \(error)", hint: "Check the file's permissions")
        }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(LakeJournalLine.self, from: Data($0)) }
    }

    /// Appends `lines` and syncs the journal to disk.
    package func append(_ lines: [LakeJournalLine]) throws {
        guard !lines.isEmpty else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = Data()
        for line in lines {
            bytes += try encoder.encode(line)
            bytes.append(UInt8(ascii: "\n"))
        }
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.error("open", path) }
        defer { close(descriptor) }
        // A line cut by a kill in an earlier append: start on a line of our own.
        var last: UInt8 = 0
        let end = lseek(descriptor, 0, SEEK_END)
        if end > 0, pread(descriptor, &last, 1, end - 1) == 1, last != UInt8(ascii: "\n") {
            bytes.insert(UInt8(ascii: "\n"), at: bytes.startIndex)
        }
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw Self.error("write", path)
                }
                done += count
            }
        }
        guard fsync(descriptor) == 0 else { throw Self.error("fsync", path) }
    }

    static func error(_ operation: String, _ path: String) -> CatalogError {
        let code = errno
        return CatalogError(
            code == ENOSPC ? .full : .failed, detail: "\(operation) \(path): \(String(cString: strerror(code)))",
            hint: "Check the lake's disk and import again")
    }
}
