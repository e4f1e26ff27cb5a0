/// The storefronts an import keeps (`epf import --storefront US,JP`): the
/// one rule that every store goes through, applied to a batch right after
/// its records are split and before any value is decoded.
///
/// A table whose header has a `storefront_id` column keeps only the rows of
/// these storefronts; a table without one is kept whole, and so is the
/// storefront list itself (keyed by `storefront_id` alone: `storefront`),
/// which names every storefront for the query side. A row is judged by
/// the bytes of that one field, read as an integer in place: a row left out
/// costs its split, nothing more. A field that is not an integer (empty,
/// damaged) matches no storefront, so its row is left out too.
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

extension RecordBatch {
    /// Leaves out the records whose field `column` (in `chunk`) names no
    /// storefront of `filter`: the kept records move up, in order, and each
    /// remembers its place before (`ordinal(_:)`, for record numbers in
    /// messages). `dropped` counts the records left out.
    package func leaveOut(unless filter: StorefrontFilter, column: Int, in chunk: UnsafeRawBufferPointer) {
        guard count > 0, let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var kept = 0
        for record in 0..<count {
            let span = spans[record &* columnCount &+ column]
            guard filter.keeps(base + span.start, span.count) else { continue }
            if kept != record {
                (spans + kept &* columnCount).update(from: spans + record &* columnCount, count: columnCount)
                offsets[kept] = offsets[record]
                flagStorage[kept] = flagStorage[record]
            }
            ordinals[kept] = record
            kept += 1
        }
        dropped = count - kept
        count = kept
    }
}
