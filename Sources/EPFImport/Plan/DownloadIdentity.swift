import EPFCatalogStore
import EPFInput

/// A download as the journal knows it: the file as it sits in the download
/// folder (a table file, a compressed file, or the archive that held it),
/// known by its content.
///
/// The rule: a download matches a journal row when it has the same size and
/// - the `.md5` beside it gives the md5 the row recorded; or else
/// - it has the same modification time as when it was applied (the cheap
///   check: nothing rewrote it since); or else
/// - its fingerprint (XXH64), computed now, is the one the import computed
///   in the same pass that read it.
///
/// So a file downloaded again in place with the same size but new content
/// is imported again, and one only touched is not (and the journal then
/// takes its new modification time, so the next run knows it by the cheap
/// check again). Rows of journals written by versions that recorded no
/// fingerprint are matched as those versions did: size and side-file md5.
struct DownloadIdentity {
    var path: String
    var size: Int64
    var modified: Int64?
    /// What the download's `.md5` side file says, if it has one.
    var sideMD5: String?

    init(_ file: PlannedFile) {
        (path, size, modified, sideMD5) = (file.path, file.size, file.modified, file.expectedMD5)
    }

    init(_ archive: PlannedArchive) {
        (path, size, modified, sideMD5) = (archive.path, archive.size, archive.modified, archive.expectedMD5)
    }

    /// Whether `entry` recorded this download. `fingerprints` computes the
    /// file's fingerprint only when the cheaper checks cannot decide, and
    /// keeps the entries found unchanged under a new modification time.
    func matches(_ entry: AppliedFile, fingerprints: FingerprintCache) -> Bool {
        guard entry.originSize == size else { return false }
        if let sideMD5, let recordedMD5 = entry.originMD5 { return sideMD5 == recordedMD5 }
        // An older journal's row: size and side-file md5, as it knew them.
        guard let recorded = entry.originHash else { return sideMD5 == entry.originMD5 }
        if let modified, entry.originModified == modified { return true }
        guard fingerprints.fingerprint(path) == recorded else { return false }
        if let id = entry.id, let modified { fingerprints.unchanged[id] = modified }
        return true
    }
}

/// Fingerprints of downloads computed while scheduling, each at most once,
/// and the journal rows whose download they found unchanged under a new
/// modification time.
final class FingerprintCache {
    private var known: [String: String?] = [:]
    /// Journal row id -> the download's modification time now.
    var unchanged: [Int64: Int64] = [:]

    /// The fingerprint of the file at `path`; nil when it cannot be read
    /// (the file then fails when it is imported, with the real error).
    func fingerprint(_ path: String) -> String? {
        if let fingerprint = known[path] { return fingerprint }
        let fingerprint = try? XXH64.fingerprint(ofFile: path)
        known[path] = fingerprint
        return fingerprint
    }
}
