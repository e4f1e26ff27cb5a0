import EPFCatalogStore

/// The store of `epf verify`: stores nothing; its loaders
/// (`VerifyingLoader`) decode and count as `SQLiteTableLoader` does and
/// put each row's key, as the SQLite catalog would store it, into a
/// temporary on-disk `KeyIndex`, so repeated keys are found in bounded
/// memory. Applying changes nothing, the journal is not kept.
package final class SQLiteKeyCheckStore: KeyCheckingStore {
    let settings: KeyCheckSettings
    /// Examples of repeated keys, by file.
    package internal(set) var duplicateKeys: [String: [DuplicateKey]] = [:]

    package init(settings: KeyCheckSettings = KeyCheckSettings()) { self.settings = settings }

    /// Checked as an import into a SQLite catalog would be.
    package var maximumColumns: Int { SchemaMapping.maximumColumns }

    package func makeLoader(for target: StagingTarget, strict: Bool) throws -> any TableLoader {
        try VerifyingLoader(target: target, strict: strict, store: self)
    }

    package func apply(_ staged: [StagedTable], journal: [JournalEntry]) throws -> [ApplyOutcome] {
        staged.map { table in
            let rows = table.counts.rowsRead - table.counts.duplicateKeys
            return ApplyOutcome(rowsAfter: rows, inserted: rows, updated: 0, addedColumns: [])
        }
    }

    package func discard(_ staged: [StagedTable]) {}
    package func record(_ journal: [JournalEntry]) throws {}
    package func appliedFiles() throws -> [AppliedFile] { [] }
    package func rowCount(of table: String) throws -> Int? { nil }
}
