/// A problem on the catalog side of an import or a query: the database
/// refused something, or the catalog and a request do not go together.
///
/// Every backend turns its own errors (SQLite result codes, PostgreSQL
/// SQLSTATEs) into a `Kind` where they happen; nothing above the backends
/// looks at a raw code. The command line maps the kind to an exit status.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as far as a caller can act on it.
    public enum Kind: String, Sendable, CaseIterable {
        /// Another process holds the catalog (a lock, a busy database).
        case busy
        /// The disk (or the server's disk) has no room.
        case full
        /// The catalog file is damaged or is not a catalog.
        case corrupt
        /// The catalog or its folder may not be written (or opened).
        case readOnly
        /// The catalog, a table or an index the request needs is not there.
        case notFound
        /// Stored data breaks a rule the operation needs (a repeated key).
        case constraint
        /// The database server could not be reached, refused the login or
        /// went away.
        case connection
        /// The request itself is wrong (a negative limit, an unknown
        /// country, a bad option value): exit status 64.
        case usage
        /// The catalog was written by another version of epf, or by a
        /// database server too old for it.
        case incompatible
        /// Anything else the database refused.
        case failed
    }

    /// What went wrong, as far as a caller can act on it.
    public var kind: Kind
    /// What went wrong, in plain words, naming the catalog and the action.
    public var detail: String
    /// What the user can do about it (may be empty).
    public var hint: String
    /// The backend's own error (a `SQLiteError`, a `PostgresError`), for
    /// logs and tests; decisions use `kind`.
    public var underlying: (any Error & Sendable)?
    /// Whether the request's storefront is what is refused (an unknown
    /// country, one not imported): the HTTP API names `country` for it,
    /// whichever question refused it.
    @usableFromInline package var refusesStorefront = false

    @usableFromInline
    package init(_ kind: Kind, detail: String, hint: String, underlying: (any Error & Sendable)? = nil) {
        self.kind = kind
        self.detail = detail
        self.hint = hint
        self.underlying = underlying
    }

    /// The advice for a kind when the backend has none more precise.
    package static func hint(for kind: Kind) -> String {
        switch kind {
        case .full:
            return
                "The disk is full; free space (a FULL import needs about the table's size again) and run the import again: it resumes from its last checkpoint"
        case .busy: return "Another process holds the catalog; wait for it to finish and run the import again"
        case .readOnly: return "Check that the catalog's folder and file are writable"
        case .corrupt: return "The catalog file is damaged or not a SQLite database; restore it or start a new one"
        case .notFound, .constraint, .connection, .usage, .incompatible, .failed:
            return "Nothing was applied from this file; run the import again after fixing the cause"
        }
    }

    /// The error of a catalog whose `epf_schema` records `step`, which
    /// this binary does not know: a newer epf wrote it.
    package static func newerCatalog(_ catalog: String, step: String) -> CatalogError {
        CatalogError(
            .incompatible,
            detail: "\(catalog) was written by a newer version of epf (schema step \(step) unknown to this one); use that version or newer",
            hint: "")
    }

    /// `detail. hint`: one line for a person.
    public var description: String { hint.isEmpty ? detail : "\(detail). \(hint)" }
}
