import EPFFormat
import EPFInput
import Foundation

/// One table file to import.
package struct PlannedFile: Sendable, Equatable {
    /// The path as the user will see it (`archive:entry` inside an archive).
    package var path: String
    /// The catalog table it goes into (prefix included).
    package var table: String
    /// The file's size in bytes (compressed size for a compressed file).
    package var size: Int64
    /// The file's modification time (nanoseconds since 1970), when planned:
    /// with the size, the cheap check of whether a download changed.
    package var modified: Int64? = nil
    /// How the file holds its table: plain, compressed, or a one-table archive.
    package var format: InputFormat = .plain
    /// The md5 its `.md5` side file gives, checked in the same pass.
    package var expectedMD5: String?
    /// Why its `.md5` side file could not be read (the file then fails, not
    /// the whole plan).
    package var md5Problem: String?

    /// Compressed files come with an `.md5` side file; plain ones do not.
    package var lacksMD5: Bool { format != .plain && expectedMD5 == nil }
}

/// A feed shipped as one archive (`itunes20261101.tbz` holding
/// `itunes20261101/<table>`): its files are found as the archive is read.
package struct PlannedArchive: Sendable, Equatable {
    package var path: String
    package var format: InputFormat
    package var size: Int64
    /// The archive's modification time (nanoseconds since 1970).
    package var modified: Int64? = nil
    package var expectedMD5: String?
    /// Why its `.md5` side file could not be read.
    package var md5Problem: String?
}

/// Files applied together: all of a feed folder's (or feed archive's) files
/// go live in one transaction, or none do. A table file named on its own is
/// its own unit.
package struct ImportUnit: Sendable, Equatable {
    /// The folder or file the user named.
    package var path: String
    /// Feed and date, when the folder (or a file's folder) is named like one.
    package var feed: FeedName?
    /// The files, for a folder or a single file.
    package var files: [PlannedFile]
    /// The archive, for a feed shipped as one archive (`files` is empty).
    package var archive: PlannedArchive?
    /// Table names to import and the prefix, for an archive's entries.
    package var filter: TableFilter?
    package var tablePrefix: String = ""
    /// Found in a download folder (so scheduled by date against the journal)
    /// rather than named by the user.
    package var fromDownloadTree = false
    /// For a feed archive: catalog tables the journal lists as applied from
    /// this very archive; their entries are passed over.
    package var skipTables: Set<String> = []

    /// Whether the unit has anything to import.
    package var isEmpty: Bool { files.isEmpty && archive == nil }

    package static func == (lhs: ImportUnit, rhs: ImportUnit) -> Bool {
        lhs.path == rhs.path && lhs.feed == rhs.feed && lhs.files == rhs.files && lhs.archive == rhs.archive
            && lhs.tablePrefix == rhs.tablePrefix && lhs.fromDownloadTree == rhs.fromDownloadTree
            && lhs.skipTables == rhs.skipTables
    }
}

/// What to import, in order.
public struct ImportPlan: Sendable, Equatable {
    /// The units, in the order they import.
    package var units: [ImportUnit]
    /// Things the user should know about the paths (files ignored, ...).
    public var notes: [String]
    /// How the files' rows end and fields split, as planned: what the
    /// schedule reads their headers with.
    package var separators = Separators.relational

    /// Files known before reading (a feed archive counts as one).
    public var fileCount: Int { units.reduce(0) { $0 + $1.files.count + ($1.archive == nil ? 0 : 1) } }
    /// Compressed files and archives that have no `.md5` file beside them:
    /// their md5 is not checked (`ImportOptions.requireMD5` fails them).
    public var pathsWithoutMD5: [String] {
        units.flatMap(\.files).filter(\.lacksMD5).map(\.path) + units.compactMap(\.archive).filter { $0.expectedMD5 == nil }.map(\.path)
    }

    /// A note for each of `pathsWithoutMD5`, as an import tells it.
    package var uncheckedMD5Notes: [String] { pathsWithoutMD5.map { "\($0): no .md5 beside it; its md5 is not checked" } }
}

/// Which tables to import: `--include` / `--exclude` regular expressions,
/// matched against whole table names (before any prefix).
public struct TableFilter: Sendable {
    /// Tables to import (all when empty).
    package var include: [String]
    /// Tables to leave out.
    package var exclude: [String]

    /// Every table.
    public static let everyTable = TableFilter(checked: [], [])

