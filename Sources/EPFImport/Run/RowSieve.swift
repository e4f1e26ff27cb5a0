import EPFCatalogStore
import EPFFormat
import EPFInput
import Synchronization

/// Leaves out, as an INCREMENTAL file is read, the rows that the table's
/// previous INCREMENTAL file held byte for byte but for `export_date`:
/// Apple's days are cumulative, so day 6 repeats most of day 5, and those
/// rows are the catalog's already (docs/changes.md, "Rows the previous day
/// already held"). It also takes the digests of every row of this file,
/// which the apply keeps for the next day.
///
/// The parsing workers hash the rows (`digest`); the loader thread, in
/// file order, decides (`sift`). A row is left out when its digest is in
/// the previous file's set and no row of its key was loaded earlier in
/// this file: a known row after a changed row of the same key must still
/// win, as the last row of a key does.
///
/// A table whose rows mostly change every day (a chart's ranks) gains
/// nothing and would pay a lookup per row: when fewer than a tenth of the
/// first `trialRows` rows are known, the sieve stops matching for the rest
/// of the file (`matching`), and the table is kept as `churning`: its
/// files are not sieved again until its next FULL.
///
/// Invariant: `digest` may run on any worker at once (it reads immutable
/// state and the atomic `matching`); `sift` and `finish` run on the loader
/// thread alone.
final class RowSieve: @unchecked Sendable {
    /// The previous file's digests; nil when there are none to match (the
    /// day after a FULL): then rows are only hashed, for the next day.
    let previous: RowDigestSet?
    /// The file's layout, hashed (`layout(of:storefronts:separators:)`).
    let layout: Int64
    private let keyColumns: [Int]
    private let lastColumn: Int
    /// The keys of the rows loaded so far (only when `previous` is set).
    private var loadedKeys = KeyHashSet()
    /// Every row's digest, in file order.
    private var digests: [RowDigest] = []
    /// Whether rows are still matched against `previous`.
    private let matching = Atomic<Bool>(true)
    /// Whether the loader thread leaves known rows out (`endChunk`).
    private var dropping: Bool
    private var decided = false
    /// Rows sifted while matching, and how many of them were known.
    private var siftedRows = 0
    private var knownRows = 0
    /// Rows after which a sieve that knows less than a tenth of them stops
    /// matching.
    static let trialRows = 65_536

    static let keySeed: UInt64 = 0x6570_665f_6b65_7931
    static let rowSeed: UInt64 = 0x6570_665f_726f_7731

    /// A sieve for a file of `header`, or nil when the file's rows cannot
    /// be known by digest: not INCREMENTAL, no key, or a first column other
    /// than `export_date` (the bytes after it are what is compared).
    init?(header: EPFHeader, layout: Int64, previous: RowDigestSet?) {
        guard let keyColumns = Self.keyColumns(of: header) else { return nil }
        self.keyColumns = keyColumns
        self.previous = previous
        self.layout = layout
        dropping = previous != nil
        lastColumn = header.columns.count - 1
    }

    /// The key's columns of a file whose rows can be known by digest, or
    /// nil (see `init`).
    static func keyColumns(of header: EPFHeader) -> [Int]? {
        guard header.exportMode == .incremental, header.columns.first == CatalogTables.exportDateColumn,
            header.columns.count > 1
        else { return nil }
        let keyColumns = header.primaryKey.compactMap { header.columns.firstIndex(of: $0) }
        guard !keyColumns.isEmpty, keyColumns.count == header.primaryKey.count, !keyColumns.contains(0) else { return nil }
        return keyColumns
    }

    /// The hash of what makes the same bytes the same row: the columns,
    /// their types, the key, the storefronts kept and the separators.
    static func layout(of header: EPFHeader, storefronts: StorefrontFilter?, separators: Separators) -> Int64 {
        var parts = header.columns + ["|"] + header.types.map(\.declared) + ["|"] + header.primaryKey
        parts += ["|", storefronts.map { $0.ids.map(String.init).joined(separator: ",") } ?? "*"]
        parts += ["|", separators.recordBytes, String(separators.field)]
        let text = Array(parts.joined(separator: "\u{1}").utf8)
        return Int64(bitPattern: text.withUnsafeBytes { XXH64.hash($0, seed: keySeed) })
    }

    /// Whether the rows of the next chunk are to be matched: a parsing
    /// worker asks once per chunk, before `digest`.
    var isMatching: Bool { previous != nil && matching.load(ordering: .relaxed) }

