/// The tables the change log is written from, and the values of a row it
/// compares (besides the key): the one list `SQLChangeLog` reads and
/// `ApplicationDigester` (EPFImport) hashes.
package enum ChangeLogColumns {
    /// By table: the columns whose values the log records.
    package static let compared = [
        "application_price": ["storefront_id", "retail_price"],
        "application": ["title", "version", "itunes_release_date"],
    ]
}

/// Per application, a digest of all its rows in a FULL file of prices or
/// applications: the wrapping sum of the XXH64s of the values the change
/// log compares in each row (a price's storefront and price; an
/// application's title, version and release date), so the order of the
/// rows does not matter. Two FULL files whose digests of an application
/// are the same hold the same of those values for it; the change log
/// compares only the applications whose digests differ (`SQLChangeLog`),
/// not the 175M rows of the file.
package struct ApplicationDigest: Sendable, Equatable {
    package var application: Int64
    package var rows: UInt64

    package init(application: Int64, rows: UInt64) {
        self.application = application
        self.rows = rows
    }
}

/// The digests of every application of a FULL file, sorted by
/// application; stored as 16 bytes each (`epf_application_digest`).
package struct ApplicationDigests: Sendable, Equatable {
    package let digests: [ApplicationDigest]

    /// `digests` in application order, one each.
    package init(sorted digests: [ApplicationDigest]) {
        self.digests = digests
    }

    /// The stored form: application and digest, little-endian, in order.
    package var bytes: [UInt8] { StoredPairs.bytes(digests.map { (UInt64(bitPattern: $0.application), $0.rows) }) }

    /// The digests stored as `bytes`; nil when they are not (a length not
    /// a multiple of 16, applications out of order).
    package init?(bytes: UnsafeRawBufferPointer) {
        guard let pairs = StoredPairs.pairs(bytes, ascending: { Int64(bitPattern: $0) < Int64(bitPattern: $1) }) else { return nil }
        digests = pairs.map { ApplicationDigest(application: Int64(bitPattern: $0.0), rows: $0.1) }
    }

    /// The applications whose rows differ between `self` and `other`:
    /// another digest, or in one of them only. Ascending.
    package func applicationsDiffering(from other: ApplicationDigests) -> [Int64] {
        var differing: [Int64] = []
        var left = 0
        var right = 0
        let mine = digests
        let theirs = other.digests
        while left < mine.count || right < theirs.count {
            if right == theirs.count || (left < mine.count && mine[left].application < theirs[right].application) {
                differing.append(mine[left].application)
                left += 1
            } else if left == mine.count || theirs[right].application < mine[left].application {
                differing.append(theirs[right].application)
                right += 1
            } else {
                if mine[left].rows != theirs[right].rows { differing.append(mine[left].application) }
                left += 1
                right += 1
            }
        }
        return differing
    }
}
