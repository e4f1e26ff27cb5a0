/// Which feeds a download tree's newest FULL exports make obsolete: of each
/// feed, its newest FULL export and what is dated after it are wanted; what
/// is dated before it is superseded. The one rule for `epf import` of a
/// download folder (FULL known from a file's header) and for `epf fetch` of
/// the EPF server (FULL known from where the server lists it).
package enum FeedSupersession {
    /// For each item dated before the newest FULL export of its feed: its
    /// index in `items`, mapped to the index of that FULL. `isFull` is asked
    /// of a feed's items from the newest down, and of none older than the
    /// newest FULL (it may be costly: a file's header read).
    package static func superseded<Item>(
        _ items: [Item], feed: (Item) -> FeedName, isFull: (Item) -> Bool
    ) -> [Int: Int] {
        var result: [Int: Int] = [:]
        let byFeed = Dictionary(grouping: items.indices, by: { feed(items[$0]).feed })
        for feedName in byFeed.keys.sorted() {
            let ofFeed = byFeed[feedName]!.sorted { (feed(items[$0]), $0) < (feed(items[$1]), $1) }
            guard let newestFull = ofFeed.last(where: { isFull(items[$0]) }) else { continue }
            for index in ofFeed where feed(items[index]).date < feed(items[newestFull]).date {
                result[index] = newestFull
            }
        }
        return result
    }
}