    /// The digests of `batch`'s records (spans into `base`), appended to
    /// `digests`; when `matching`, whether each is in the previous set,
    /// appended to `known`.
    func digest(
        _ batch: RecordBatch, base: UnsafePointer<UInt8>, matching: Bool, into digests: inout [RowDigest], known: inout [Bool]
    ) {
        // Once, not per row: the set's storage is not retained per row.
        let previous = matching ? previous : nil
        for record in 0..<batch.count {
            var key = Self.keySeed
            for column in keyColumns {
                let span = batch.field(record, column)
                key = XXH64.hash(UnsafeRawBufferPointer(start: base + span.start, count: span.count), seed: key)
            }
            let first = batch.field(record, 1).start
            let end = batch.field(record, lastColumn).end
            let row = XXH64.hash(UnsafeRawBufferPointer(start: base + first, count: end - first), seed: Self.rowSeed)
            let digest = RowDigest(key: key, row: row)
            digests.append(digest)
            if let previous { known.append(previous.contains(digest)) }
        }
    }

    /// Leaves the known records out of `batch`, in file order; `digests`
    /// and `known` are what `digest` made of it (`known` is empty for a
    /// chunk that was not matched, which only comes after `endChunk` has
    /// stopped the matching).
    func sift(_ batch: RecordBatch, digests batchDigests: ArraySlice<RowDigest>, known: ArraySlice<Bool>) {
        digests += batchDigests
        guard dropping, !known.isEmpty else { return }
        let first = batchDigests.startIndex
        let firstKnown = known.startIndex
        let before = batch.count
        batch.keepRecords { record in
            let key = batchDigests[first + record].key
            if known[firstKnown + record], !loadedKeys.contains(key) { return false }
            loadedKeys.insert(key)
            return true
        }
        siftedRows += before
        knownRows += before - batch.count
    }

    /// After the batches of a chunk: once `trialRows` rows are sifted,
    /// decides for the rest of the file whether to go on matching. The
    /// decision falls on a chunk boundary, after the same rows in every
    /// run, so the counts are the same in every run; the workers learn it
    /// through `matching` and may have matched a few chunks for nothing.
    func endChunk() {
        guard dropping, !decided, siftedRows >= Self.trialRows else { return }
        decided = true
        if knownRows * 10 < siftedRows {
            dropping = false
            loadedKeys = KeyHashSet()
            matching.store(false, ordering: .relaxed)
        }
    }

    /// What to keep for the next day: the digests of every row of the
    /// file, `churning` when matching stopped, nil when a key repeats (only
    /// its last row is in the catalog) or the file has no rows.
    func finish() -> KeptRowDigests? {
        defer {
            digests = []
            loadedKeys = KeyHashSet()
        }
        if decided && !dropping { return .churning }
        // No rows, nothing to match (and no digests is how `churning` is
        // stored).
        if digests.isEmpty { return nil }
        return RowDigestSet(unsorted: digests).map(KeptRowDigests.rows)
    }
}

/// A set of key hashes (XXH64 outputs, whose bits are already spread, so
/// they index the table as they are): open addressing, linear probing.
/// Cheaper than `Set<UInt64>`, which hashes each value again.
struct KeyHashSet {
    private var slots = [UInt64](repeating: 0, count: 1 << 12)
    private var count = 0
    /// 0 marks a free slot; the hash 0 itself is kept apart.
    private var hasZero = false

    func contains(_ value: UInt64) -> Bool {
        if value == 0 { return hasZero }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: value) & mask
            while true {
                let slot = slots[index]
                if slot == value { return true }
                if slot == 0 { return false }
                index = (index + 1) & mask
            }
        }
    }

    mutating func insert(_ value: UInt64) {
        if value == 0 {
            hasZero = true
            return
        }
        // At most half full, so probes stay short.
        if (count + 1) * 2 > slots.count { grow() }
        if place(value) { count += 1 }
    }

    /// Puts `value` in its slot; false when it was there.
    private mutating func place(_ value: UInt64) -> Bool {
        slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: value) & mask
            while true {
                let slot = slots[index]
                if slot == value { return false }
                if slot == 0 {
                    slots[index] = value
                    return true
                }
                index = (index + 1) & mask
            }
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for value in old where value != 0 { _ = place(value) }
    }
}
