/// Per application, a digest of all its rows in a FULL file of prices:
/// the wrapping sum of the XXH64s of its rows' bytes after `export_date`,
/// so the order of the rows does not matter. Two FULL files whose digests
/// of an application are the same hold the same prices for it; the change
/// log compares only the applications whose digests differ
/// (`SQLChangeLog`), not the 175M rows of the file.
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
    package var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: digests.count * 16)
        bytes.withUnsafeMutableBytes { raw in
            for (index, digest) in digests.enumerated() {
                raw.storeBytes(of: digest.application.littleEndian, toByteOffset: index * 16, as: Int64.self)
                raw.storeBytes(of: digest.rows.littleEndian, toByteOffset: index * 16 + 8, as: UInt64.self)
            }
        }
        return bytes
    }

    /// The digests stored as `bytes`; nil when they are not (a length not
    /// a multiple of 16, applications out of order).
    package init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count % 16 == 0 else { return nil }
        var digests: [ApplicationDigest] = []
        digests.reserveCapacity(bytes.count / 16)
        for offset in stride(from: 0, to: bytes.count, by: 16) {
            let digest = ApplicationDigest(
                application: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)),
                rows: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            if let last = digests.last, last.application >= digest.application { return nil }
            digests.append(digest)
        }
        self.digests = digests
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
