import EPFImport

/// What `epf sync` imports after a download: the import plan of the
/// download folder (the plan `epf import DIR` makes) less the feeds that
/// did not download whole. A feed (feed and date) with a file that failed
/// is not imported at all, never half; nor are the days of that feed dated
/// after it, which would apply over a gap. With `--feed`, the other feeds
/// lying in the folder are left out too.
///
/// While the download goes on (`epf sync` imports each feed day as soon as
/// it is whole), the files not downloaded yet (`pending`) hold back their
/// day and the later days of their feed, without a note; a pending FULL
/// holds back its whole feed, whose older days in the folder it supersedes.
package enum IncompleteFeeds {
    package static func withhold(
        _ plan: ImportPlan, failed: [RemoteFile], pending: [RemoteFile] = [], feeds: Set<String>?
    ) -> (plan: ImportPlan, notes: [String]) {
        var missing: [FeedName: Int] = [:]
        for file in failed { missing[file.feed, default: 0] += 1 }
        var waiting: [String: String] = [:]  // feed -> the first date still downloading ("" for a FULL: all of it)
        for file in pending {
            let from = file.isFull ? "" : file.feed.date
            waiting[file.feed.feed] = min(waiting[file.feed.feed] ?? from, from)
        }
        var kept = plan
        var notes: [String] = []
        kept.units = plan.units.filter { unit in
            guard let name = unit.feed else { return true }
            if let feeds, !feeds.contains(name.feed) { return false }
            if let from = waiting[name.feed], name.date >= from { return false }
            if let count = missing[name] {
                notes.append("\(unit.path): not imported: \(count) of its file(s) did not download")
                return false
            }
            if let gap = missing.keys.filter({ $0.feed == name.feed && $0.date < name.date }).min() {
                notes.append("\(unit.path): not imported: it comes after \(gap.feed)\(gap.date), which did not download whole")
                return false
            }
            return true
        }
        return (kept, notes)
    }
}
