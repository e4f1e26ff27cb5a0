import EPFFormat
import EPFTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls `body` with a pointer to the UTF-8 of `text` (never nil, even when
/// empty) and its length.
private func withText<R>(_ text: String, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
    let bytes = Array(text.utf8) + [0]
    return bytes.withUnsafeBufferPointer { body($0.baseAddress!, bytes.count - 1) }
}

private func integer(_ text: String) -> Int64? { withText(text) { ValueDecoding.integer($0, $1) } }
private func boolean(_ text: String) -> Bool? { withText(text) { ValueDecoding.boolean($0, $1) } }
private func decimal(_ text: String) -> Double? { withText(text) { ValueDecoding.decimal($0, $1) } }

private func date(_ text: String) -> String? {
    withText(text) { p, count in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { out in
            ValueDecoding.date(p, count, into: out.baseAddress!).map {
                String(decoding: UnsafeBufferPointer(start: out.baseAddress!, count: $0), as: UTF8.self)
            }
        }
    }
}

private func fits(_ text: String, _ kind: ColumnType.Kind) -> Bool {
    withText(text) { ValueDecoding.fits($0, $1, kind: kind) }
}

/// The C library's correctly rounded conversion, as the reference.
private func strtodValue(_ text: String) -> Double {
    text.withCString { strtod($0, nil) }
}

@Suite("Value decoding")
struct ValueDecodingTests {
    // MARK: Integers

    @Test func integers() {
        #expect(integer("0") == 0)
        #expect(integer("820188112") == 820_188_112)
        #expect(integer("1452074401007") == 1_452_074_401_007)
        #expect(integer("-42") == -42)
        #expect(integer("+42") == 42)
        #expect(integer("-0") == 0)
        #expect(integer("007") == 7)
    }

    @Test func integerBounds() {
        #expect(integer("9223372036854775807") == Int64.max)
        #expect(integer("-9223372036854775808") == Int64.min)
        #expect(integer("9223372036854775808") == nil)
        #expect(integer("-9223372036854775809") == nil)
        #expect(integer("9999999999999999999") == nil)
        #expect(integer("-9999999999999999999") == nil)
        #expect(integer("18446744073709551616") == nil)
        #expect(integer("99999999999999999999999") == nil)
    }

    @Test(arguments: ["", "-", "+", "1.0", "1e3", "12a", " 12", "12 ", "0x10", "--1", "1-", "١٢"])
    func notIntegers(text: String) {
        #expect(integer(text) == nil)
    }

    // MARK: Booleans

    @Test func booleans() {
        #expect(boolean("1") == true)
        #expect(boolean("0") == false)
        #expect(boolean("true") == true)
        #expect(boolean("TRUE") == true)
        #expect(boolean("False") == false)
        #expect(boolean("false") == false)
        for text in ["", "2", "yes", "no", "t", "f", "01", "truee", "fals", " 1"] {
            #expect(boolean(text) == nil, "\(text)")
        }
    }

    // MARK: Decimals

    @Test func decimals() {
        #expect(decimal("2.990") == 2.99)
        #expect(decimal("2.99") == 2.99)
        #expect(decimal("120") == 120)
        #expect(decimal("-0.5") == -0.5)
        #expect(decimal("+0.25") == 0.25)
        #expect(decimal("12345678901.000") == 12_345_678_901)
        #expect(decimal("0.000") == 0)
        #expect(decimal("1.") == 1)
        #expect(decimal(".5") == 0.5)
        #expect(decimal("1.5e3") == 1500)
        #expect(decimal("2E-2") == 0.02)
        #expect(decimal("0.1") == 0.1)
        #expect(decimal("999999999.999") == 999_999_999.999)
    }

    static let longDecimals = [
        "1234567890123456", "12345678901234567890", "9007199254740993", "0.1234567890123456789",
        "3.14159265358979323846", "123456789012.3456789", "-98765432109876.54321", "0.30000000000000004441",
        "100000000000000000000000", "0.0000000000000000000000000001", "1.000000000000000000001",
        "179769313486231570000000000000000000000", "2.2250738585072014e-308", "4.9406564584124654e-324",
        "1e22", "1e23", "8.589973e9", "12345678901234567890e-5", "000000000000000000001.5",
    ]

    @Test(arguments: longDecimals)
    func longDecimalsMatchStrtod(text: String) {
        #expect(decimal(text) == strtodValue(text))
    }

    @Test func shortDecimalsMatchStrtod() {
        // The fast path claims the nearest double: compare with strtod on
        // many random forms of up to 15 significant digits.
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<20000 {
            let digitCount = Int.random(in: 1...15, using: &generator)
            var digits = (0..<digitCount).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) }
            let point = Int.random(in: 0...digitCount, using: &generator)
            let leadingZeros = Int.random(in: 0...6, using: &generator)
            if point == 0 { digits.insert(contentsOf: Array(repeating: "0", count: leadingZeros), at: 0) }
            var text = String(digits)
            if point < digitCount {
                text.insert(".", at: text.index(text.startIndex, offsetBy: text.count - (digitCount - point)))
            }
            if Bool.random(using: &generator) { text = "-" + text }
            let expected = strtodValue(text)
            let actual = decimal(text)
            #expect(actual == expected, "\(text)")
            if actual != expected { break }
        }
    }

    @Test(arguments: [
        "", ".", "-", "+", "-.", "abc", "1.2.3", "1,5", "1e", "1e+", "e5", "-e5", "0x1p3", "inf", "nan", "Infinity",
        " 1", "1 ", "1.5 USD", "$1.50", "1e400", "--1",
    ])
    func notDecimals(text: String) {
        #expect(decimal(text) == nil)
    }

    // MARK: Dates

    @Test(arguments: [
        ("2012 03 06", "2012-03-06"),
        ("2012 03 06 10 00 00", "2012-03-06 10:00:00"),
        ("2012 03 06 00 00 00", "2012-03-06 00:00:00"),
        ("2005-09-06-00:00:00-Etc/GMT", "2005-09-06 00:00:00"),
        ("2005-09-06-13:45:10-UTC", "2005-09-06 13:45:10"),
        ("2012-03-06", "2012-03-06"),
        ("2012-03-06 10:00:00", "2012-03-06 10:00:00"),
        ("2012-03-06T23:59:59", "2012-03-06 23:59:59"),
        ("1999 12 31", "1999-12-31"),
    ])
    func dates(text: String, expected: String) {
        #expect(date(text) == expected)
    }

    @Test(arguments: [
        "1999", "99", "", "2012 13 01", "2012 00 10", "2012 03 00", "2012 03 32", "2012 03 06 24 00 00",
        "2012 03 06 10 60 00", "2005-09-06-00:00:00-America/New_York", "2005-09-06-00:00:00-Etc/GMT+5",
        "2012/03/06", "2012-03 06", "06 03 2012", "2012 3 6", "0000 01 01", "2012 03 06 10:00:00",
        "2012-03-06 10 00 00", "2012-03-06-00:00:00", "abcd ef gh",
    ])
    func notDates(text: String) {
        #expect(date(text) == nil)
    }

    // MARK: Fit

    @Test func fitsChecksTheKind() {
        for kind in [ColumnType.Kind.integer, .boolean, .decimal, .date, .text, .freeText, .unknown] {
            #expect(fits("", kind), "empty fits \(kind)")
        }
        #expect(fits("12", .integer))
        #expect(!fits("1.5", .integer))
        #expect(fits("1", .boolean))
        #expect(!fits("yes", .boolean))
        #expect(fits("1.5", .decimal))
        #expect(!fits("x", .decimal))
        #expect(fits("2012 03 06", .date))
        #expect(!fits("1999", .date))
        #expect(fits("anything\u{1}at all", .text))
        #expect(fits("anything", .freeText))
        #expect(fits("anything", .unknown))
    }
}
