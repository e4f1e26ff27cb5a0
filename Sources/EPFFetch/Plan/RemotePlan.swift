import EPFImport
import EPFInput
import Foundation

/// One file to download from the EPF server.
package struct RemoteFile: Sendable, Equatable {
    /// The path below the base URL, which is also the path below the
    /// download folder (`itunes20261101/application.tbz`,
    /// `incremental/current/itunes20261102/application.tbz`).
    package var path: String
    /// The size the listing shows, when it shows one.
    package var size: Int64?
    /// The path of its `.md5` side file, when the listing has one.
    package var md5Path: String?
    /// The feed and date of the feed folder or archive it belongs to.
    package var feed: FeedName
    /// FULL (listed at the base) or INCREMENTAL (listed under `incremental/`).
    package var isFull: Bool
    /// The table it holds; nil for a whole-feed archive (`itunes20261101.tbz`).
    package var table: String?

    /// Where it goes under `folder`: the same path as on the server.
    package func localPath(in folder: String) -> String {
        FeedDiscovery.join(folder, path)
    }
}

/// What `epf fetch` downloads, in date order.
package struct RemotePlan: Sendable, Equatable {
    package var files: [RemoteFile]
    /// What the user should know (feeds superseded, files ignored, ...).
    package var notes: [String]

    /// The sum of the listed sizes (files the listing gives no size for count 0).
    package var listedBytes: Int64 { files.reduce(0) { $0 + ($1.size ?? 0) } }
}

/// Reads a folder's listing on the server: `path` is below the base URL,
/// "" for the base itself, and ends with `/` otherwise.
package protocol ListingReader {
    func list(_ path: String) throws(FetchError) -> [ListingEntry]
}

