import EPFImport

/// What `epf sync` imports after a download: the import plan of the
/// download folder (the plan `epf import DIR` makes) less the feeds that
/// did not download whole. A feed (feed and date) with a file that failed
/// is not imported at all, never half; nor are the days of that feed dated
/// after it, which would apply over a gap. With `--feed`, the other feeds
/// lying in the folder are left out too.
package enum IncompleteFeeds {
    package static func withhold(_ plan: ImportPlan, failed: [RemoteFile], feeds: Set<String>?) -> (plan: ImportPlan, notes: [String]) {
        var missing: [FeedName: Int] = [:]
        for file in failed { missing[file.feed, default: 0] += 1 }
        var kept = plan
        var notes: [String] = []
        kept.units = plan.units.filter { unit in
            guard let name = unit.feed else { return true }
            if let feeds, !feeds.contains(name.feed) { return false }
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
