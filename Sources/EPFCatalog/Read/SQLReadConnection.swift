/// What the read engine asks of a backend's connection itself
/// (`SQLiteDatabase`, `PostgresConnection`): its transactions and the
/// statements that return no rows. Queries with rows go through the
/// `CatalogReadSource`, which reads them its own way.
@usableFromInline
package protocol SQLReadConnection: AnyObject {
    /// The backend's own error.
    associatedtype Failure: CatalogErrorConvertible
    /// Whether a transaction is open.
    var inTransaction: Bool { get }
    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(Failure)
    /// Rolls back the open transaction, if any; errors are ignored.
    func rollback()
}
