import EPFCatalogCore

/// What a backend gives the read engine (`CatalogReadEngine`): its SQL
/// spelling and the running of queries, nothing of what the questions are.
/// The engine decides which rows, in which order, how a result is made of
/// them, how a search is paged and filtered, and every message; a source
/// says how its database writes a parameter, a list of IDs or a bytewise
/// order, runs a query or a batch of them (from a cache of prepared
/// statements, in one round trip where it can), opens a snapshot, and
/// reads its search index.
///
/// Not thread-safe: one connection, used from one thread at a time.
@usableFromInline
package protocol CatalogReadSource: AnyObject {
    /// The backend's own error (`SQLiteError`, `PostgresError`).
    associatedtype Failure: CatalogErrorConvertible
    /// A row of a result, as `forEachRow` hands it over.
    associatedtype Row: ReadRow

    /// The catalog as messages name it: a path, a URL without its password.
    var displayName: String { get }
    /// Whether the catalog is still where it was opened: false when a
    /// SQLite file was removed or replaced since (its connection would go
    /// on reading the old file). PostgreSQL: true (a query finds out).
    var isStillThere: Bool { get }

    // MARK: SQL spelling

    /// Query parameter `number` (1-based) as SQL writes it: `?1`, `$1`.
    func parameter(_ number: Int) -> String
    /// `expression` ordered byte by byte (SQLite's default; PostgreSQL's
    /// `COLLATE "C"`), as SQLite orders text.
    func bytewise(_ expression: String) -> String
    /// The condition that `expression` is one of the Apple IDs that
    /// parameter `number` holds (a value of `idListValue`): SQLite's `IN`
    /// over `json_each`, PostgreSQL's `= ANY` of a `bigint[]`.
    func idList(_ expression: String, parameter number: Int) -> String
    /// The value of an `idList` parameter holding `ids`.
    func idListValue(_ ids: [Int64]) -> SQLValue

    // MARK: Running

    /// Every table and view of the catalog, by name.
    func relations() throws(Failure) -> Set<String>
    /// The names of `table`'s columns, in table order.
    func columnNames(of table: String) throws(Failure) -> [String]
    /// Runs `sql` with `arguments` bound to its parameters and hands each
    /// row to `body`, in order.
    func forEachRow(_ sql: String, _ arguments: SQLArguments, _ body: (Row) -> Void) throws(Failure)
    /// Runs the queries of `batch` in turn and hands each row to `body`
    /// with its query's place in `batch`: in one round trip where the
    /// backend can (PostgreSQL's pipeline). `endingSnapshot`: these are
    /// the snapshot's last reads (PostgreSQL ends it in the same round
    /// trip; `endSnapshot` is still called after).
    func forEachRow(_ batch: [ReadQuery], endingSnapshot: Bool, _ body: (Int, Row) -> Void) throws(Failure)
    /// Opens a snapshot: every query until `endSnapshot` sees the same
    /// state of the catalog (SQLite: a read transaction; PostgreSQL: one
    /// implicit REPEATABLE READ transaction over the pipeline). Inside a
    /// transaction the caller has open, the queries see that one.
    func beginSnapshot() throws(Failure)
    /// Ends the snapshot `beginSnapshot` opened, unless a batch ended it;
    /// errors are ignored (the connection may be gone).
    func endSnapshot()

    // MARK: Search

    /// The SQL condition, true when the search table `name` was built by
    /// this version of epf: the engine's page queries hold it, so that an
    /// index of another version finds nothing, and a page that finds
    /// nothing asks whether that is why.
    func searchIndexIsCurrent(_ name: String) -> String
    /// What the index is asked for `term`: its words (whole-word matches)
    /// and its prefix-only matches, as the value of `SearchRowsSQL`'s
    /// match parameter; nil when `term` holds no word to search for.
    func searchMatch(_ term: String) throws(CatalogError) -> SearchMatch?
    /// The tokens the search index holds for `text`, in order: both
    /// backends cut titles with EPFTextSearch's `SearchTokenizer` (SQLite's
    /// FTS5 `unicode61 remove_diacritics 2`, in Swift).
    func searchTokens(_ text: String) -> [String]
    /// How the rows of search table `index` (quoted) that match the value
    /// of parameter `match` are read, with the application table
    /// `application` (quoted) at hand.
    func searchRows(index: String, application: String, match: String) -> SearchRowsSQL
    /// Runs `page` with the plan that reads a page of matches ending at
    /// match `pageEnd` fastest (PostgreSQL probes how many rows match
    /// `match` in `index` and picks by that; SQLite's FTS5 always walks);
    /// may answer nothing without running `page` when nothing matches.
    func searchPage(index: String, match: String, pageEnd: Int, _ page: (SearchPlan) throws(Failure) -> [Int64]) throws(Failure) -> [Int64]
}

/// One query of a batch (`CatalogReadSource.forEachRow(_:endingSnapshot:_:)`):
/// its SQL and the values of its parameters.
@usableFromInline
package struct ReadQuery: Sendable {
    @usableFromInline package var sql: String
    @usableFromInline package var arguments: SQLArguments

    @inlinable
    package init(sql: String, arguments: SQLArguments) {
        self.sql = sql
        self.arguments = arguments
    }
}

extension CatalogReadSource {
    /// Runs `body`, turning the backend's error into a `CatalogError`
    /// about `action` (`CatalogErrorConvertible`) with a reader's advice: the backend's own where it
    /// fits a read (a damaged file, a server that cannot be reached), else
    /// what to do when an import holds the catalog or a query fails.
    @inlinable
    package func attempt<T>(_ action: @autoclosure () -> String, _ body: () throws(Failure) -> T) throws(CatalogError) -> T {
        do {
            return try body()
        } catch {
            throw readError(error, while: action())
        }
    }

    /// `error` as `attempt` throws it.
    @usableFromInline
    package func readError(_ error: Failure, while action: String) -> CatalogError {
        var wrapped = error.catalogError(while: action)
        switch wrapped.kind {
        case .corrupt, .connection:
            break
        case .busy:
            wrapped.hint = "An import is writing the catalog; ask again when it is done"
        case .full, .readOnly, .notFound, .constraint, .usage, .incompatible, .failed:
            // The import-side advice does not fit a read.
            wrapped.hint = "The catalog could not answer; check it with `epf tables`, or import again"
        }
        return wrapped
    }
}
