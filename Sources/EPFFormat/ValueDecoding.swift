#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decoders for the text of one field into the stored forms. Each works on
/// the bytes in place and allocates nothing.
@usableFromInline package enum ValueDecoding {
    /// `-?[0-9]{1,19}` that fits in Int64, else nil.
    @inlinable
    package static func integer(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int64? {
        guard count > 0 else { return nil }
        var index = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative || p[0] == UInt8(ascii: "+") { index = 1 }
        guard index < count, count - index <= 19 else { return nil }
        var magnitude: UInt64 = 0
        while index < count {
            let digit = p[index] &- 0x30
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            index += 1
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// `1`/`0`/`true`/`false` (any case), else nil.
    @inlinable
    package static func boolean(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool? {
        if count == 1 {
            if p[0] == UInt8(ascii: "1") { return true }
            if p[0] == UInt8(ascii: "0") { return false }
            return nil
        }
        if count == 4, p[0] | 0x20 == UInt8(ascii: "t"), p[1] | 0x20 == UInt8(ascii: "r"),
            p[2] | 0x20 == UInt8(ascii: "u"), p[3] | 0x20 == UInt8(ascii: "e")
        {
            return true
        }
        if count == 5, p[0] | 0x20 == UInt8(ascii: "f"), p[1] | 0x20 == UInt8(ascii: "a"),
            p[2] | 0x20 == UInt8(ascii: "l"), p[3] | 0x20 == UInt8(ascii: "s"), p[4] | 0x20 == UInt8(ascii: "e")
        {
            return false
        }
        return nil
    }

    /// A decimal number (`2.990`, `-0.5`, `120`, `1.5e3`) as the Double
    /// nearest to its exact value, else nil.
    ///
    /// Up to 15 significant digits with at most 22 after the point, the value
    /// is mantissa / 10^scale: two exact doubles and one correctly rounded
    /// division, so the result is the nearest double. Longer forms go through
    /// `strtod`, which is also correctly rounded.
    @inlinable
    package static func decimal(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        guard count > 0, count < 64 else { return nil }
        var index = 0
        let negative = p[0] == UInt8(ascii: "-")
        if negative || p[0] == UInt8(ascii: "+") { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawPoint = false
        var sawDigit = false
        while index < count {
            let byte = p[index]
            if byte == UInt8(ascii: ".") {
                if sawPoint { return nil }
                sawPoint = true
            } else if byte &- 0x30 < 10 {
                sawDigit = true
                if mantissa != 0 || byte != 0x30 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                if sawPoint { scale += 1 }
            } else if byte | 0x20 == UInt8(ascii: "e") {
                return sawDigit ? slowDecimal(p, count) : nil
            } else {
                return nil
            }
            index += 1
            if digits > 15 { return slowDecimal(p, count) }
        }
        guard sawDigit, scale <= 22 else { return sawDigit ? slowDecimal(p, count) : nil }
        let magnitude = Double(mantissa) / powersOfTen[scale]
        return negative ? -magnitude : magnitude
    }

    @usableFromInline
    static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// Checks the full grammar `[+-]?digits[.digits][e[+-]digits]`, then
    /// lets `strtod` do the rounding.
    @usableFromInline
    static func slowDecimal(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var index = 0
        if p[0] == UInt8(ascii: "-") || p[0] == UInt8(ascii: "+") { index = 1 }
        var mantissaDigits = 0
        while index < count, p[index] &- 0x30 < 10 { index += 1; mantissaDigits += 1 }
        if index < count, p[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, p[index] &- 0x30 < 10 { index += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return nil }
        if index < count, p[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, p[index] == UInt8(ascii: "-") || p[index] == UInt8(ascii: "+") { index += 1 }
            var exponentDigits = 0
            while index < count, p[index] &- 0x30 < 10 { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == count else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            for i in 0..<count { buffer[i] = CChar(bitPattern: p[i]) }
            buffer[count] = 0
            let value = strtod(buffer.baseAddress!, nil)
            return value.isFinite ? value : nil
        }
    }

    /// Normalises an EPF date into `out` (at least 19 bytes) and returns the
    /// length written: `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`. Accepts
    /// `2012 03 06`, `2012 03 06 10 00 00`, `2005-09-06-00:00:00-Etc/GMT`
    /// (UTC zones only) and the ISO forms themselves; nil for anything else,
    /// which the caller keeps verbatim.
    @inlinable
    package static func date(_ p: UnsafePointer<UInt8>, _ count: Int, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        // Shapes by length; separators checked per position.
        func digits(_ at: Int, _ n: Int) -> Int? {
            var value = 0
            for i in at..<(at + n) {
                let d = p[i] &- 0x30
                guard d < 10 else { return nil }
                value = value * 10 + Int(d)
            }
            return value
        }
        let hasTime: Bool
        switch count {
        case 10:
            hasTime = false
            let sep = p[4]
            guard sep == 0x20 || sep == UInt8(ascii: "-"), p[7] == sep else { return nil }
        case 19:
            hasTime = true
            let sep = p[4]
            if sep == 0x20 {
                guard p[7] == 0x20, p[10] == 0x20, p[13] == 0x20, p[16] == 0x20 else { return nil }
            } else if sep == UInt8(ascii: "-") {
                guard p[7] == sep, p[10] == 0x20 || p[10] == UInt8(ascii: "T"),
                    p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":")
                else { return nil }
            } else {
                return nil
            }
        default:
            // 2005-09-06-00:00:00-<zone>, zone one of the UTC names.
            guard count > 20, p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[10] == UInt8(ascii: "-"),
                p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: "-"),
                isUTCZone(p + 20, count - 20)
            else { return nil }
            hasTime = true
        }
        guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            year > 0, month >= 1, month <= 12, day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        writeDigits(out, p, 0, 4)
        out[4] = UInt8(ascii: "-")
        writeDigits(out + 5, p, 5, 2)
        out[7] = UInt8(ascii: "-")
        writeDigits(out + 8, p, 8, 2)
        guard hasTime else { return 10 }
        guard let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            hour < 24, minute < 60, second < 61
        else { return nil }
        out[10] = 0x20
        writeDigits(out + 11, p, 11, 2)
        out[13] = UInt8(ascii: ":")
        writeDigits(out + 14, p, 14, 2)
        out[16] = UInt8(ascii: ":")
        writeDigits(out + 17, p, 17, 2)
        return 19
    }

    @usableFromInline
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    @usableFromInline
    static func writeDigits(_ out: UnsafeMutablePointer<UInt8>, _ p: UnsafePointer<UInt8>, _ at: Int, _ n: Int) {
        for i in 0..<n { out[i] = p[at + i] }
    }

    @usableFromInline
    static func isUTCZone(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let zone = UnsafeBufferPointer(start: p, count: count)
        for name in ["Etc/GMT", "GMT", "UTC", "Etc/UTC", "Z"] where zone.elementsEqual(name.utf8) {
            return true
        }
        return false
    }

    /// Whether a field's text is a valid value of `kind` (empty fits all).
    /// Used to decide where the extra fields of a damaged row belong.
    package static func fits(_ p: UnsafePointer<UInt8>, _ count: Int, kind: ColumnType.Kind) -> Bool {
        guard count > 0 else { return true }
        switch kind {
        case .integer: return integer(p, count) != nil
        case .boolean: return boolean(p, count) != nil
        case .decimal: return decimal(p, count) != nil
        case .date:
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 19) { out in
                date(p, count, into: out.baseAddress!) != nil
            }
        case .text, .freeText, .unknown: return true
        }
    }
}
