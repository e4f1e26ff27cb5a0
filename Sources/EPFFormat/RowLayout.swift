/// How rows end and fields split, as the parser's row loop sees them: one
/// type per form, so the loop over EPF Relational rows is compiled with its
/// separators as constants and the other forms pay for theirs alone.
protocol RowLayout {
    /// Splits the fields of a row.
    var field: UInt8 { get }
    /// Bytes of the record separator.
    var recordLength: Int { get }
    /// The offset of the next record separator in `base[from..<end]`.
    func findRecordEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int?
}

/// EPF Relational: `0x02 0x0A` rows, `0x01` fields, known at compile time.
struct RelationalRows: RowLayout {
    @inline(__always) var field: UInt8 { EPFByte.fieldSeparator }
    @inline(__always) var recordLength: Int { 2 }
    @inline(__always)
    func findRecordEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
        findRecordTerminator(base, from: from, end: end)
    }
}

/// Any other separators (EPF Flat, `--record-separator`), read at run time.
struct SeparatedRows: RowLayout {
    let separators: Separators
    let field: UInt8
    let recordLength: Int

    init(_ separators: Separators) {
        self.separators = separators
        field = separators.field
        recordLength = separators.record.count
    }

    @inline(__always)
    func findRecordEnd(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int? {
        separators.findRecordEnd(base, from: from, end: end)
    }
}
