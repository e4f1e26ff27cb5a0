import EPFFormat

/// Puts the key columns of each decoded record into a `KeyIndex`, as the
/// SQLite catalog would store them (integers and booleans as integers,
/// decimals as doubles, dates as their normalised text, text and unfit
/// values as text, an empty key field as the empty text), so that `epf
/// verify` finds the keys the import would find repeated. Other columns
/// are decoded (and counted) but not kept.
struct KeyIndexSink: FieldSink {
    let keys: KeyIndex?
    /// For each column, its place in the key, or -1.
    let keyPosition: [Int]

    /// As `SQLiteTableLoader` stores them.
    static func keepsEmptyKey(of type: ColumnType) -> Bool { true }
    static var storesUnfitAsText: Bool { true }

    @inline(__always)
    func null(column: Int) {}

    @inline(__always)
    func integer(_ value: Int64, column: Int) -> Bool {
        let place = keyPosition[column]
        if place >= 0 { keys?.bind(value, at: place) }
        return true
    }

    @inline(__always)
    func boolean(_ value: Bool, column: Int) -> Bool {
        let place = keyPosition[column]
        if place >= 0 { keys?.bind(Int64(value ? 1 : 0), at: place) }
        return true
    }

    @inline(__always)
    func decimal(_ value: Double, text: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        let place = keyPosition[column]
        if place >= 0 { keys?.bind(value, at: place) }
        return true
    }

    @inline(__always)
    func date(_ iso: UnsafePointer<UInt8>, count: Int, column: Int) -> Bool {
        text(iso, count: count, column: column)
        return true
    }

    @inline(__always)
    func text(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int) {
        let place = keyPosition[column]
        if place >= 0 { keys?.bindText(bytes, count: count, at: place) }
    }

    @inline(__always)
    func unfit(_ bytes: UnsafePointer<UInt8>, count: Int, column: Int, kind: ColumnType.Kind) {
        text(bytes, count: count, column: column)
    }
}
