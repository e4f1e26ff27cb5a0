import EPFCatalogStore
import Foundation

/// `epf compact` on a PostgreSQL catalog: there is nothing to compact, and
/// it says why, with the catalog's size.
///
/// What a FULL re-import leaves in PostgreSQL: the file loads into a
/// staging table, and the apply drops the old live table and renames the
/// staging table in its place (`SQLApply`), in one transaction. PostgreSQL
/// removes a dropped table's files when that transaction commits: the
/// space goes back to the server's disk at once, unlike SQLite's free
/// pages. The importer's own tables take little and are only appended to
/// (the journal) or hold a row per load in progress (the checkpoints, the
/// table info): their few dead rows are autovacuum's to reuse. An
/// INCREMENTAL file's upserts leave dead rows in the live tables, which
/// autovacuum makes reusable too; shrinking those tables would take
/// `VACUUM FULL`, which locks out readers while it rewrites a table, so
/// epf never runs it.
///
/// So the command connects (a wrong URL or a server that is not there is
/// an error), measures the catalog's tables, and reports nothing done.
/// Staging tables of interrupted loads are named in a note: the next
/// import resumes or drops them.
package enum PostgresCompaction {
    /// Why there is nothing to do, for the report.
    package static let nothingToDo =
        "PostgreSQL gave the space of every replaced table back to its disk when the import dropped it; autovacuum keeps the rest: nothing to compact"

    /// Reports the catalog at `target` as it is.
    package static func compact(target: PostgresTarget) throws(CatalogError) -> CompactionReport {
        let started = ContinuousClock.now
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection(target, applicationName: "epf compact")
        } catch {
            throw CatalogError(error, while: "opening the catalog \(target.redacted)")
        }
        let action = "measuring the catalog \(target.redacted)"
        var notes: [String] = []
        let bytes: Int64
        do {
            let schema = "c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())"
            bytes =
                Int64(
                    try connection.scalar(
                        "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c WHERE \(schema) AND c.relkind IN ('r', 'm')"
                    )
                        ?? "0") ?? 0
            let staging = try connection.query(
                "SELECT count(*), coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c WHERE \(schema) AND c.relkind = 'r' AND c.relname LIKE $1",
                [CatalogTables.stagingPrefix.replacingOccurrences(of: "_", with: "\\_") + "%"])
            if let row = staging.first, let count = Int(row[0] ?? "0"), count > 0 {
                let size = Int64(row[1] ?? "0") ?? 0
                notes.append(
                    "\(count) staging table(s) of interrupted loads hold \(String(format: "%.1f MB", Double(size) / 1e6)): the next import resumes them, or drops them (epf import --restart drops them all)"
                )
            }
        } catch {
            throw CatalogError(error, while: action)
        }
        return CompactionReport(
            catalog: target.redacted, bytesBefore: bytes, bytesAfter: bytes, seconds: (ContinuousClock.now - started).inSeconds,
            nothingToDo: nothingToDo, notes: notes)
    }
}
