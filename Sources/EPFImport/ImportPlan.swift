import EPFInput
import Foundation

/// One table file to import.
public struct PlannedFile: Sendable, Equatable {
    /// The path as the user will see it.
    public var path: String
    /// The catalog table it goes into (prefix included).
    public var table: String
    /// The file's size in bytes.
    public var size: Int64
}

/// Files applied together: all of a feed folder's files go live in one
/// transaction, or none do. A table file named on its own is its own unit.
public struct ImportUnit: Sendable, Equatable {
    /// The folder or file the user named.
    public var path: String
    /// Feed and date, when the folder (or a file's folder) is named like one.
    public var feed: FeedName?
    public var files: [PlannedFile]
}

/// What to import, in order.
public struct ImportPlan: Sendable, Equatable {
    public var units: [ImportUnit]
    /// Things the user should know about the paths (files ignored, ...).
    public var notes: [String]

    public var fileCount: Int { units.reduce(0) { $0 + $1.files.count } }
}

/// Which tables to import: `--include` / `--exclude` regular expressions,
/// matched against whole table names (before any prefix).
public struct TableFilter: Sendable {
    public var include: [String]
    public var exclude: [String]

    public init(include: [String] = [], exclude: [String] = []) throws(PlanError) {
        for pattern in include + exclude {
            do {
                _ = try Regex(pattern)
            } catch {
                throw PlanError(detail: "'\(pattern)' is not a valid regular expression: \(error)")
            }
        }
        self.include = include
        self.exclude = exclude
    }

    public func accepts(_ table: String) -> Bool {
        func matches(_ pattern: String) -> Bool {
            guard let regex = try? Regex(pattern) else { return false }
            return (try? regex.wholeMatch(in: table)) != nil
        }
        if !include.isEmpty && !include.contains(where: matches) { return false }
        return !exclude.contains(where: matches)
    }
}

/// A path that cannot be planned.
public struct PlanError: Error, Sendable, CustomStringConvertible {
    public var detail: String
    public var description: String { detail }
}

/// Turns the paths of `epf import` into an ordered plan.
public enum ImportPlanner {
    /// Plans `paths` in the order given. A path is a table file or a folder
    /// of table files (an extracted feed such as `itunes20261101/`); files in
    /// a folder go in name order.
    public static func plan(paths: [String], filter: TableFilter, tablePrefix: String = "") throws(PlanError) -> ImportPlan {
        var units: [ImportUnit] = []
        var notes: [String] = []
        let files = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PlanError(detail: "\(path): no such file or folder")
            }
            let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            if isDirectory.boolValue {
                let url = URL(fileURLWithPath: trimmed)
                let entries: [String]
                do {
                    entries = try files.contentsOfDirectory(atPath: trimmed).sorted()
                } catch {
                    throw PlanError(detail: "\(path): cannot list the folder: \(error.localizedDescription)")
                }
                var planned: [PlannedFile] = []
                var subfolders: [String] = []
                for name in entries where !name.hasPrefix(".") {
                    let full = trimmed == "/" ? "/" + name : trimmed + "/" + name
                    var entryIsDirectory: ObjCBool = false
                    _ = files.fileExists(atPath: full, isDirectory: &entryIsDirectory)
                    if entryIsDirectory.boolValue {
                        subfolders.append(name)
                        continue
                    }
                    guard let table = tableName(forFile: name) else {
                        notes.append("\(full): not a table file (table files have no extension, or .gz): ignored")
                        continue
                    }
                    guard filter.accepts(table) else { continue }
                    planned.append(PlannedFile(path: full, table: tablePrefix + table, size: fileSize(full)))
                }
                if planned.isEmpty && !subfolders.isEmpty {
                    let feeds = subfolders.compactMap { name in FeedName(name).map { (name, $0) } }
                        .sorted { $0.1 < $1.1 }.map { trimmed + "/" + $0.0 }
                    throw PlanError(
                        detail: "\(path) holds folders, not table files: name the feed folders to import, oldest first"
                            + (feeds.isEmpty ? "" : ", for example: epf import \(feeds.joined(separator: " "))"))
                }
                if planned.isEmpty {
                    notes.append("\(path): no table files to import")
                }
                units.append(ImportUnit(path: trimmed, feed: FeedName(url.lastPathComponent), files: planned))
            } else {
                let url = URL(fileURLWithPath: trimmed)
                let name = url.lastPathComponent
                guard let table = tableName(forFile: name) else {
                    throw PlanError(detail: "\(path): not a table file name (EPF table files have no extension; a gzipped one ends in .gz)")
                }
                guard filter.accepts(table) else {
                    notes.append("\(path): table \(table) left out by --include/--exclude")
                    continue
                }
                let feed = FeedName(url.deletingLastPathComponent().lastPathComponent)
                units.append(ImportUnit(path: trimmed, feed: feed, files: [
                    PlannedFile(path: trimmed, table: tablePrefix + table, size: fileSize(trimmed))
                ]))
            }
        }
        return ImportPlan(units: units, notes: notes)
    }

    /// The table a file holds: its name with `-` made `_`; a gzipped table
    /// file (`application.gz`) holds the table of its stem. Other names with
    /// an extension (archives, `.md5` files) are not table files.
    public static func tableName(forFile name: String) -> String? {
        var stem = Substring(name)
        if stem.hasSuffix(".gz") { stem = stem.dropLast(3) }
        guard !stem.isEmpty, !stem.contains("."), !stem.hasPrefix("#") else { return nil }
        return stem.replacingOccurrences(of: "-", with: "_")
    }

    static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