/// Plans a download from the EPF server's listings with the rules of `epf
/// import` (`FeedDiscovery`, `FeedSupersession`, `ImportPlanner.tableFiles`):
/// of each feed, the newest FULL export listed at the base and the
/// INCREMENTAL days listed under `incremental/` (and `incremental/current/`)
/// dated after it; of a feed folder, its table files (with their `.md5`)
/// that `--include`/`--exclude` keep; a whole-feed archive as it is.
package enum RemotePlanner {
    /// The folders below the base where INCREMENTAL feeds are listed.
    static let incrementalFolder = "incremental"
    static let currentFolder = "current"

    package static func plan(_ reader: some ListingReader, feeds: Set<String>?, filter: TableFilter) throws(FetchError) -> RemotePlan {
        var notes: [String] = []
        let listed = try listFeeds(reader, feeds: feeds, notes: &notes)

        // A feed listed twice for one date: the folder wins, as in a download folder.
        let unique = FeedDiscovery.unique(listed.candidates, notes: &notes)
        let superseded = FeedSupersession.superseded(unique, feed: \.name, isFull: { listed.full.contains($0.path) })
        for (index, newest) in superseded.sorted(by: { $0.key < $1.key }) {
            notes.append(
                "\(unique[index].path): superseded by the FULL export of \(unique[newest].name.isoDate) (\(unique[newest].path)): not fetched"
            )
        }
        for feed in Set(unique.map(\.name.feed)).sorted()
        where !unique.contains(where: { $0.name.feed == feed && listed.full.contains($0.path) }) {
            notes.append("no FULL export of \(feed) is listed: its INCREMENTAL days are fetched, but import needs a FULL first")
        }

        var files: [RemoteFile] = []
        for (index, feed) in unique.enumerated() where superseded[index] == nil {
            let isFull = listed.full.contains(feed.path)
            if feed.isArchive {
                files.append(archiveFile(feed, isFull: isFull, listings: listed.listings, filter: filter, notes: &notes))
            } else {
                files += try folderFiles(feed, isFull: isFull, reader: reader, filter: filter, notes: &notes)
            }
        }
        return RemotePlan(files: files, notes: notes)
    }

    /// A feed folder or whole-feed archive the server lists.
    typealias Candidate = (path: String, name: FeedName, isArchive: Bool)

    /// The feeds the server lists (of `feeds`, when given): the base's
    /// FULL exports, and the INCREMENTAL days under `incremental/` and
    /// `incremental/current/`.
    struct ListedFeeds {
        var candidates: [Candidate] = []
        /// The paths of the FULL candidates.
        var full: Set<String> = []
        /// Each folder's listing, by path.
        var listings: [String: [ListingEntry]] = [:]
    }

    /// Reads the listings of the base and of the INCREMENTAL folders;
    /// notes a missing `incremental/` and a feed of `feeds` listed nowhere.
    static func listFeeds(_ reader: some ListingReader, feeds: Set<String>?, notes: inout [String]) throws(FetchError) -> ListedFeeds {
        var listed = ListedFeeds()
        func collect(_ folder: String, isFull: Bool) throws(FetchError) -> [ListingEntry] {
            let entries = try reader.list(folder)
            listed.listings[folder] = entries
            for entry in entries {
                let path = folder + entry.name
                switch FeedDiscovery.kind(of: entry.name, isFolder: entry.isFolder) {
                case .feedFolder(let name), .feedArchive(let name):
                    if let feeds, !feeds.contains(name.feed) { continue }
                    listed.candidates.append((entry.isFolder ? path + "/" : path, name, !entry.isFolder))
                    if isFull { listed.full.insert(entry.isFolder ? path + "/" : path) }
                case .otherFolder, .otherFile:
                    continue
                }
            }
            return entries
        }

        let base = try collect("", isFull: true)
        if base.contains(where: { $0.isFolder && $0.name == incrementalFolder }) {
            let incremental = try collect(incrementalFolder + "/", isFull: false)
            if incremental.contains(where: { $0.isFolder && $0.name == currentFolder }) {
                _ = try collect(incrementalFolder + "/" + currentFolder + "/", isFull: false)
            }
        } else {
            notes.append("the server lists no \(incrementalFolder)/ folder: FULL exports only")
        }
        if let feeds {
            for feed in feeds.sorted() where !listed.candidates.contains(where: { $0.name.feed == feed }) {
                notes.append("no \(feed) feed is listed")
            }
        }
        return listed
    }

    /// A whole-feed archive, fetched as it is (with its `.md5` when listed).
    static func archiveFile(
        _ feed: Candidate, isFull: Bool, listings: [String: [ListingEntry]], filter: TableFilter, notes: inout [String]
    ) -> RemoteFile {
        let folder = parent(feed.path)
        let name = String(feed.path.dropFirst(folder.count))
        let entries = listings[folder] ?? []
        let entry = entries.first { $0.name == name }
        let md5 = entries.contains { !$0.isFolder && $0.name == name + ".md5" } ? feed.path + ".md5" : nil
        if !filter.include.isEmpty || !filter.exclude.isEmpty {
            notes.append("\(feed.path): a whole-feed archive: fetched whole (--include/--exclude apply when it is imported)")
        }
        return RemoteFile(path: feed.path, size: entry?.size, md5Path: md5, feed: feed.name, isFull: isFull, table: nil)
    }

    /// The table files of a feed folder that `filter` keeps (with their
    /// `.md5`s), from the folder's listing.
    static func folderFiles(
        _ feed: Candidate, isFull: Bool, reader: some ListingReader, filter: TableFilter, notes: inout [String]
    ) throws(FetchError) -> [RemoteFile] {
        let entries = try reader.list(feed.path)
        let names = entries.filter { !$0.isFolder }.map(\.name)
        for entry in entries where entry.isFolder {
            notes.append("\(feed.path)\(entry.name)/: inside a feed folder: ignored")
        }
        let folder = String(feed.path.dropLast())
        let chosen = ImportPlanner.tableFiles(names, in: folder, filter: filter, notes: &notes)
        if chosen.isEmpty { notes.append("\(feed.path): no table files to fetch") }
        return chosen.map { table in
            let entry = entries.first { $0.name == table.name }
            let md5 = names.contains(table.name + ".md5") ? feed.path + table.name + ".md5" : nil
            return RemoteFile(
                path: feed.path + table.name, size: entry?.size, md5Path: md5, feed: feed.name, isFull: isFull, table: table.table)
        }
    }

    /// The folder part of a path (`incremental/current/` of
    /// `incremental/current/itunes20261102.tbz`), "" at the base.
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}
