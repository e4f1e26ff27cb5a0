import EPFFormat
import Testing

@testable import EPFLake

/// The lake's conversions of decoded values into Parquet's stored forms.
@Suite struct LakeValuesTests {
    func unscaled(_ text: String, scale: Int) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { LakeValues.unscaled($0.baseAddress!, $0.count, scale: scale) }
    }

    func milliseconds(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBufferPointer { LakeValues.milliseconds($0.baseAddress!, count: $0.count) }
    }

    @Test func decimalsAreUnscaledExactly() {
        #expect(unscaled("2.99", scale: 3) == 2990)
        #expect(unscaled("2.990", scale: 3) == 2990)
        #expect(unscaled("120", scale: 3) == 120_000)
        #expect(unscaled("-0.5", scale: 3) == -500)
        #expect(unscaled("+7.", scale: 2) == 700)
        #expect(unscaled("0.000", scale: 3) == 0)
        // Extra fractional digits only when they are zeros: never rounded.
        #expect(unscaled("1.23400", scale: 3) == 1234)
        #expect(unscaled("1.2345", scale: 3) == nil)
        // 18 digits in all, whatever DECIMAL(9,3) declared.
        #expect(unscaled("123456789012345.678", scale: 3) == 123_456_789_012_345_678)
        #expect(unscaled("1234567890123456.789", scale: 3) == nil)
        #expect(unscaled("1.5e3", scale: 3) == nil)
    }

    @Test func datesAreMillisecondsUTC() {
        #expect(milliseconds("1970-01-01") == 0)
        #expect(milliseconds("2012-03-06") == 1_330_992_000_000)
        #expect(milliseconds("2012-03-06 10:00:01") == 1_331_028_001_000)
        #expect(milliseconds("1969-12-31 23:59:59") == -1000)
        #expect(milliseconds("2000-02-29") == 951_782_400_000)
        #expect(milliseconds("2016-12-31 23:59:60") == nil)  // a leap second
    }

    @Test func partitionDays() {
        #expect(LakeValues.isoDay(milliseconds: 0) == "1970-01-01")
        #expect(LakeValues.isoDay(milliseconds: 1_452_074_401_007) == "2016-01-06")
        #expect(LakeValues.isoDay(milliseconds: -1) == "1969-12-31")
        #expect(LakeValues.isoDay(milliseconds: 951_782_400_000 + 86_399_999) == "2000-02-29")
    }

    @Test func typesMapAsTheIssueSays() {
        #expect(LakeColumn(ColumnType(declared: "BIGINT")) == .int64)
        #expect(LakeColumn(ColumnType(declared: "INTEGER")) == .int32)
        #expect(LakeColumn(ColumnType(declared: "BOOLEAN")) == .boolean)
        #expect(LakeColumn(ColumnType(declared: "DECIMAL(9,3)")) == .decimal(scale: 3))
        #expect(LakeColumn(ColumnType(declared: "DECIMAL(9, 2)")) == .decimal(scale: 2))
        #expect(LakeColumn(ColumnType(declared: "FLOAT")) == .decimal(scale: LakeColumn.defaultDecimalScale))
        #expect(LakeColumn(ColumnType(declared: "DATETIME")) == .timestamp)
        #expect(LakeColumn(ColumnType(declared: "VARCHAR(1000)")) == .string)
        #expect(LakeColumn(ColumnType(declared: "LONGTEXT")) == .string)
    }
}
