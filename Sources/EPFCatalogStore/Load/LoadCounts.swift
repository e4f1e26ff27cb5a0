import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// What loading one table file found and did, row by row. Every repair and
/// every value kept in a form other than its declared type is counted here;
/// nothing is changed silently.
public struct LoadCounts: Sendable, Equatable, Codable {
    /// Data rows read from the file and kept: not counting the rows the
    /// storefront filter left out (`filteredRows`).
    public var rowsRead = 0
    /// Rows that had more fields than columns, repaired by rejoining the
    /// extra fields (with their 0x01 bytes) into a free-text column.
    public var rejoinedRows = 0
    /// Of those, rows where more than one free-text column could take them.
    public var ambiguousRepairs = 0
    /// Rows in which invalid UTF-8 was replaced by U+FFFD.
    public var invalidUTF8Rows = 0
    /// Invalid UTF-8 sequences replaced (each by one U+FFFD).
    public var invalidUTF8Sequences = 0
    /// Rows from which NUL bytes were removed.
    public var nulRows = 0
    /// NUL bytes removed.
    public var nulBytes = 0
    /// Integer fields that were not integers: stored as their text.
    public var nonNumericIntegers = 0
    /// Decimal fields that were not numbers: stored as their text.
    public var nonNumericDecimals = 0
    /// Boolean fields that were not 0/1/true/false: stored as their text.
    public var nonBooleanValues = 0
    /// Date fields in no known form: stored verbatim.
    public var unparsedDates = 0
    /// Rows of a FULL file whose key repeated a later row's: the later row
    /// wins, these are not stored.
    public var duplicateKeys = 0
    /// `##` comment rows met among the data rows.
    public var commentRows = 0
    /// Rows of storefronts the import does not keep (`epf import
    /// --storefront`): read, left out before decoding, not stored.
    public var filteredRows = 0
    /// Rows of an INCREMENTAL file that the table's previous INCREMENTAL
    /// file held byte for byte but for `export_date` (`RowDigestSet`): the
    /// catalog holds them already, so they were left out as the file was
    /// parsed, not stored. They count as unchanged in the apply's outcome.
    public var knownRows = 0

    package init() {}

    /// Rows repaired in any way (rejoined fields, U+FFFD, NUL removed),
    /// each counted once.
    public var repairedRows = 0

    /// Rows read but not stored (superseded duplicates).
    public var skippedRows: Int { duplicateKeys }

    /// Values kept as text because they did not fit their declared type.
    public var valuesKeptAsText: Int {
        nonNumericIntegers + nonNumericDecimals + nonBooleanValues + unparsedDates
    }

    /// Adds another file's or batch's counts to these.
    package mutating func add(_ other: LoadCounts) {
        rowsRead += other.rowsRead
        rejoinedRows += other.rejoinedRows
        ambiguousRepairs += other.ambiguousRepairs
        invalidUTF8Rows += other.invalidUTF8Rows
        invalidUTF8Sequences += other.invalidUTF8Sequences
        nulRows += other.nulRows
        nulBytes += other.nulBytes
        nonNumericIntegers += other.nonNumericIntegers
        nonNumericDecimals += other.nonNumericDecimals
        nonBooleanValues += other.nonBooleanValues
        unparsedDates += other.unparsedDates
        duplicateKeys += other.duplicateKeys
        commentRows += other.commentRows
        filteredRows += other.filteredRows
        knownRows += other.knownRows
        repairedRows += other.repairedRows
    }

    /// One line per non-zero counter, for people.
    public var notes: [String] {
        var lines: [String] = []
        func note(_ count: Int, _ text: String) { if count > 0 { lines.append("\(count) \(text)") } }
        note(
            rejoinedRows,
            "row(s) had a stray field separator (0x01; a tab in flat files) in free text: extra fields rejoined into the text column")
        note(ambiguousRepairs, "of those could go in more than one free-text column: the first fitting one was used")
        note(invalidUTF8Rows, "row(s) held invalid UTF-8: \(invalidUTF8Sequences) sequence(s) replaced by U+FFFD")
        note(nulRows, "row(s) held NUL bytes: \(nulBytes) removed")
        note(nonNumericIntegers, "integer value(s) were not numbers: kept as text")
        note(nonNumericDecimals, "decimal value(s) were not numbers: kept as text")
        note(nonBooleanValues, "boolean value(s) were not 0/1: kept as text")
        note(unparsedDates, "date value(s) in no known form: kept verbatim")
        note(duplicateKeys, "row(s) repeated a key: the last one was kept")
        note(commentRows, "## comment row(s) among the data rows: skipped")
        note(filteredRows, "row(s) of other storefronts left out (--storefront)")
        return lines
    }
}

extension LoadCounts {
    /// Decodes the counters; one a checkpoint or journal written by an
    /// older epf lacks (`filteredRows`) is 0, so its load still resumes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys) throws -> Int { try container.decodeIfPresent(Int.self, forKey: key) ?? 0 }
        rowsRead = try count(.rowsRead)
        rejoinedRows = try count(.rejoinedRows)
        ambiguousRepairs = try count(.ambiguousRepairs)
        invalidUTF8Rows = try count(.invalidUTF8Rows)
        invalidUTF8Sequences = try count(.invalidUTF8Sequences)
        nulRows = try count(.nulRows)
        nulBytes = try count(.nulBytes)
        nonNumericIntegers = try count(.nonNumericIntegers)
        nonNumericDecimals = try count(.nonNumericDecimals)
        nonBooleanValues = try count(.nonBooleanValues)
        unparsedDates = try count(.unparsedDates)
        duplicateKeys = try count(.duplicateKeys)
        commentRows = try count(.commentRows)
        filteredRows = try count(.filteredRows)
        knownRows = try count(.knownRows)
        repairedRows = try count(.repairedRows)
    }
}

extension LoadCounts {
    /// Adds what decoding one stored record found (`RecordDecoder`): fields
    /// rejoined (its flags), invalid UTF-8 sequences replaced, NUL bytes
    /// removed, values that did not fit their type. Every loader (and `epf
    /// verify`) counts through here, so their counters agree.
    @inlinable @inline(__always)
    package mutating func add(_ record: RecordTally) {
        let invalidSequences = record.invalidSequences
        let nulBytes = record.nulBytes
        let flags = record.flags
        if invalidSequences > 0 {
            invalidUTF8Rows += 1
            invalidUTF8Sequences += invalidSequences
        }
        if nulBytes > 0 {
            nulRows += 1
            self.nulBytes += nulBytes
        }
        if flags.contains(.rejoined) {
            rejoinedRows += 1
            if flags.contains(.ambiguous) { ambiguousRepairs += 1 }
        }
        if flags.contains(.rejoined) || invalidSequences > 0 || nulBytes > 0 {
            repairedRows += 1
        }
        if record.misfits > 0 {
            nonNumericIntegers += record.nonNumericIntegers
            nonNumericDecimals += record.nonNumericDecimals
            nonBooleanValues += record.nonBooleanValues
            unparsedDates += record.unparsedDates
        }
    }
}
