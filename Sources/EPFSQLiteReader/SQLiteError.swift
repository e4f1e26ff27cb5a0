import CSQLite
import EPFCatalogRead

/// An error reported by SQLite, with the statement that caused it.
package struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's primary result code (`SQLITE_CONSTRAINT`, `SQLITE_FULL`, ...).
    package var code: Int32
    /// SQLite's extended result code.
    package var extendedCode: Int32
    /// SQLite's message.
    package var message: String
    /// The SQL that failed, when there was one.
    package var sql: String?

    package init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    package init(database: OpaquePointer?, code: Int32, sql: String? = nil) {
        let message = database.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        let extended = database.map { sqlite3_extended_errcode($0) } ?? code
        self.init(code: code, extendedCode: extended, message: message, sql: sql)
    }

    package var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
    package var isDiskFull: Bool { code == SQLITE_FULL }
    package var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    package var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (in: \(sql.count > 200 ? String(sql.prefix(200)) + "..." : sql))" }
        return text
    }
}

extension SQLiteError {
    /// The catalog-level kind of this error.
    package var kind: CatalogError.Kind {
        switch code {
        case SQLITE_FULL: return .full
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: return .readOnly
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        case SQLITE_CONSTRAINT: return .constraint
        default: return .failed
        }
    }
}

extension CatalogError {
    /// Wraps a SQLite error met while doing `action`, with advice for the
    /// errors a user can do something about.
    package init(_ error: SQLiteError, while action: String) {
        self.init(error.kind, detail: "\(action): \(error.message)", hint: CatalogError.hint(for: error.kind), underlying: error)
    }
}

extension SQLiteError: CatalogErrorConvertible {
    package func catalogError(while action: String) -> CatalogError { CatalogError(self, while: action) }
}
