import CSQLite
import EPFFormat
import EPFCatalog

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
extension SearchIndex {
    /// The SQL function the importer's connection spaces text with.
    static let functionName = "epf_search_text"
    /// The SQL function that gives a row's search rowid:
    /// `epf_search_rowid(rowid, text)`.
    static let rowidFunctionName = "epf_search_rowid"

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
    static let marker = "/* epf search v\(version) */"

    /// The part of the search table's declaration after its name.
    var declarationBody: String {
        "USING fts5(\(Self.marker) \(quoteIdentifier(column)), content='', tokenize='unicode61 remove_diacritics 2')"
    }

    /// Creates the search table `name` and indexes every row of `source`.
    func build(_ name: String, from source: String, in database: SQLiteDatabase) throws(SQLiteError) {
        let search = quoteIdentifier(name)
        let column = quoteIdentifier(column)
        try database.execute("DROP TABLE IF EXISTS \(search)")
        try database.execute("CREATE VIRTUAL TABLE \(search) \(declarationBody)")
        try database.execute(
            """
            INSERT INTO \(search) (rowid, \(column))
            SELECT \(Self.rowidFunctionName)(rowid, \(column)) AS o, \(Self.functionName)(\(column))
            FROM \(quoteIdentifier(source)) WHERE \(column) IS NOT NULL ORDER BY o
            """)
    }

    /// Whether the search table `name` exists and was declared exactly as
    /// this index declares it.
    func isDeclared(_ name: String, in database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        guard let sql = try database.scalar("SELECT sql FROM sqlite_schema WHERE name = ?", [.text(name)])?.textValue,
            let using = sql.range(of: "USING ")
        else { return false }
        return sql[using.lowerBound...] == declarationBody
    }
}

// MARK: Keeping the index with the tables

extension SQLiteDatabase {
    /// Registers `epf_search_text(text)` (`SearchText` in SQL) and
    /// `epf_search_rowid(rowid, text)` (`SearchOrder`) on this connection,
    /// for building and maintaining search tables. Readers do not need them.
    func registerSearchFunctions() throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        var code = sqlite3_create_function_v2(
            handle, SearchIndex.functionName, 1, flags, nil,
            { context, _, arguments in searchText(context, arguments?[0]) }, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(database: handle, code: code) }
        code = sqlite3_create_function_v2(
            handle, SearchIndex.rowidFunctionName, 2, flags, nil,
            { context, _, arguments in searchRowid(context, arguments?[0], arguments?[1]) }, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(database: handle, code: code) }
    }
}

/// The body of `epf_search_text`: NULL stays NULL; text without characters
/// to space comes back as it is; other text is spaced into memory SQLite
/// takes over (no second copy).
private func searchText(_ context: OpaquePointer?, _ argument: OpaquePointer?) {
    guard let argument, sqlite3_value_type(argument) != SQLITE_NULL else {
        sqlite3_result_null(context)
        return
    }
    guard let text = sqlite3_value_text(argument) else {
        sqlite3_result_error_nomem(context)
        return
    }
    let count = Int(sqlite3_value_bytes(argument))
    guard SearchText.needsSpacing(text, count) else {
        sqlite3_result_value(context, argument)
        return
    }
    guard let output = sqlite3_malloc64(sqlite3_uint64(SearchText.maximumPreparedCount(count)))?.assumingMemoryBound(to: UInt8.self)
    else {
        sqlite3_result_error_nomem(context)
        return
    }
    let written = SearchText.prepare(text, count, into: output)
    output.withMemoryRebound(to: CChar.self, capacity: written) {
        sqlite3_result_text64(context, $0, sqlite3_uint64(written), sqlite3_free, UInt8(SQLITE_UTF8))
    }
}

/// The body of `epf_search_rowid(rowid, text)`: `SearchOrder.key(text)`
/// above the table's rowid.
private func searchRowid(_ context: OpaquePointer?, _ rowid: OpaquePointer?, _ text: OpaquePointer?) {
    let tableRowid = sqlite3_value_int64(rowid)
    guard tableRowid >= 0, tableRowid <= SearchIndex.tableRowidMask else {
        sqlite3_result_error(context, "epf_search_rowid: rowid \(tableRowid) does not fit in 40 bits", -1)
        return
    }
    var order: Int64 = 0
    if let text, sqlite3_value_type(text) != SQLITE_NULL, let bytes = sqlite3_value_text(text) {
        order = SearchOrder.key(bytes, Int(sqlite3_value_bytes(text)))
    }
    sqlite3_result_int64(context, order << SearchIndex.tableRowidBits | tableRowid)
}

