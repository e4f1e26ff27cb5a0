/// Rows of EPF bytes: fields joined with 0x01, each row ended by 0x02 0x0A.
public func epf(_ rows: [[String]]) -> [UInt8] {
    rows.flatMap { row in rawRow(row.map { Array($0.utf8) }) }
}

/// One row made of raw byte fields (for invalid UTF-8, NUL), joined with
/// 0x01 and ended by 0x02 0x0A.
public func rawRow(_ fields: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    for (index, field) in fields.enumerated() {
        if index > 0 { bytes.append(0x01) }
        bytes.append(contentsOf: field)
    }
    bytes.append(contentsOf: [0x02, 0x0A])
    return bytes
}
