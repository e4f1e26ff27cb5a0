import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// Applying staged tables, written once for every SQL store: one
/// transaction for a unit of files (readers see all of them or none), a
/// FULL file swapped in by rename, an INCREMENTAL file upserted by key,
/// the table info and the journal written in the same transaction.
extension SQLStoreBackend {
    /// Applies `staged` and records `journal`, all or nothing. Errors are
    /// the backend's; the store wraps them.
    package func applyAll(_ staged: [StagedTable], journal: [JournalEntry]) throws -> [ApplyOutcome] {
        let connection = applyConnection
        let outcomes = try connection.transaction {
            var outcomes: [ApplyOutcome] = []
            for table in staged {
                let outcome: ApplyOutcome
                switch table.target.header.exportMode {
                case .full: outcome = try replace(with: table)
                case .incremental: outcome = try upsert(table)
                }
                outcomes.append(outcome)
                try saveTableInfo(table, rows: outcome.rowsAfter)
                try saveRowDigests(table)
                try saveApplicationDigests(table)
                // The load is done; what it kept beside its rows stays.
                try SQLCheckpoints.delete(staging: table.stagingName, on: connection, dialect: dialect)
            }
            // The shortest history any file asks for; none: keep all.
            if let days = staged.compactMap(\.target.keepHistoryDays).min() {
                _ = try pruneChanges(keepingDays: days)
            }
            try insertJournal(journal)
            hooks.reach(.inApply)
            return outcomes
        }
        hooks.reach(.afterApply)
        return outcomes
    }

    /// FULL: the staged table becomes the live table, by rename, in the
    /// apply's transaction; rows the new file lacks go with the old table.
    private func replace(with table: StagedTable) throws -> ApplyOutcome {
        let connection = applyConnection
        let live = quoteIdentifier(table.target.table)
        let logged = try logsChanges(of: table) ? try logChanges(of: table) : 0
        try connection.execute("DROP TABLE IF EXISTS \(live)")
        try connection.execute("ALTER TABLE \(quoteIdentifier(table.stagingName)) RENAME TO \(live)")
        try didReplace(table)
        let rows = table.counts.rowsRead - table.counts.duplicateKeys
        return ApplyOutcome(rowsAfter: rows, inserted: rows, updated: 0, addedColumns: [], changesLogged: logged)
    }

    /// INCREMENTAL: `INSERT ... ON CONFLICT (key) DO UPDATE`, columns
    /// matched by name; columns the file lacks keep their values, columns
    /// the table lacks are added.
    private func upsert(_ table: StagedTable) throws -> ApplyOutcome {
        let connection = applyConnection
        let header = table.target.header
        let liveName = table.target.table
        let live = quoteIdentifier(liveName)
        let staging = quoteIdentifier(table.stagingName)
        let key = header.primaryKey
        var added: [String] = []
        let logging = try logsChanges(of: table)
        // Rows before, as the table info kept them: counting a table of
        // hundreds of millions of rows costs more than a day's upsert.
        var rowsBefore: Int?
        if try !connection.tableExists(liveName) {
            try connection.execute("CREATE TABLE \(live) (\(dialect.columnDefinitions(header)))")
            rowsBefore = 0
        } else {
            rowsBefore = try storedRowCount(of: liveName)
            let existing = Set(try connection.columnNames(of: liveName))
            for (name, type) in zip(header.columns, header.types) where !existing.contains(name) {
                try connection.execute("ALTER TABLE \(live) ADD COLUMN \(dialect.columnDefinition(name, type))")
                added.append(name)
            }
        }
        try LookupIndex.build(on: liveName, catalogTable: liveName, key: key, in: connection)
        if try connection.index(on: liveName, columns: key, uniqueOnly: true) == nil {
            let name = try connection.freeIndexName(base: "\(liveName)_key")
            let create = "CREATE UNIQUE INDEX \(quoteIdentifier(name)) ON \(live) (\(quoteColumnList(key)))\(dialect.uniqueIndexSuffix)"
            guard try connection.executeUnlessUniqueViolation(create) else {
                throw CatalogError(
                    .constraint,
                    detail:
                        "the live table \(liveName) has repeated values of the key (\(key.joined(separator: ", "))) this INCREMENTAL file updates by",
                    hint: "Import a FULL file of \(liveName) first, so the table has a usable key")
            }
        }
        // Rows marked the same as the catalog's as they loaded go first;
        // the upsert skips the other rows that are the same.
        let marked = try connection.columnNames(of: table.stagingName).contains(CatalogTables.unchangedColumn)
        let markedSame =
            marked
            ? try connection.change("DELETE FROM \(staging) WHERE \(quoteIdentifier(CatalogTables.unchangedColumn)) = 1", []) : 0
        let logged = logging ? try logChanges(of: table) : 0
        let columns = quoteColumnList(header.columns)
        let nonKey = header.columns.filter { !key.contains($0) }
        let compared = nonKey.filter { $0 != CatalogTables.exportDateColumn }
        // A row the same as the catalog's in every column of the file but
        // `export_date` is not written: its `export_date` stays that of the
        // export that gave it its values.
        let same = compared.map { dialect.sameValue("\(live).\(quoteIdentifier($0))", "excluded.\(quoteIdentifier($0))") }
        let action =
            compared.isEmpty
            ? "NOTHING"
            : "UPDATE SET " + nonKey.map { "\(quoteIdentifier($0)) = excluded.\(quoteIdentifier($0))" }.joined(separator: ", ")
                + " WHERE NOT (\(same.joined(separator: " AND ")))"
        let statement = """
            INSERT INTO \(live) (\(columns)) SELECT \(columns) FROM \(staging)\(dialect.upsertSourceClause) \
            ON CONFLICT (\(quoteColumnList(key))) DO \(action)
            """
        let stored = table.counts.rowsRead - table.counts.duplicateKeys - markedSame
        let pending = try willUpsert(table)
        let inserted: Int
        let written: Int
        if let counting = dialect.countingChanges(statement) {
            let counts = try connection.rows(counting, []).first
            inserted = Int(counts?.first?.asInteger ?? 0)
            written = Int(counts?.dropFirst().first?.asInteger ?? 0)
        } else if dialect.insertsAboveLargestRowid,
            let largest = try connection.scalar("SELECT coalesce(max(rowid), 0) FROM \(live)")?.asInteger, largest < Int64.max
        {
            // At the largest rowid SQLite would pick free rowids at random.
            written = try connection.change(statement, [])
            inserted = Int(try connection.scalar("SELECT count(*) FROM \(live) WHERE rowid > \(largest)")?.asInteger ?? 0)
        } else {
            let matches = key.map { "l.\(quoteIdentifier($0)) = s.\(quoteIdentifier($0))" }.joined(separator: " AND ")
            let existing = Int(
                try connection.scalar("SELECT count(*) FROM \(staging) AS s WHERE EXISTS (SELECT 1 FROM \(live) AS l WHERE \(matches))")?
                    .asInteger ?? 0)
            written = try connection.change(statement, [])
            inserted = stored - existing
        }
        try didUpsert(table, pending)
        try connection.execute("DROP TABLE \(staging)")
        let rowsAfter = try rowsBefore.map { $0 + inserted } ?? Int(try connection.scalar("SELECT count(*) FROM \(live)")?.asInteger ?? 0)
        return ApplyOutcome(
            rowsAfter: rowsAfter, inserted: inserted, updated: written - inserted,
            unchanged: table.counts.knownRows + markedSame + stored - written,
            addedColumns: added, changesLogged: logged)
    }
}