/// What the store does to search tables while it applies staged tables.
/// Everything runs in the caller's transaction.
package enum SearchIndexMaintenance {
    /// FULL, at the end of the load: indexes the staging table, if its
    /// table is indexed.
    static func buildStaging(for target: StagingTarget, staging: String, in database: SQLiteDatabase) throws(SQLiteError) {
        let header = target.header
        let name = SearchIndex.tableName(for: staging)
        try database.execute("DROP TABLE IF EXISTS \(quoteIdentifier(name))")
        guard header.exportMode == .full,
            let index = SearchIndex.index(forTable: target.table, key: header.primaryKey, columns: header.columns)
        else { return }
        try index.build(name, from: staging, in: database)
    }

    /// FULL, at the swap: the staging table's index (if any) replaces the
    /// live table's; an old index the new table does not get is dropped.
    static func replace(live: String, staging: String, in database: SQLiteDatabase) throws(SQLiteError) {
        let liveSearch = SearchIndex.tableName(for: live)
        let stagingSearch = SearchIndex.tableName(for: staging)
        try database.execute("DROP TABLE IF EXISTS \(quoteIdentifier(liveSearch))")
        if try database.tableExists(stagingSearch) {
            try database.execute("ALTER TABLE \(quoteIdentifier(stagingSearch)) RENAME TO \(quoteIdentifier(liveSearch))")
        }
    }

    /// Drops the index of a staging table that will not be applied.
    static func discard(staging: String, in database: SQLiteDatabase) throws(SQLiteError) {
        try database.execute("DROP TABLE IF EXISTS \(quoteIdentifier(SearchIndex.tableName(for: staging)))")
    }

    /// What to do after an INCREMENTAL upsert.
    package enum AfterUpsert {
        /// Index the rows the upsert wrote (their old entries are gone).
        case indexStaged(SearchIndex)
        /// Build the index of the whole live table (it had none, or one of
        /// another version).
        case build(SearchIndex)
    }

    /// INCREMENTAL, before the upsert (after missing columns were added to
    /// the live table): removes the entries of the live rows the upsert will
    /// change, while they still hold the text they were indexed with.
    /// Returns what to do after the upsert, or nil when the index needs
    /// nothing (the file does not touch the indexed column, or the table is
    /// not indexed).
    static func beforeUpsert(
        live: String, staging: String, header: EPFHeader, in database: SQLiteDatabase
    ) throws(SQLiteError) -> AfterUpsert? {
        let name = SearchIndex.tableName(for: live)
        let columns = try database.columnNames(of: live)
        guard let index = SearchIndex.index(forTable: live, key: header.primaryKey, columns: columns) else {
            // Not indexed (any more): no index at all rather than a stale one.
            try database.execute("DROP TABLE IF EXISTS \(quoteIdentifier(name))")
            return nil
        }
        guard try index.isDeclared(name, in: database) else { return .build(index) }
        // Rows new to the table hold NULL in a column the file lacks, and the
        // rows it updates keep their text: nothing to change.
        guard header.columns.contains(index.column) else { return nil }
        try database.execute(
            """
            INSERT INTO \(quoteIdentifier(name)) (\(quoteIdentifier(name)), rowid, \(quoteIdentifier(index.column)))
            SELECT 'delete', \(SearchIndex.rowidFunctionName)(l.rowid, l.\(quoteIdentifier(index.column))),
                \(SearchIndex.functionName)(l.\(quoteIdentifier(index.column)))
            \(stagedRows(live: live, staging: staging, key: header.primaryKey, column: index.column))
            """)
        return .indexStaged(index)
    }

    /// INCREMENTAL, after the upsert.
    static func afterUpsert(
        _ step: AfterUpsert, live: String, staging: String, header: EPFHeader, in database: SQLiteDatabase
    ) throws(SQLiteError) {
        let name = SearchIndex.tableName(for: live)
        switch step {
        case .build(let index):
            try index.build(name, from: live, in: database)
        case .indexStaged(let index):
            try database.execute(
                """
                INSERT INTO \(quoteIdentifier(name)) (rowid, \(quoteIdentifier(index.column)))
                SELECT \(SearchIndex.rowidFunctionName)(l.rowid, l.\(quoteIdentifier(index.column))) AS o,
                    \(SearchIndex.functionName)(l.\(quoteIdentifier(index.column)))
                \(stagedRows(live: live, staging: staging, key: header.primaryKey, column: index.column))
                ORDER BY o
                """)
        }
    }

    /// The live rows (`l`) whose key is staged, with a non-NULL `column`.
    /// `CROSS JOIN` keeps the staging table outside: one key-index lookup
    /// per staged row, never a scan of the live table.
    private static func stagedRows(live: String, staging: String, key: [String], column: String) -> String {
        let matches = key.map { "l.\(quoteIdentifier($0)) = s.\(quoteIdentifier($0))" }.joined(separator: " AND ")
        return """
            FROM \(quoteIdentifier(staging)) AS s CROSS JOIN \(quoteIdentifier(live)) AS l
            WHERE \(matches) AND l.\(quoteIdentifier(column)) IS NOT NULL
            """
    }
}