    private init(checked include: [String], _ exclude: [String]) {
        self.include = include
        self.exclude = exclude
    }

    /// Tables whose name matches some `include` pattern (any table when
    /// there is none) and no `exclude` pattern. Throws when a pattern is
    /// not a regular expression.
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

    package func accepts(_ table: String) -> Bool {
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
    /// What is wrong with the paths or the filters, in plain words.
    public var detail: String
    /// `detail`.
    public var description: String { detail }
}

/// Turns the paths of `epf import` into an ordered plan.
public enum ImportPlanner {
    /// Plans `paths` in the order given. A path is a table file, a feed
    /// folder of table files (`itunes20261101/`), a feed archive
    /// (`itunes20261101.tbz`), or a download folder holding feeds at any
    /// depth, whose feeds are planned in date order (which of them to apply
    /// is decided against the journal by `ImportSchedule`).
    ///
    /// `separators` are how the files are read (EPF Flat, custom); with
    /// `extensions` (EPF Flat) file names may carry an extension, which is
    /// not part of the table's name (`application.txt` is `application`).
    public static func plan(
        paths: [String], filter: TableFilter = .everyTable, tablePrefix: String = "", separators: Separators = .relational,
        extensions: Bool = false
    ) throws(PlanError) -> ImportPlan {
        let naming = Naming(extensions: extensions)
        var units: [ImportUnit] = []
        var notes: [String] = []
        // The feeds of every download folder named, in one date order, placed
        // where the first download folder was named: `epf import dl/incremental
        // dl/current` must not apply a day before the FULL it follows.
        var treeUnits: [ImportUnit] = []
        var treePosition: Int?
        let files = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PlanError(detail: "\(path): no such file or folder")
            }
            let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            if isDirectory.boolValue, try FeedDiscovery.isDownloadTree(trimmed) {
                treePosition = treePosition ?? units.count
                let feeds = try FeedDiscovery.feeds(under: trimmed, notes: &notes)
                for feed in feeds {
                    var unit =
                        feed.isArchive
                        ? try fileUnit(feed.path, filter: filter, tablePrefix: tablePrefix, naming: naming, notes: &notes)
                        : try folderUnit(feed.path, filter: filter, tablePrefix: tablePrefix, naming: naming, notes: &notes)
                    unit?.fromDownloadTree = true
                    if let unit { treeUnits.append(unit) }
                }
                if feeds.isEmpty { notes.append("\(path): no feeds found") }
            } else if isDirectory.boolValue {
                if let unit = try folderUnit(trimmed, filter: filter, tablePrefix: tablePrefix, naming: naming, notes: &notes) {
                    units.append(unit)
                }
            } else if let unit = try fileUnit(trimmed, filter: filter, tablePrefix: tablePrefix, naming: naming, notes: &notes) {
                units.append(unit)
            }
        }
        if let treePosition {
            let ordered = treeUnits.enumerated().sorted { lhs, rhs in
                (lhs.element.feed!, lhs.offset) < (rhs.element.feed!, rhs.offset)
            }.map(\.element)
            units.insert(contentsOf: ordered, at: treePosition)
        }
        return ImportPlan(units: units, notes: notes, separators: separators)
    }

    /// How file names map to tables: EPF names have no extension; EPF Flat
    /// names may have one.
    package struct Naming {
        package var extensions = false

        package init(extensions: Bool = false) { self.extensions = extensions }

        package func of(_ name: String) -> (format: InputFormat, stem: String)? {
            InputFormat.of(fileName: name, extensions: extensions)
        }
    }

    /// A feed folder: its table files, compressed ones and one-table
    /// archives included, applied together.
    static func folderUnit(
        _ folder: String, filter: TableFilter, tablePrefix: String, naming: Naming = Naming(), notes: inout [String]
    ) throws(PlanError) -> ImportUnit? {
        let listing = try FeedDiscovery.list(folder)
        let planned = tableFiles(listing.tableFiles, in: folder, filter: filter, naming: naming, notes: &notes).map { file in
            plannedFile(FeedDiscovery.join(folder, file.name), table: tablePrefix + file.table, format: file.format)
        }
        for name in listing.feedArchives + listing.feedFolders + listing.otherFolders {
            notes.append("\(FeedDiscovery.join(folder, name)): inside a feed folder: ignored")
        }
        if planned.isEmpty {
            notes.append("\(folder): no table files to import")
        }
        return ImportUnit(path: folder, feed: FeedName(URL(fileURLWithPath: folder).lastPathComponent), files: planned)
    }

    /// The table files among the file names `names` of the feed folder
    /// `folder`, in the order given, with their format and table: partial
    /// downloads, `.md5` side files (read beside their archive) and names
    /// that are no table file are passed over (noted, but for the `.md5`),
    /// tables `filter` leaves out too, and a second file for one table is
    /// noted and ignored. The one rule for local feed folders and the EPF
    /// server's listings.
    package static func tableFiles(
        _ names: [String], in folder: String, filter: TableFilter, naming: Naming = Naming(), notes: inout [String]
    ) -> [(name: String, format: InputFormat, table: String)] {
        var chosen: [(name: String, format: InputFormat, table: String)] = []
        for name in names {
            let full = FeedDiscovery.join(folder, name)
            if InputFormat.isPartialDownload(name) {
                notes.append("\(full): a partial download: ignored")
                continue
            }
            if name.hasSuffix(".md5") { continue }  // read beside its archive
            guard let (format, stem) = naming.of(name) else {
                notes.append("\(full): not a table file or archive: ignored")
                continue
            }
            let table = tableName(stem)
            guard filter.accepts(table) else { continue }
            if let first = chosen.first(where: { $0.table == table }) {
                notes.append("\(full): a second file for table \(table) (\(FeedDiscovery.join(folder, first.name)) is read): ignored")
                continue
            }
            chosen.append((name, format, table))
        }
        return chosen
    }

    /// A file named on its own: a table file (its own unit), or a feed
    /// archive (the feed's unit).
    static func fileUnit(
        _ path: String, filter: TableFilter, tablePrefix: String, naming: Naming = Naming(), notes: inout [String]
    ) throws(PlanError) -> ImportUnit? {
        let url = URL(fileURLWithPath: path)
        guard let (format, stem) = naming.of(url.lastPathComponent) else {
            throw PlanError(
                detail:
                    "\(path): not a table file or archive (EPF table files have no extension; .gz, .bz2, .tbz, .tar.bz2, .tgz, .tar.gz and .zip are read)"
            )
        }
        if format.isArchive, let feed = FeedName(stem) {
            let md5 = expectedMD5(path, format: format)
            let (size, modified) = sizeAndModification(path)
            var unit = ImportUnit(
                path: path, feed: feed, files: [],
                archive: PlannedArchive(
                    path: path, format: format, size: size, modified: modified, expectedMD5: md5.md5, md5Problem: md5.problem))
            unit.filter = filter
            unit.tablePrefix = tablePrefix
            return unit
        }
        let table = tableName(stem)
        guard filter.accepts(table) else {
            notes.append("\(path): table \(table) left out by --include/--exclude")
            return nil
        }
        let feed = FeedName(url.deletingLastPathComponent().lastPathComponent)
        return ImportUnit(path: path, feed: feed, files: [plannedFile(path, table: tablePrefix + table, format: format)])
    }

    static func plannedFile(_ path: String, table: String, format: InputFormat) -> PlannedFile {
        let md5 = expectedMD5(path, format: format)
        let (size, modified) = sizeAndModification(path)
        return PlannedFile(
            path: path, table: table, size: size, modified: modified, format: format, expectedMD5: md5.md5, md5Problem: md5.problem)
    }

    /// The table a file holds: its name without extension, `-` made `_`;
    /// nil for names that are not table files or archives.
    package static func tableName(forFile name: String) -> String? {
        InputFormat.of(fileName: name).map { tableName($0.stem) }
    }

    static func tableName(_ stem: String) -> String {
        stem.replacingOccurrences(of: "-", with: "_")
    }

    /// The md5 a compressed file's side file gives (plain files have none),
    /// or why the side file could not be read.
    static func expectedMD5(_ path: String, format: InputFormat) -> (md5: String?, problem: String?) {
        guard format != .plain else { return (nil, nil) }
        do {
            return (try MD5SideFile.expectedDigest(forArchive: path), nil)
        } catch {
            return (nil, "\(error)")
        }
    }

    /// The size of the file at `path` (0 when it cannot be read: it then
    /// fails when opened, with the real error) and its modification time in
    /// nanoseconds since 1970.
    static func sizeAndModification(_ path: String) -> (size: Int64, modified: Int64?) {
        var status = stat()
        guard stat(path, &status) == 0 else { return (0, nil) }
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return (Int64(status.st_size), Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}
