import EPFCatalogCore
import EPFCatalogRead

/// What the SQL stores' shared algorithms (apply, journal, table info,
/// lookup index) ask of a database connection. A backend conforms its
/// connection (`SQLiteDatabase`, `PostgresConnection`); the algorithms are
/// written once, over this, in `SQLStoreBackend`'s extensions.
///
/// Errors are the backend's own (`SQLiteError`, `PostgresError`): the
/// store that called an algorithm wraps them into a `CatalogError` with
/// what it was doing.
package protocol SQLConnection: AnyObject {
    /// Runs statements that return no rows.
    func execute(_ sql: String) throws
    /// Runs one statement with `bytes` bound to parameter 1 (a column of
    /// the dialect's `bytesType`) and `values` to the parameters after it.
    func change(_ sql: String, bytes: [UInt8], _ values: [SQLValue]) throws
    /// Hands the bytes of the first column of the first row of `sql` (a
    /// column of `bytesType`) to `body`, in place; nil, and `body` not
    /// called, when there is no row or the value is NULL.
    func withBytes<Result>(_ sql: String, _ values: [SQLValue], _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result?
    /// All rows of a query with `values` bound to its parameters (spelled
    /// by the dialect: `?n`, `$n`).
    func rows(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]]
    /// Runs one statement with `values` bound; returns the rows it changed.
    @discardableResult func change(_ sql: String, _ values: [SQLValue]) throws -> Int
    /// Runs `sql`; false, and nothing changed, when it fails on a unique
    /// violation (a unique index over repeated keys).
    func executeUnlessUniqueViolation(_ sql: String) throws -> Bool
    /// Starts a transaction that writes.
    func begin() throws
    func commit() throws
    /// Rolls back the open transaction, if any; never fails.
    func rollback()
    /// Whether a table of that name exists (in the catalog's schema).
    func tableExists(_ table: String) throws -> Bool
    /// The names of a table's columns, in table order.
    func columnNames(of table: String) throws -> [String]
    /// An index of `table` on exactly `columns` (in any order), unique ones
    /// only when `uniqueOnly`; nil when there is none.
    func index(on table: String, columns: [String], uniqueOnly: Bool) throws -> String?
    /// `base`, or a variant of it, that no index has: key and lookup index
    /// names alternate between FULL imports, because an index keeps its
    /// name when its table is renamed into place.
    func freeIndexName(base: String) throws -> String
    /// `error`, met while doing `action`, as a `CatalogError` of the kind
    /// the backend's code says, if it is the backend's own error.
    func backendError(_ error: any Error, while action: String) -> CatalogError?
}

extension SQLConnection {
    /// `error`, met while doing `action`, as a `CatalogError` (one stays as
    /// it is).
    package func catalogError(_ error: any Error, while action: String) -> CatalogError {
        if let error = error as? CatalogError { return error }
        return backendError(error, while: action) ?? CatalogError(.failed, detail: "\(action): \(error)", hint: "")
    }

    /// The first column of the first row, or nil.
    package func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> SQLValue? {
        try rows(sql, values).first?.first
    }

    /// Runs `body`; what it throws comes out as a `CatalogError` that says
    /// it happened while doing `action`.
    package func doing<T>(_ action: @autoclosure () -> String, _ body: () throws -> T) throws(CatalogError) -> T {
        do {
            return try body()
        } catch {
            throw catalogError(error, while: action())
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back
    /// when it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try begin()
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollback()
            throw error
        }
    }
}
