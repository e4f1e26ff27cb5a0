import EPFCatalogStore
import EPFFormat
import EPFTextSearch

/// Building the search index of a PostgreSQL catalog (`PostgresSearchIndex`,
/// its table described in EPFPostgresReader) and keeping it with
/// `application`: the FULL load's index and its swap, an INCREMENTAL
/// apply's changed rows, the entries COPYed in search order.
extension PostgresSearchIndex {
    /// Rows read per `FETCH` while indexing.
    static let fetchRows = 20_000

    /// The index of `table` if it is searched: `application` (keyed by
    /// `application_id`) and its title, also under a `--table-prefix`
    /// (`x_application`), as in SQLite. (The SQLite store also indexes
    /// `artist.name`, which no command searches yet.)
    static func index(forTable table: String, key: [String], columns: some Sequence<String>) -> SearchIndex? {
        guard let index = SearchIndex.index(forTable: table, key: key, columns: columns), index.table == "application", index.key.count == 1
        else { return nil }
        return index
    }

    // MARK: Keeping the index with the tables

    /// FULL, in the loader's `finish()` transaction, after the key is built
    /// (one row per key) and while the staging table still has
    /// `epf_record`: indexes the staging table into its own search table.
    static func buildStaging(for target: StagingTarget, staging: String, on connection: PostgresConnection) throws(PostgresError) {
        let name = SearchIndex.tableName(for: staging)
        try connection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(name))")
        let header = target.header
        guard header.exportMode == .full, name.utf8.count <= PostgresSchema.maxIdentifierBytes,
            let index = index(forTable: target.table, key: header.primaryKey, columns: header.columns)
        else { return }
        try build(name, index: index, from: staging, sequence: quoteIdentifier(PostgresSchema.recordColumn), on: connection)
    }

    /// FULL, at the swap, after the staging table became `live`: its search
    /// table (if any) replaces the live one; an old index the new table
    /// does not get is dropped.
    static func replace(live: String, staging: String, on connection: PostgresConnection) throws(PostgresError) {
        let liveSearch = SearchIndex.tableName(for: live)
        let stagingSearch = SearchIndex.tableName(for: staging)
        try connection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(liveSearch))")
        if try connection.scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(stagingSearch)]) == "t" {
            try connection.execute("ALTER TABLE \(quoteIdentifier(stagingSearch)) RENAME TO \(quoteIdentifier(liveSearch))")
        }
    }

    /// INCREMENTAL, in the apply's transaction, after the upsert and before
    /// the staging table is dropped: the rows the file names get their
    /// entries (new rows a place after every row there, in file order;
    /// updated rows keep theirs). Builds the whole index when the live
    /// table has none, or one of another version.
    static func afterUpsert(live: String, staging: String, header: EPFHeader, on connection: PostgresConnection) throws(PostgresError) {
        let name = SearchIndex.tableName(for: live)
        let columns = try connection.columnNames(of: live)
        guard let index = index(forTable: live, key: header.primaryKey, columns: columns),
            name.utf8.count <= PostgresSchema.maxIdentifierBytes
        else {
            try connection.execute("DROP TABLE IF EXISTS \(quoteIdentifier(name))")
            return
        }
        guard try isCurrent(name, on: connection) else {
            // The live table's rows in their physical order: the order they
            // were written in, as near as PostgreSQL keeps one.
            try build(name, index: index, from: live, sequence: "row_number() OVER (ORDER BY ctid)", on: connection)
            return
        }
        let key = quoteIdentifier(index.key[0])
        let last = Int64(try connection.scalar("SELECT coalesce(max(seq), 0) FROM \(quoteIdentifier(name))") ?? "0") ?? 0
        let changes = "epf_search_changes"
        try connection.execute(
            "CREATE TEMPORARY TABLE \(changes) (LIKE \(quoteIdentifier(name))) ON COMMIT DROP")
        var next = last
        try copyEntries(
            """
            SELECT l.\(key), x.seq, l.\(quoteIdentifier(index.column))
            FROM \(quoteIdentifier(staging)) AS s JOIN \(quoteIdentifier(live)) AS l ON l.\(key) = s.\(key)
            LEFT JOIN \(quoteIdentifier(name)) AS x ON x.\(key) = l.\(key)
            ORDER BY s.\(quoteIdentifier(PostgresSchema.recordColumn))
            """,
            into: changes, on: connection
        ) { existing in
            if let existing { return existing }
            next += 1
            return next
        }
        try connection.execute(
            """
            INSERT INTO \(quoteIdentifier(name)) SELECT * FROM \(changes)
            ON CONFLICT (\(key)) DO UPDATE SET sort_key = excluded.sort_key, words = excluded.words;
            DROP TABLE \(changes)
            """)
    }

    // MARK: Building

    /// Creates the search table `name` and indexes every row of `source`
    /// whose key is not NULL; `sequence` is the SQL of each row's place.
    static func build(_ name: String, index: SearchIndex, from source: String, sequence: String, on connection: PostgresConnection)
        throws(PostgresError)
    {
        let search = quoteIdentifier(name)
        let key = quoteIdentifier(index.key[0])
        let keyType =
            try connection.scalar(
                """
                SELECT format_type(atttypid, atttypmod) FROM pg_attribute
                WHERE attrelid = to_regclass($1) AND attname = $2 AND NOT attisdropped
                """, [quoteIdentifier(source), index.key[0]]) ?? "BIGINT"
        try connection.execute("DROP TABLE IF EXISTS \(search)")
        let columns = "(\(key) \(keyType) NOT NULL, seq BIGINT NOT NULL, sort_key BIGINT NOT NULL, words tsvector)"
        try connection.execute("CREATE TABLE \(search) \(columns)")
        // The rows go in in search order, through a temporary table: a
        // search that walks the (sort_key, seq) btree then reads the heap
        // in order too, page after page (a walk of a page of 50 over
        // 20,000 titles: 184 buffers against 1,377, 0.6 ms against 2 ms).
        let unordered = "epf_search_unordered"
        try connection.execute("DROP TABLE IF EXISTS pg_temp.\(unordered); CREATE TEMPORARY TABLE \(unordered) \(columns)")
        try copyEntries(
            "SELECT \(key), \(sequence), \(quoteIdentifier(index.column)) FROM \(quoteIdentifier(source)) WHERE \(key) IS NOT NULL",
            into: unordered, on: connection
        ) { $0 ?? 0 }
        try connection.execute(
            "INSERT INTO \(search) SELECT * FROM pg_temp.\(unordered) ORDER BY sort_key, seq; DROP TABLE pg_temp.\(unordered)")
        for (suffix, definition) in [
            ("key", "UNIQUE INDEX %@ ON \(search) (\(key))"), ("words", "INDEX %@ ON \(search) USING gin (words)"),
            ("order", "INDEX %@ ON \(search) (sort_key, seq)"),
        ] {
            let indexName = try connection.freeIndexName(base: "\(name)_\(suffix)")
            try connection.execute("CREATE " + definition.replacingOccurrences(of: "%@", with: quoteIdentifier(indexName)))
        }
        try connection.execute("COMMENT ON TABLE \(search) IS \(connection.literal(marker)); ANALYZE \(search)")
    }

    /// Runs `select` (key, place or NULL, title) through a cursor, and COPYs
    /// one entry per row into `table`: the key, `place(row's place)`, the
    /// title's order key and tokens.
    private static func copyEntries(
        _ select: String, into table: String, on connection: PostgresConnection, place: (Int64?) -> Int64
    ) throws(PostgresError) {
        let tokenizer = SearchTokenizer()
        let cursor = "epf_search_rows"
        try connection.execute("DECLARE \(cursor) NO SCROLL CURSOR FOR \(select)")
        while true {
            let rows = try connection.query("FETCH \(fetchRows) FROM \(cursor)")
            if rows.isEmpty { break }
            var text = ""
            text.reserveCapacity(rows.count * 64)
            for row in rows {
                guard let key = row[0] else { continue }
                let title = row[2]
                text += copyField(key)
                text += "\t\(place(row[1].flatMap { Int64($0) }))\t\(title.map { SearchOrder.key($0) } ?? 0)\t"
                text += title.map { copyField(vector(tokenizer.tokens($0))) } ?? "\\N"
                text += "\n"
            }
            try connection.beginCopy("COPY \(quoteIdentifier(table)) FROM STDIN")
            let failure = text.withUTF8 { bytes -> PostgresError? in
                guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
                do {
                    try connection.putCopyData(base, count: bytes.count)
                    return nil
                } catch let error as PostgresError {
                    return error
                } catch {
                    return PostgresError(sqlState: nil, message: "\(error)")
                }
            }
            if let failure {
                connection.abortCopy()
                throw failure
            }
            try connection.endCopy()
        }
        try connection.execute("CLOSE \(cursor)")
    }

    // MARK: Text

    /// The `tsvector` literal of `tokens`: each with its 1-based positions.
    static func vector(_ tokens: [String]) -> String {
        tokens.enumerated().map { "\(lexeme($0.element)):\($0.offset + 1)" }.joined(separator: " ")
    }

    /// A field of COPY's text format.
    static func copyField(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        var field = ""
        for character in text {
            switch character {
            case "\\": field += "\\\\"
            case "\t": field += "\\t"
            case "\n": field += "\\n"
            case "\r": field += "\\r"
            case "\r\n": field += "\\r\\n"
            default: field.append(character)
            }
        }
        return field
    }
}
