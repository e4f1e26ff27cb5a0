#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The storefronts an import keeps (`epf import --storefront US,JP`): the
/// one rule that every store goes through, applied by the parser
/// (`RecordParser`, `StorefrontProbe`) before a record is split into its
/// batch, so no store decodes, binds or sends it.
///
/// A table whose header has a `storefront_id` column keeps only the rows of
/// these storefronts; a table without one is kept whole, and so is the
/// storefront list itself (keyed by `storefront_id` alone: `storefront`),
/// which names every storefront for the query side. A row is judged by
/// the bytes of that one field, read as an integer in place: a row left out
/// costs finding its end and that field, nothing more. A field that is not
/// an integer (empty, damaged) matches no storefront, so its row is left
/// out too.
public struct StorefrontFilter: Sendable, Equatable {
    /// The storefront IDs kept, ascending, without repeats.
    public let ids: [Int64]

    /// A filter keeping `ids` (at least one).
    public init(ids: some Sequence<Int64>) {
        self.ids = Array(Set(ids)).sorted()
        precondition(!self.ids.isEmpty, "a storefront filter keeps at least one storefront")
    }

    /// The column the filter reads in a table of `header`; nil when the
    /// table is loaded whole: it has no `storefront_id` column, or it is the
    /// list of storefronts (its key is `storefront_id` alone).
    public static func column(in header: EPFHeader) -> Int? {
        column(columns: header.columns, primaryKey: header.primaryKey)
    }

    /// As `column(in:)`, for a table of `columns` keyed by `primaryKey`.
    public static func column(columns: [String], primaryKey: [String]) -> Int? {
        guard primaryKey != ["storefront_id"] else { return nil }
        return columns.firstIndex(of: "storefront_id")
    }

    /// Whether the field `p[0..<count]` names a kept storefront.
    package func keeps(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard let id = ValueDecoding.integer(p, count) else { return false }
        // A handful of IDs: a scan beats hashing.
        for kept in ids where kept == id { return true }
        return false
    }
}

/// Where a record's storefront field is, found without splitting the
/// record: `RecordParser` looks at that one field first and leaves a record
/// of another storefront out before splitting, checking or storing it.
///
/// The field is found from the nearer end of the record (the last of
/// `application_price`'s columns, the second of the popularity tables'),
/// by counting separators. A record with too few separators is kept, so
/// that the split reports it as damaged; one of another storefront is not
/// checked further (its damage, if any, is not reported: it is not loaded).
struct StorefrontProbe {
    let filter: StorefrontFilter
    /// Separators before the field (from the start) or after it (from the
    /// end).
    let separators: Int
    let fromEnd: Bool
    /// The field separator of the file.
    let field: UInt8

    /// The probe of `filter` for a table of `header`; nil when the table is
    /// loaded whole (`StorefrontFilter.column(in:)`).
    init?(_ filter: StorefrontFilter?, header: EPFHeader, field: UInt8) {
        guard let filter, let column = StorefrontFilter.column(in: header) else { return nil }
        let after = header.columns.count - 1 - column
        self.filter = filter
        self.field = field
        fromEnd = after < column
        separators = fromEnd ? after : column
    }

    /// Whether the record `base[start..<end]` is kept.
    @inline(__always)
    func keeps(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> Bool {
        var fieldStart = start
        var fieldEnd = end
        if fromEnd {
            // The field is not the first (it is nearer the end), so a
            // separator starts it; none found: too few fields, kept.
            var seen = 0
            var index = end
            var found = false
            while index > start {
                index -= 1
                guard base[index] == field else { continue }
                if seen == separators {
                    fieldStart = index + 1
                    found = true
                    break
                }
                seen += 1
                fieldEnd = index
            }
            if !found { return true }
        } else {
            for _ in 0..<separators {
                guard let hit = memchr(base + fieldStart, Int32(field), end - fieldStart) else { return true }
                fieldStart = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            }
            if let hit = memchr(base + fieldStart, Int32(field), end - fieldStart) {
                fieldEnd = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
        }
        return filter.keeps(base + fieldStart, fieldEnd - fieldStart)
    }
}
