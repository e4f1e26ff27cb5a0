import CSQLite
import EPFCatalogRead

/// The current row of a stepped statement (`SQLiteStatement`), read in
/// place: valid until the statement steps again or is reset.
package struct SQLiteRow: ReadRow {
    @usableFromInline let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    package var count: Int { Int(sqlite3_column_count(handle)) }

    package func name(_ column: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(column)))
    }

    package func integer(_ column: Int) -> Int64? {
        let index = Int32(column)
        guard sqlite3_column_type(handle, index) == SQLITE_INTEGER else { return nil }
        return sqlite3_column_int64(handle, index)
    }

    /// An integer, a real, or text holding a number (spaces around it are
    /// allowed).
    package func number(_ column: Int) -> Double? {
        let index = Int32(column)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return Double(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return sqlite3_column_double(handle, index)
        default: return ResultAssembly.price(fromText: textOfTextColumn(index))
        }
    }

    package func text(_ column: Int) -> String? {
        let index = Int32(column)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER, SQLITE_FLOAT: return value(column).textValue
        default: return textOfTextColumn(index)
        }
    }

    package func value(_ column: Int) -> SQLValue {
        let index = Int32(column)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        default: return .text(textOfTextColumn(index))
        }
    }

    /// A TEXT column's text; a BLOB is read as its bytes (the importer
    /// never stores BLOBs).
    private func textOfTextColumn(_ index: Int32) -> String {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
