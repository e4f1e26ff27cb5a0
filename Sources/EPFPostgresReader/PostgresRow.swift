import CLibPQ
import EPFCatalogRead

/// One row of a libpq result (text format), read in place: valid while
/// the result is (`PostgresConnection.forEachRow`). Values keep their kind
/// as SQLite would give it (`value`): integers (`int2/4/8`, `oid`) as
/// integers, `float4/8` and `numeric` as reals (as SQLite holds decimals),
/// booleans as 1 and 0, everything else (dates, text, arrays, JSON) as
/// PostgreSQL writes it.
package struct PostgresRow: ReadRow {
    let result: OpaquePointer
    let row: Int32

    init(_ result: OpaquePointer, row: Int32) {
        self.result = result
        self.row = row
    }

    package var count: Int { Int(PQnfields(result)) }

    package func name(_ column: Int) -> String { String(cString: PQfname(result, Int32(column))) }

    package func integer(_ column: Int) -> Int64? { text(column).flatMap { Int64($0) } }

    package func number(_ column: Int) -> Double? { ResultAssembly.price(fromText: text(column)) }

    package func text(_ column: Int) -> String? {
        let index = Int32(column)
        guard PQgetisnull(result, row, index) == 0 else { return nil }
        return String(cString: PQgetvalue(result, row, index))
    }

    package func value(_ column: Int) -> SQLValue {
        guard let text = text(column) else { return .null }
        return Self.value(text, type: PQftype(result, Int32(column)))
    }

    /// A value of the type with OID `type`, as SQLite would hold it.
    static func value(_ text: String, type: Oid) -> SQLValue {
        switch type {
        case 20, 21, 23, 26:  // int8, int2, int4, oid
            return Int64(text).map(SQLValue.integer) ?? .text(text)
        case 700, 701, 1700:  // float4, float8, numeric
            return Double(text).map(SQLValue.real) ?? .text(text)
        case 16:  // bool
            return .integer(text == "t" ? 1 : 0)
        default:
            return .text(text)
        }
    }
}
