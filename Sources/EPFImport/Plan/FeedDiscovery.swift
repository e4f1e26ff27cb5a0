import EPFInput
import Foundation

/// Finds the feeds in a download folder: feed folders (`itunes20261101/`)
/// and feed archives (`itunes20261101.tbz`), at any depth (Apple's layout
/// puts them under `current/` and `incremental/`, mirrors add more levels).
package enum FeedDiscovery {
    /// How deep a download tree is searched.
    static let maximumDepth = 8

    /// What a folder holds, by name: feed folders and feed archives, other
    /// folders, table files.
    struct Listing {
        var feedFolders: [String] = []
        var feedArchives: [String] = []
        var otherFolders: [String] = []
        var tableFiles: [String] = []
        var hasFeeds: Bool { !feedFolders.isEmpty || !feedArchives.isEmpty }
    }

    static func list(_ folder: String) throws(PlanError) -> Listing {
        let files = FileManager.default
        let names: [String]
        do {
            names = try files.contentsOfDirectory(atPath: folder).sorted()
        } catch {
            throw PlanError(detail: "\(folder): cannot list the folder: \(error.localizedDescription)")
        }
        var listing = Listing()
        for name in names where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            _ = files.fileExists(atPath: join(folder, name), isDirectory: &isDirectory)
            switch kind(of: name, isFolder: isDirectory.boolValue) {
            case .feedFolder(_): listing.feedFolders.append(name)
            case .feedArchive(_): listing.feedArchives.append(name)
            case .otherFolder: listing.otherFolders.append(name)
            case .otherFile: listing.tableFiles.append(name)
            }
        }
        return listing
    }

    /// What a name in a download tree is: a feed folder (`itunes20261101/`),
    /// a feed archive (`itunes20261101.tbz`), another folder, or another
    /// file (a table file, an `.md5`, a stray file). The one rule for local
    /// folders and the EPF server's listings.
    package enum Kind: Equatable {
        case feedFolder(FeedName)
        case feedArchive(FeedName)
        case otherFolder
        case otherFile
    }

    package static func kind(of name: String, isFolder: Bool) -> Kind {
        if isFolder { return FeedName(name).map(Kind.feedFolder) ?? .otherFolder }
        if let (format, stem) = InputFormat.of(fileName: name), format.isArchive, let feed = FeedName(stem) {
            return .feedArchive(feed)
        }
        return .otherFile
    }

    /// Whether `folder` is a download tree rather than one feed's folder: it
    /// is not named like a feed and holds feeds, at any depth. (Stray files
    /// beside them, `LICENSE` or a job's `last_run`, are noted, not read.)
    static func isDownloadTree(_ folder: String) throws(PlanError) -> Bool {
        if FeedName(URL(fileURLWithPath: folder).lastPathComponent) != nil { return false }
        let listing = try list(folder)
        if listing.hasFeeds { return true }
        for name in listing.otherFolders where try holdsFeeds(join(folder, name), depth: 1) { return true }
        return false
    }

    private static func holdsFeeds(_ folder: String, depth: Int) throws(PlanError) -> Bool {
        guard depth < maximumDepth else { return false }
        let listing = try list(folder)
        if listing.hasFeeds { return true }
        for name in listing.otherFolders where try holdsFeeds(join(folder, name), depth: depth + 1) { return true }
        return false
    }

    /// Every feed under `root`, in date order (feeds of one date in name
    /// order). Where a feed is there both extracted and as an archive, the
    /// folder is read and the archive noted.
    static func feeds(under root: String, notes: inout [String]) throws(PlanError) -> [(path: String, name: FeedName, isArchive: Bool)] {
        var found: [(path: String, name: FeedName, isArchive: Bool)] = []
        try walk(root, depth: 0, into: &found, notes: &notes)
        return unique(found, notes: &notes)
    }

    /// `found` with each feed (name and date) once, in date order (feeds
    /// of one date in name order): where a feed is there both as a folder
    /// and as an archive, the folder is kept and the archive noted.
    package static func unique(
        _ found: [(path: String, name: FeedName, isArchive: Bool)], notes: inout [String]
    ) -> [(path: String, name: FeedName, isArchive: Bool)] {
        var seen: [String: String] = [:]  // "feed date" -> path read
        var unique: [(path: String, name: FeedName, isArchive: Bool)] = []
        // Folders first, so an extracted feed wins over its archive.
        for feed in found.sorted(by: { !$0.isArchive && $1.isArchive }) {
            let key = "\(feed.name.feed) \(feed.name.date)"
            if let kept = seen[key] {
                notes.append("\(feed.path): the same feed as \(kept): ignored")
                continue
            }
            seen[key] = feed.path
            unique.append(feed)
        }
        return unique.sorted { ($0.name, $0.path) < ($1.name, $1.path) }
    }

    private static func walk(
        _ folder: String, depth: Int, into found: inout [(path: String, name: FeedName, isArchive: Bool)], notes: inout [String]
    ) throws(PlanError) {
        let listing = try list(folder)
        for name in listing.feedFolders {
            found.append((join(folder, name), FeedName(name)!, false))
        }
        for name in listing.feedArchives {
            let stem = InputFormat.of(fileName: name)!.stem
            found.append((join(folder, name), FeedName(stem)!, true))
        }
        for name in listing.tableFiles where !name.hasSuffix(".md5") {
            if InputFormat.isPartialDownload(name) {
                notes.append("\(join(folder, name)): a partial download: ignored")
            } else if InputFormat.of(fileName: name) != nil {
                notes.append("\(join(folder, name)): a table file outside a feed folder: ignored (name it on its own to import it)")
            }
        }
        guard depth + 1 < maximumDepth else { return }
        for name in listing.otherFolders {
            try walk(join(folder, name), depth: depth + 1, into: &found, notes: &notes)
        }
    }

    package static func join(_ folder: String, _ name: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }
}
