import CSQLite
import EPFCatalogRead

/// A prepared statement. Binding text by pointer (`bindStatic`) lets the
/// loader hand SQLite the input bytes themselves, with no copy; the bytes
/// must then stay valid until the statement is stepped and reset.
///
/// Not thread-safe: a statement belongs to its connection's thread.
package final class SQLiteStatement {
    @usableFromInline let handle: OpaquePointer
    unowned let database: SQLiteDatabase
    package let sql: String

    init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(database: database.handle, code: code, sql: sql)
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    /// Takes over a statement prepared elsewhere (`handle` is finalized with
    /// this object).
    init(database: SQLiteDatabase, handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Whether the statement cannot write the database (`sqlite3_stmt_readonly`).
    package var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    // MARK: Binding (parameter indexes are 1-based, as in SQLite)

    @inlinable
    package func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inlinable
    package func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
    }

    @inlinable
    package func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Binds `count` bytes at `bytes` as TEXT without copying them. The
    /// bytes must be valid UTF-8 and stay alive until the next `reset()`.
    @inlinable
    package func bindStatic(_ bytes: UnsafePointer<UInt8>, count: Int, at index: Int32) {
        bytes.withMemoryRebound(to: CChar.self, capacity: count) { text in
            _ = sqlite3_bind_text64(handle, index, text, sqlite3_uint64(count), nil, UInt8(SQLITE_UTF8))
        }
    }

    /// Binds `bytes` as a BLOB without copying them; they must stay alive
    /// until the next `reset()`.
    package func bindStatic(bytes: UnsafeRawBufferPointer, at index: Int32) {
        // A BLOB of no bytes is still a BLOB, not NULL: SQLite takes a
        // non-nil pointer for it.
        let pointer = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
        _ = sqlite3_bind_blob64(handle, index, pointer, sqlite3_uint64(bytes.count), nil)
    }

    /// Binds a Swift string (copied by SQLite).
    package func bind(_ value: String, at index: Int32) {
        _ = sqlite3_bind_text(handle, index, value, -1, sqliteTransient)
    }

    /// Binds an optional value of any kind `SQLValue` can hold.
    package func bind(_ value: SQLValue, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let number): bind(number, at: index)
        case .real(let number): bind(number, at: index)
        case .text(let text): bind(text, at: index)
        }
    }

    /// Binds `values` to parameters 1...n.
    package func bind(_ values: [SQLValue]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    // MARK: Running

    /// Runs one step: true when a row is ready to read, false when done.
    @inlinable
    @discardableResult
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw stepError(code)
    }

    @usableFromInline
    func stepError(_ code: Int32) -> SQLiteError {
        SQLiteError(database: database.handle, code: code, sql: sql)
    }

    /// Makes the statement ready to run again; bindings are kept.
    @inlinable
    package func reset() {
        sqlite3_reset(handle)
    }

    /// Runs the statement to the end with `values` bound, then resets it.
    package func execute(_ values: [SQLValue] = []) throws(SQLiteError) {
        defer { reset() }
        bind(values)
        while try step() {}
    }

    // MARK: Reading the current row

    package var columnCount: Int { row.count }

    package func columnName(_ index: Int) -> String { row.name(index) }

    package func value(_ index: Int) -> SQLValue { row.value(index) }

    package func int64(_ index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    package func string(_ index: Int) -> String? { row.text(index) }

    /// The bytes of column `index` of the current row, valid until the
    /// next step or reset; empty for NULL or an empty value.
    package func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(handle, Int32(index))
        return UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, Int32(index))))
    }

    /// Whether column `index` of the current row is NULL.
    package func isNull(_ index: Int) -> Bool { sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL }

    /// The current row, read in place.
    package var row: SQLiteRow { SQLiteRow(handle) }

    /// All rows of the statement as values, with `values` bound.
    package func rows(_ values: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        defer { reset() }
        bind(values)
        var result: [[SQLValue]] = []
        let count = columnCount
        while try step() {
            result.append((0..<count).map(value))
        }
        return result
    }
}

/// SQLite's SQLITE_TRANSIENT: "copy the bytes now".
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
