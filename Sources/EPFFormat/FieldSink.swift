/// Where `RecordDecoder` puts the typed values of one record: a prepared
/// INSERT, a line of COPY text, a key index, a column writer.
///
/// The decoder calls exactly one method per column, in column order, for
/// each record it decodes; the sink does what its store does with the value.
/// Pointers handed to a sink stay valid until the decoder's next record (the
/// decoder's scratch never moves within a record), so a sink may keep them
/// without copying until then (SQLite binds them as static text).
///
/// A typed value may be refused (`false`): the store's column cannot hold
/// it (PostgreSQL: a leap second in a TIMESTAMP, a time of day in a DATE).
/// The decoder then counts it as a misfit of its kind, as if it had not
/// decoded, and hands the field to `unfit`.
///
/// Conformers are specialized into the decoder's loop (`RecordDecoder` is
/// `@inlinable`); mark their methods `@inline(__always)` and never use the
/// protocol as an existential in the hot path.
@usableFromInline package protocol FieldSink {
    /// Whether an empty field of a key column of `type` is kept as the empty
    /// text (`text` with a count of 0) rather than NULL. Any other empty
    /// field is NULL.
    static func keepsEmptyKey(of type: ColumnType) -> Bool

    /// Whether the sink stores a value that does not fit its column as text
    /// in the row (SQLite). If so, the decoder repairs that text like any
    /// other (its repairs are counted, and `--strict` refuses them); if not,
    /// `unfit` gets the field's raw bytes (PostgreSQL writes NULL and keeps
    /// them elsewhere).
    static var storesUnfitAsText: Bool { get }

    /// An empty field stored as NULL.
    mutating func null(column: Int)
    /// An integer field; false refuses it.
    mutating func integer(_ value: Int64, column: Int) -> Bool
    /// A boolean field (`1`/`0`/`true`/`false`); false refuses it.
    mutating func boolean(_ value: Bool, column: Int) -> Bool
    /// A decimal field: the nearest double and its exact text as written in
    /// the file (for stores that keep decimals exact); false refuses it.
    mutating func decimal(_ value: Double, text: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool
    /// A date field normalised to `YYYY-MM-DD` (`count` 10) or
    /// `YYYY-MM-DD HH:MM:SS` (`count` 19; the second may be 60); false
    /// refuses it.
    mutating func date(_ iso: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool
    /// A text field as valid UTF-8 without NUL bytes (repaired if the record
    /// needed it), or the empty text of a key column (`count` 0).
    mutating func text(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int)
    /// A field of a typed column (`kind`) whose text is not a value of that
    /// kind, or whose value the sink refused: repaired text if
    /// `storesUnfitAsText`, else the field's raw bytes.
    mutating func unfit(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int, kind: ColumnType.Kind)
}
