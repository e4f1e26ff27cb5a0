/// The bytes of a small table file: the header rows (columns, primary key,
/// types, export mode), a `##legal` comment row unless `legal` is nil, the
/// rows, and the `#recordsWritten` footer (the number of rows unless
/// `recordsWritten` says otherwise).
public func tableFileBytes(
    columns: [String], types: [String], key: [String], mode: String, rows: [[String]], recordsWritten: Int? = nil,
    legal: String? = "invented test data"
) -> [UInt8] {
    tableFileBytes(
        columns: columns, types: types, key: key, mode: mode, rawRows: rows.map { $0.map { Array($0.utf8) } },
        recordsWritten: recordsWritten, legal: legal)
}

/// The bytes of a small table file whose fields are raw bytes (invalid
/// UTF-8, NUL); otherwise as `tableFileBytes(columns:types:key:mode:rows:)`.
public func tableFileBytes(
    columns: [String], types: [String], key: [String], mode: String, rawRows: [[[UInt8]]], recordsWritten: Int? = nil,
    legal: String? = "invented test data"
) -> [UInt8] {
    var header = [
        "#" + columns.joined(separator: "\u{1}"),
        "#primaryKey:" + key.joined(separator: "\u{1}"),
        "#dbTypes:" + types.joined(separator: "\u{1}"),
        "#exportMode:" + mode,
    ]
    if let legal { header.append("##legal: " + legal) }
    let footer = "#recordsWritten:\(recordsWritten ?? rawRows.count)"
    return header.flatMap { rawRow([Array($0.utf8)]) } + rawRows.flatMap(rawRow) + rawRow([Array(footer.utf8)])
}
