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
    /// The columns the change log compares, hashed in this order.
    private let comparedColumns: [Int]
    private var sums: [Int64: UInt64] = [:]

    /// A digester for a FULL file of `header` into `table`, or nil when the
    /// change log does not compare it: not a FULL file of
    /// `application_price` or `application`, or without the columns the
    /// log compares.
    init?(table: String, header: EPFHeader) {
        // Only the values the log compares are hashed: an `application` row
        // is 2 KB, and its title, version and release date are what counts.
        guard let compared = ChangeLogColumns.compared[table], header.exportMode == .full,
            let column = header.columns.firstIndex(of: "application_id")
        else { return nil }
        let columns = compared.compactMap { header.columns.firstIndex(of: $0) }
        guard columns.count == compared.count else { return nil }
        applicationColumn = column
        comparedColumns = columns
    }

    /// The runs of `batch`: each application's rows in a row, with the sum
    /// of their hashes, appended to `runs`. A row whose application is not
    /// an integer is left out (it cannot be one of the catalog's).
    func digest(_ batch: RecordBatch, base: UnsafePointer<UInt8>, into runs: inout [ApplicationDigest]) {
        var current: ApplicationDigest?
        for record in 0..<batch.count {
            let field = batch.field(record, applicationColumn)
            guard let application = ValueDecoding.integer(base + field.start, field.count) else { continue }
            // Each field's hash seeds the next: the same values in other
            // columns hash otherwise.
            var row = RowSieve.rowSeed
            for column in comparedColumns {
                let span = batch.field(record, column)
                row = XXH64.hash(UnsafeRawBufferPointer(start: base + span.start, count: span.count), seed: row)
            }
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
