/// A backend's own error (a `SQLiteError`, a `PostgresError`) that can
/// say what it is as a `CatalogError`: its kind, its message, the
/// backend's advice.
@usableFromInline
package protocol CatalogErrorConvertible: Error {
    /// The error, met while doing `action`, as a `CatalogError` about it
    /// (`"action: message"`).
    func catalogError(while action: String) -> CatalogError
}
