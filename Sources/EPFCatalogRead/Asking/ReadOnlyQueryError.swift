import EPFCatalogCore

/// Why `epf sql`'s one read-only statement did not give rows, from SQLite
/// (`SQLiteDatabase.readOnlyQuery(sql:)`) or PostgreSQL
/// (`PostgresReadOnlyQuery`).
package enum ReadOnlyQueryError: Error, Sendable, CustomStringConvertible {
    /// The text holds no statement (empty, or only comments).
    case noStatement
    /// The text holds more than one statement.
    case severalStatements
    /// The statement could change a database (INSERT, CREATE, a writing
    /// PRAGMA, ...) or the connection's databases (ATTACH, DETACH).
    case notReadOnly
    /// The database refused or failed the statement (or, for a server,
    /// could not be reached): its message.
    case failed(String)

    /// Whether the caller asked for something it may not (as opposed to a
    /// statement the database could not run).
    package var isUsageError: Bool {
        if case .failed = self { return false }
        return true
    }

    package var description: String {
        switch self {
        case .noStatement: return "no SQL statement given"
        case .severalStatements: return "give exactly one SQL statement, not several"
        case .notReadOnly: return "the statement could change the catalog"
        case .failed(let message): return message
        }
    }
}
