import EPFCatalogStore
import EPFFormat
import EPFInput

/// Takes, as a FULL file of prices or applications loads, the digest of
/// each application's rows (`ApplicationDigests`), so that the change log
/// compares only the applications whose rows differ from the FULL before.
///
/// The parsing workers sum the hashes of each run of rows of one
/// application (`digest`: the rows of an application follow each other in
/// Apple's files, so a batch has few runs); the loader thread adds the
/// runs up (`add`), in any order: a sum does not care.
///
/// Invariant: `digest` reads only immutable state, on any worker; `add`
/// and `finish` run on the loader thread alone.
final class ApplicationDigester: @unchecked Sendable {
    private let applicationColumn: Int
    private let lastColumn: Int
    private var sums: [Int64: UInt64] = [:]

    /// A digester for a FULL file of `header` into `table`, or nil when the
    /// change log does not compare it: not a FULL file of
    /// `application_price` or `application`, or its first column is not
    /// `export_date`.
    init?(table: String, header: EPFHeader) {
        guard ["application_price", "application"].contains(table), header.exportMode == .full,
            header.columns.first == CatalogTables.exportDateColumn, header.columns.count > 1,
            let column = header.columns.firstIndex(of: "application_id")
        else { return nil }
        applicationColumn = column
        lastColumn = header.columns.count - 1
    }

    /// The runs of `batch`: each application's rows in a row, with the sum
    /// of their hashes, appended to `runs`. A row whose application is not
    /// an integer is left out (it cannot be one of the catalog's).
    func digest(_ batch: RecordBatch, base: UnsafePointer<UInt8>, into runs: inout [ApplicationDigest]) {
        var current: ApplicationDigest?
        for record in 0..<batch.count {
            let field = batch.field(record, applicationColumn)
            guard let application = ValueDecoding.integer(base + field.start, field.count) else { continue }
            let first = batch.field(record, 1).start
            let end = batch.field(record, lastColumn).end
            let row = XXH64.hash(UnsafeRawBufferPointer(start: base + first, count: end - first), seed: RowSieve.rowSeed)
            if current?.application == application {
                current?.rows &+= row
            } else {
                if let current { runs.append(current) }
                current = ApplicationDigest(application: application, rows: row)
            }
        }
        if let current { runs.append(current) }
    }

    /// Adds the runs of a chunk.
    func add(_ runs: [ApplicationDigest]) {
        for run in runs { sums[run.application, default: 0] &+= run.rows }
    }

    /// Every application's digest, in application order.
    func finish() -> ApplicationDigests {
        defer { sums = [:] }
        return ApplicationDigests(
            sorted: sums.map { ApplicationDigest(application: $0.key, rows: $0.value) }.sorted { $0.application < $1.application })
    }
}
