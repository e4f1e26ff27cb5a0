import EPFCatalogRead

/// A failed libpq call or a statement the server refused, with its
/// passwords already scrubbed.
package struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The server's SQLSTATE (`23505` unique violation, ...), if it sent one.
    package var sqlState: String?
    /// The message, first line first (libpq's primary message, then
    /// `DETAIL`/`CONTEXT` lines).
    package var message: String
    /// For an error inside a COPY stream: the line of that stream, from the
    /// server's CONTEXT (`COPY t, line 12, column c: ...`).
    package var copyLine: Int?

    package init(sqlState: String?, message: String, copyLine: Int? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.copyLine = copyLine
    }

    package var description: String { message }

    /// A unique index could not be built: the key repeats.
    package var isUniqueViolation: Bool { sqlState == "23505" }

    /// The server's disk is full (`disk_full`).
    package var isDiskFull: Bool { sqlState == "53100" }

    /// Advice for the errors a user can do something about.
    var hint: String {
        switch sqlState {
        case "53100"?:
            return
                "The server's disk is full; free space (a FULL import needs about the table's size again) and run the import again: it resumes from its last checkpoint"
        case "28P01"?, "28000"?: return "Check the user and password (in the URL, $PGPASSWORD or ~/.pgpass)"
        case "3D000"?: return "Create the database first (createdb NAME) or name an existing one in the URL"
        case "42501"?: return "The user may not create tables there; grant it CREATE on the schema or use another user"
        case "57P01"?, "57P02"?, "57P03"?: return "The server shut down or is starting; run the import again when it is up"
        default:
            if sqlState == nil || sqlState?.hasPrefix("08") == true {
                return "Check that the server runs and the URL (host, port, database) is right"
            }
            return "Nothing was applied from this file; run the import again after fixing the cause"
        }
    }
}

extension PostgresError {
    /// The catalog-level kind of this error, from its SQLSTATE class.
    package var kind: CatalogError.Kind {
        guard let sqlState else { return .connection }
        switch sqlState {
        case "53100": return .full
        case "23505": return .constraint
        case "3D000": return .notFound
        case "42501": return .readOnly
        case "55P03", "40P01": return .busy
        default:
            if sqlState.hasPrefix("08") || sqlState.hasPrefix("28") || sqlState.hasPrefix("57P") { return .connection }
            return .failed
        }
    }
}

extension CatalogError {
    /// Wraps a PostgreSQL error met while doing `action`.
    /// A full disk makes the importer keep what is committed, to resume.
    package init(_ error: PostgresError, while action: String) {
        self.init(error.kind, detail: "\(action): \(error.message)", hint: error.hint, underlying: error)
    }
}

extension PostgresError: CatalogErrorConvertible {
    package func catalogError(while action: String) -> CatalogError { CatalogError(self, while: action) }
}
