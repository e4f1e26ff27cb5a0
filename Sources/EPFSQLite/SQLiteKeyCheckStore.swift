import EPFCatalog

/// The store of `epf verify`: stores nothing; its loaders
/// (`VerifyingLoader`) decode and count as `SQLiteTableLoader` does and
/// put each row's key, as the SQLite catalog would store it, into a
/// temporary on-disk `KeyIndex`, so repeated keys are found in bounded
/// memory. Applying changes nothing, the journal is not kept.
public final class SQLiteKeyCheckStore: KeyCheckingStore {
    let settings: KeyCheckSettings
    /// Examples of repeated keys, by file.
    public internal(set) var duplicateKeys: [String: [DuplicateKey]] = [:]

    public init(settings: KeyCheckSettings = KeyCheckSettings()) { self.settings = settings }

    /// Checked as an import into a SQLite catalog would be.
    public var maximumColumns: Int { SchemaMapping.maximumColumns }

    public func makeLoader(for target: StagingTarget, strict: Bool) throws -> any TableLoader {
        try VerifyingLoader(target: target, strict: strict, store: self)
    }

    public func apply(_ staged: [StagedTable], journal: [JournalEntry]) throws -> [ApplyOutcome] {
        staged.map { table in
            let rows = table.counts.rowsRead - table.counts.duplicateKeys
            return ApplyOutcome(rowsAfter: rows, inserted: rows, updated: 0, addedColumns: [])
        }
    }

    public func discard(_ staged: [StagedTable]) {}
    public func record(_ journal: [JournalEntry]) throws {}
    public func appliedFiles() throws -> [AppliedFile] { [] }
    public func rowCount(of table: String) throws -> Int? { nil }
}
