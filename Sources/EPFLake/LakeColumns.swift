import EPFFormat
@_spi(Benchmarks) import EPFParquet

/// How one EPF column is stored in the lake's Parquet files: the Parquet
/// type its declared `#dbTypes` entry maps to.
///
/// | EPF | Parquet |
/// | --- | --- |
/// | BIGINT, MEDIUMINT (kind integer) | INT64 |
/// | INTEGER, INT, TINYINT, SMALLINT | INT32 |
/// | BOOLEAN | BOOLEAN |
/// | DECIMAL(p,s), NUMERIC(p,s) | DECIMAL(18,s): real prices exceed the declared p |
/// | DECIMAL, FLOAT, DOUBLE, REAL without a scale | DECIMAL(18,6) |
/// | DATETIME, DATE, TIMESTAMP | TIMESTAMP(MILLIS, UTC) |
/// | VARCHAR, CHAR, TEXT, TIME, LONGTEXT, CLOB, unknown | STRING |
package enum LakeColumn: Sendable, Equatable {
    case int64
    case int32
    case boolean
    /// Unscaled by 10^scale into an Int64 of at most 18 digits.
    case decimal(scale: Int)
    case timestamp
    case string

    /// Digits of the lake's decimals: every value an Int64 holds with 18
    /// digits, whatever precision the header declares.
    package static let decimalPrecision = 18
    /// The scale of a decimal column whose type names none.
    package static let defaultDecimalScale = 6

    package init(_ type: ColumnType) {
        switch type.kind {
        case .integer:
            let name = Self.baseName(type.declared)
            self = name == "BIGINT" || name == "MEDIUMINT" ? .int64 : .int32
        case .boolean: self = .boolean
        case .decimal: self = .decimal(scale: Self.declaredScale(type.declared) ?? Self.defaultDecimalScale)
        case .date: self = .timestamp
        case .text, .freeText, .unknown: self = .string
        }
    }

    /// The Parquet type.
    package var parquetType: ParquetType {
        switch self {
        case .int64: .int64
        case .int32: .int32
        case .boolean: .boolean
        case .decimal(let scale): .decimal(precision: Self.decimalPrecision, scale: scale)
        case .timestamp: .timestampMillis
        case .string: .string
        }
    }

    /// The Parquet schema of a table file with `header`. Every text column
    /// may be dictionary-encoded: the writer keeps a dictionary only where
    /// it pays (`ParquetColumnBuffer`), as DuckDB and parquet-mr do.
    package static func schema(for header: EPFHeader) throws -> (ParquetSchema, [LakeColumn]) {
        let columns = header.types.map(LakeColumn.init)
        let parquet = zip(header.columns, columns).map { name, column in
            ParquetColumn(name, column.parquetType, dictionary: column == .string)
        }
        return (try ParquetSchema(parquet), columns)
    }

    static func baseName(_ declared: String) -> String {
        var base = Substring(declared)
        if let paren = base.firstIndex(of: "(") { base = base[..<paren] }
        return base.trimmingCharacters(in: " \t").uppercased()
    }

    /// `s` of `DECIMAL(p,s)`; nil when the type names no scale.
    static func declaredScale(_ declared: String) -> Int? {
        guard let open = declared.firstIndex(of: "("), let close = declared.lastIndex(of: ")"), open < close else { return nil }
        let parts = declared[declared.index(after: open)..<close].split(separator: ",")
        guard parts.count == 2, let scale = Int(parts[1].trimmingCharacters(in: " \t")), (0...decimalPrecision).contains(scale)
        else { return nil }
        return scale
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var result = self
        while let first = result.first, set.contains(first) { result.removeFirst() }
        while let last = result.last, set.contains(last) { result.removeLast() }
        return String(result)
    }
}

/// Conversions of the decoder's values into the lake's stored forms; each
/// returns nil for a value the lake's column cannot hold exactly.
package enum LakeValues {
    /// The exact decimal text (`2.99`, `-0.5`, `120`) unscaled by 10^scale:
    /// nil for an exponent form, more fractional digits than `scale` (unless
    /// the extra ones are zeros), or more than 18 digits.
    @inline(__always)
    package static func unscaled(_ p: UnsafePointer<UInt8>, _ count: Int, scale: Int) -> Int64? {
        var index = 0
        let negative = count > 0 && p[0] == UInt8(ascii: "-")
        if negative || (count > 0 && p[0] == UInt8(ascii: "+")) { index = 1 }
        var value: Int64 = 0
        var fraction = -1  // digits after the point; -1 before it
        var digits = 0
        while index < count {
            let byte = p[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                guard fraction < 0 else { return nil }
                fraction = 0
                continue
            }
            let digit = byte &- 0x30
            guard digit < 10 else { return nil }
            if fraction >= 0 {
                if fraction == scale {
                    guard digit == 0 else { return nil }  // would need rounding
                    continue
                }
                fraction += 1
            }
            if value != 0 || digit != 0 { digits += 1 }
            guard digits <= LakeColumn.decimalPrecision else { return nil }
            value = value * 10 + Int64(digit)
        }
        for _ in max(0, fraction)..<scale {
            value *= 10
            if value != 0 { digits += 1 }
            guard digits <= LakeColumn.decimalPrecision else { return nil }
        }
        return negative ? -value : value
    }

    /// Milliseconds since 1970 UTC of a normalised date, `YYYY-MM-DD`
    /// (midnight) or `YYYY-MM-DD HH:MM:SS`; nil for a leap second (`:60`),
    /// which a timestamp cannot hold.
    @inline(__always)
    package static func milliseconds(_ iso: UnsafePointer<UInt8>, count: Int) -> Int64? {
        func number(_ at: Int, _ n: Int) -> Int64 {
            var value: Int64 = 0
            for i in at..<(at + n) { value = value * 10 + Int64(iso[i] &- 0x30) }
            return value
        }
        guard count == 10 || count == 19 else { return nil }
        let days = daysSince1970(year: number(0, 4), month: number(5, 2), day: number(8, 2))
        var seconds = days * 86_400
        if count == 19 {
            let second = number(17, 2)
            guard second < 60 else { return nil }
            seconds += number(11, 2) * 3600 + number(14, 2) * 60 + second
        }
        return seconds * 1000
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar
    /// (Howard Hinnant's `days_from_civil`).
    package static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `YYYY-MM-DD` (UTC) of epoch milliseconds: the partition's name.
    package static func isoDay(milliseconds: Int64) -> String {
        var days = milliseconds / 86_400_000
        if milliseconds % 86_400_000 < 0 { days -= 1 }
        // Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
