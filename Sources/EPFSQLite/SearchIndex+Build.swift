import CSQLite
import EPFCatalogStore
import EPFFormat
import EPFTextSearch

/// Building the SQLite store's search index (`SearchIndex`, its form
/// described in EPFSQLiteReader) and keeping it with its table: the SQL
/// functions that space the text and give each entry its rowid, the FTS5
/// table's declaration, and what the store does at each step of an apply
/// (`SearchIndexMaintenance`).
extension SearchIndex {
    /// The SQL function the importer's connection spaces text with.
    static let functionName = "epf_search_text"
    /// The SQL function that gives a row's search rowid:
    /// `epf_search_rowid(rowid, text)`.
    static let rowidFunctionName = "epf_search_rowid"

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
