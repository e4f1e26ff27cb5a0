import EPFCatalogRead
import EPFTextSearch

/// The SQLite store's form of a `SearchIndex`.
///
/// The index of catalog table `T` is the FTS5 table `epf_search_T`
/// (`epf_search_application`), one row per row of `T` whose column is not
/// NULL, holding the column's text spaced by `SearchText`:
///
/// ```sql
/// CREATE VIRTUAL TABLE "epf_search_application" USING fts5(/* epf search v2 */ "title",
///     content='', tokenize='unicode61 remove_diacritics 2')
/// ```
///
/// Choices, and why:
/// - Named `epf_search_T`, not `T_search`: every table whose name does not
///   start with `epf_` (or `sqlite_`) is an EPF table, for `epf tables`, the
///   tests and any reader listing them; an FTS5 table and its shadow tables
///   (`_data`, `_idx`, `_docsize`, `_config`) must not show up there.
/// - Contentless (`content=''`): the live table already holds the text;
///   storing it again measured 40% slower to build (0.49 s against 0.35 s
///   for 100k titles). The price: removing a row's entry needs the text it
///   was indexed with, so the importer deletes entries BEFORE the upsert
///   changes the column, from the old values, spaced by the same function.
///   This is why the importer is the only writer of the index, and why the
///   declaration carries `version`: a catalog indexed by another version
///   of the spacing or the order is rebuilt, not patched.
/// - Rowid = the row's place in search order, then the live table's rowid:
///   `order << 40 | rowid` (`epf_search_rowid`), where `order` is the
///   title's word count, then its length in bytes (`SearchOrder`). A
///   reader asks `ORDER BY rowid LIMIT 20`, which FTS5 answers by walking
///   the matching doclists in rowid order and stopping after 20 rows,
///   however many titles match; `ORDER BY rank` (bm25) scores every match
///   first (130 ms for a word in 80k of 1M titles against 0.1 ms). For a
///   title, where a word rarely repeats, bm25 orders the matches of an AND
///   query by their length in words, which is what this order does. The
///   live rowid is `rowid & 0xFF_FFFF_FFFF`: the join is a rowid lookup,
///   and `ON CONFLICT DO UPDATE` keeps rowids, so an INCREMENTAL only
///   touches the entries of the rows it changes. `VACUUM` keeps the rowids
///   of a table that has an index, and only keyed tables are indexed.
///   FTS5 flushes its pending terms whenever a rowid is not larger than the
///   last, so entries are inserted in rowid order.
/// - Built after the bulk load with one `INSERT ... SELECT`, in the
///   loader's transaction (FULL files), beside the key index; the FULL swap
///   renames it into place with its table (FTS5 renames its shadow tables).
/// - Maintained by the store, not by triggers: a trigger would need our SQL
///   function on every connection that writes the table (a `sqlite3` shell
///   too), and would index row by row during the bulk load.
/// - Readers need no code of ours: `MATCH` with a query from `SearchQuery`,
///   `ORDER BY rowid`, and `rowid & 1099511627775` for the table's rowid.
///
/// Here is what readers check (the version); building and keeping the
/// index is the store's (EPFSQLite, `SearchIndex+Build.swift`).
extension SearchIndex {
    /// Whether the search table `name` is of this version (what readers
    /// check before they query it).
    package static func isCurrent(_ name: String, in database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        try database.scalar("SELECT CASE WHEN \(isCurrentCondition(name)) THEN 1 ELSE 0 END")?.integerValue == 1
    }

    /// `isCurrent` as a SQL condition: the declaration of `name` holds
    /// this version's marker.
    package static func isCurrentCondition(_ name: String) -> String {
        "EXISTS (SELECT 1 FROM sqlite_schema WHERE name = \(quoteLiteral(name)) AND instr(sql, \(quoteLiteral(marker))) > 0)"
    }

    /// What the declaration of an index of this version holds.
    package static let marker = "/* epf search v\(version) */"
}
