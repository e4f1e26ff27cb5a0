#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes that end a record and split its fields.
///
/// EPF Relational ends records with `0x02 0x0A` and splits fields with
/// `0x01`; EPF Flat ends them with a newline and splits them with a tab
/// (Apple's EPFImporter, `EPFFlatConfig.json`). Any other pair can be named
/// (`epf import --record-separator`, `--field-separator`). The header rows
/// are the same in every form, each ended by the record separator.
public struct Separators: Sendable, Hashable, CustomStringConvertible {
    /// Ends every row, header rows included: one byte or more.
    public let record: [UInt8]
    /// Splits the fields of a row (and the names of the header rows).
    public let field: UInt8

    /// EPF Relational: `0x02 0x0A` rows, `0x01` fields.
    public static let relational = Separators(checkedRecord: [EPFByte.recordSeparator, EPFByte.newline], field: EPFByte.fieldSeparator)
    /// EPF Flat: newline rows, tab fields.
    public static let flat = Separators(checkedRecord: [0x0A], field: 0x09)

    /// Errors in a pair of separators given by a person.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong and what to give instead.
        public let description: String
    }

    /// A pair of separators: `record` at least one byte, `field` one byte
    /// that is not the record separator's first byte (a field could not
    /// then be told from the row's end).
    public init(record: [UInt8], field: UInt8) throws(Invalid) {
        guard !record.isEmpty else { throw Invalid(description: "the record separator is empty; give at least one byte") }
        guard !record.contains(field) else {
            throw Invalid(
                description:
                    "the field separator \(Self.escape([field])) is part of the record separator \(Self.escape(record)); give two different separators"
            )
        }
        guard field != EPFByte.hash, record.first != EPFByte.hash else {
            throw Invalid(description: "'#' starts every header row and cannot be a separator")
        }
        self.init(checkedRecord: record, field: field)
    }

    /// Separators as typed on a command line: each one text in which `\n`,
    /// `\t`, `\r`, `\\` and `\xHH` stand for their bytes (`\x02\n`, `\t`,
    /// `\x01`); the field separator must come to one byte.
    public init(escapedRecord: String, escapedField: String) throws(Invalid) {
        let record = try Self.unescape(escapedRecord, what: "record separator")
        let field = try Self.unescape(escapedField, what: "field separator")
        guard field.count == 1 else {
            throw Invalid(description: "the field separator '\(escapedField)' is \(field.count) bytes; give one byte, such as \\t or \\x01")
        }
        try self.init(record: record, field: field[0])
    }

    private init(checkedRecord: [UInt8], field: UInt8) {
        record = checkedRecord
        self.field = field
    }

    /// The two separators as escaped text, `record` then `field`, as the
    /// command line takes them: `\x02\n` and `\x01` for EPF Relational.
    public var description: String { "record \(Self.escape(record)), field \(Self.escape([field]))" }

    /// The separators as one stored text (`\x02\n|\x01`), for a journal
    /// entry or checkpoint that must be read back the same way.
    public var stored: String { "\(Self.escape(record))|\(Self.escape([field]))" }

    /// The record separator in words for error messages: `0x02 0x0A`.
    package var recordBytes: String { record.map { "0x" + hex($0) }.joined(separator: " ") }

    /// The field separator in words for error messages: `0x01`.
    package var fieldByte: String { "0x" + hex(field) }

    /// Whether these are EPF Relational's, whose parse is specialized.
    @inlinable public var isRelational: Bool { record.count == 2 && record[0] == 0x02 && record[1] == 0x0A && field == 0x01 }

    /// Finds the next record separator at or after `from` in
    /// `base[from..<end]`; returns the offset of its first byte. A first
    /// byte not followed by the rest of the separator is data.
    @inlinable
    package func findRecordEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
        if isRelational { return findRecordTerminator(base, from: from, end: end) }
        let length = record.count
        var position = from
        while position < end {
            guard let hit = memchr(base + position, Int32(record[0]), end - position) else { return nil }
            let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if offset + length <= end, (1..<length).allSatisfy({ base[offset + $0] == record[$0] }) { return offset }
            position = offset + 1
        }
        return nil
    }

    /// Finds the last complete record separator in `base[from..<end]` and
    /// returns the offset just past it (so `from..<result` holds whole
    /// rows), or nil. Once per chunk, not per row.
    package func lastRecordEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
        if isRelational { return lastRecordBoundary(base, from: from, end: end) }
        let length = record.count
        var offset = end - length
        while offset >= from {
            if (0..<length).allSatisfy({ base[offset + $0] == record[$0] }) { return offset + length }
            offset -= 1
        }
        return nil
    }

    package static func escape(_ bytes: [UInt8]) -> String {
        bytes.map { byte -> String in
            switch byte {
            case 0x0A: "\\n"
            case 0x09: "\\t"
            case 0x0D: "\\r"
            case 0x5C: "\\\\"
            case 0x21...0x7E: String(UnicodeScalar(byte))
            default: "\\x" + hex(byte)
            }
        }.joined()
    }

    static func unescape(_ text: String, what: String) throws(Invalid) -> [UInt8] {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == 0x5C else {
                bytes.append(byte)
                continue
            }
            switch input.popFirst() {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "x"):
                let digits = input.prefix(2)
                guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    throw Invalid(description: "the \(what) '\(text)' has a \\x not followed by two hex digits; write bytes as \\x01")
                }
                bytes.append(value)
                input = input.dropFirst(2)
            default:
                throw Invalid(description: "the \(what) '\(text)' has an unknown escape; use \\n, \\t, \\r, \\\\ or \\xHH")
            }
        }
        return bytes
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
