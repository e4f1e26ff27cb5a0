/// What decoding one record repaired and what did not fit: the facts a
/// loader adds to its counters (EPFCatalog's `LoadCounts.add(_:)`), so that
/// every store counts the same way.
@usableFromInline
package struct RecordTally: Sendable, Equatable {
    /// What the parser found about the record (rejoined fields).
    @usableFromInline package var flags: RecordFlags
    /// Invalid UTF-8 sequences replaced by U+FFFD.
    @usableFromInline package var invalidSequences = 0
    /// NUL bytes removed.
    @usableFromInline package var nulBytes = 0
    /// Integer fields that were not integers (or were refused).
    @usableFromInline package var nonNumericIntegers = 0
    /// Decimal fields that were not numbers (or were refused).
    @usableFromInline package var nonNumericDecimals = 0
    /// Boolean fields that were not 0/1/true/false (or were refused).
    @usableFromInline package var nonBooleanValues = 0
    /// Date fields in no known form (or refused).
    @usableFromInline package var unparsedDates = 0

    @inlinable
    package init(
        flags: RecordFlags = [], invalidSequences: Int = 0, nulBytes: Int = 0, nonNumericIntegers: Int = 0,
        nonNumericDecimals: Int = 0, nonBooleanValues: Int = 0, unparsedDates: Int = 0
    ) {
        self.flags = flags
        self.invalidSequences = invalidSequences
        self.nulBytes = nulBytes
        self.nonNumericIntegers = nonNumericIntegers
        self.nonNumericDecimals = nonNumericDecimals
        self.nonBooleanValues = nonBooleanValues
        self.unparsedDates = unparsedDates
    }

    /// Fields whose value did not fit their column, all kinds together.
    @inlinable
    package var misfits: Int { nonNumericIntegers + nonNumericDecimals + nonBooleanValues + unparsedDates }

    /// Counts one misfit of `kind` (text kinds always fit).
    @inlinable
    mutating func countMisfit(_ kind: ColumnType.Kind) {
        switch kind {
        case .integer: nonNumericIntegers += 1
        case .boolean: nonBooleanValues += 1
        case .decimal: nonNumericDecimals += 1
        case .date: unparsedDates += 1
        case .text, .freeText, .unknown: break
        }
    }
}
