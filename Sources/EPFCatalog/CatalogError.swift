/// A problem on the catalog side of an import: the database refused
/// something, or the catalog and a file do not go together.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public var detail: String
    public var hint: String
    public var underlying: SQLiteError?
    /// The catalog's disk has no room for what the import was about to do.
    public var isOutOfSpace = false
    /// The error came from a database server or the connection to it (a
    /// PostgreSQL catalog), not from what was asked of it.
    public var isServerError = false

    public init(detail: String, hint: String, underlying: SQLiteError? = nil) {
        self.detail = detail
        self.hint = hint
        self.underlying = underlying
    }

    /// Wraps a SQLite error met while doing `action`, with advice for the
    /// errors a user can do something about.
    public init(_ error: SQLiteError, while action: String) {
        let hint: String
        if error.isDiskFull {
            hint = "The disk is full; free space (a FULL import needs about the table's size again) and run the import again: it resumes from its last checkpoint"
        } else if error.isBusy {
            hint = "Another process holds the catalog; wait for it to finish and run the import again"
        } else if error.code == 8 /* SQLITE_READONLY */ || error.code == 14 /* SQLITE_CANTOPEN */ {
            hint = "Check that the catalog's folder and file are writable"
        } else if error.code == 11 /* SQLITE_CORRUPT */ || error.code == 26 /* SQLITE_NOTADB */ {
            hint = "The catalog file is damaged or not a SQLite database; restore it or start a new one"
        } else {
            hint = "Nothing was applied from this file; run the import again after fixing the cause"
        }
        self.init(detail: "\(action): \(error.message)", hint: hint, underlying: error)
    }

    /// The error of a load refused for want of disk space.
    public static func outOfSpace(detail: String, hint: String) -> CatalogError {
        var error = CatalogError(detail: detail, hint: hint)
        error.isOutOfSpace = true
        return error
    }

    /// The error of a catalog whose `epf_schema` records `step`, which
    /// this binary does not know: a newer epf wrote it.
    public static func newerCatalog(_ catalog: String, step: String) -> CatalogError {
        CatalogError(
            detail: "\(catalog) was written by a newer version of epf (schema step \(step) unknown to this one); use that version or newer",
            hint: "")
    }

    public var description: String { hint.isEmpty ? detail : "\(detail). \(hint)" }
}
