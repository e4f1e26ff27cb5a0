/// The header of one EPF table file: its columns, key, types and mode.
public struct EPFHeader: Sendable, Equatable {
    /// Column names in file order, from the first row (`#name^Aname...`).
    public var columns: [String]
    /// Declared types, one per column, same order.
    public var types: [ColumnType]
    /// Key column names as usable: declared key columns missing from
    /// `columns` are dropped (and reported in `warnings`).
    public var primaryKey: [String]
    /// The `#primaryKey:` row exactly as declared.
    public var declaredPrimaryKey: [String]
    /// FULL or INCREMENTAL.
    public var exportMode: ExportMode
    /// Byte offset of the first row after the header (data or footer).
    public var dataOffset: Int
    /// Number of header rows (column row, tags and `##legal:` rows).
    public var rowCount: Int
    /// Things a person should know that do not stop the import.
    public var warnings: [String]

    /// Position of each key column in `columns`.
    package var keyColumnIndexes: [Int] {
        primaryKey.compactMap { columns.firstIndex(of: $0) }
    }

    package init(
        columns: [String], types: [ColumnType], primaryKey: [String], declaredPrimaryKey: [String]? = nil,
        exportMode: ExportMode, dataOffset: Int = 0, rowCount: Int = 0, warnings: [String] = []
    ) {
        self.columns = columns
        self.types = types
        self.primaryKey = primaryKey
        self.declaredPrimaryKey = declaredPrimaryKey ?? primaryKey
        self.exportMode = exportMode
        self.dataOffset = dataOffset
        self.rowCount = rowCount
        self.warnings = warnings
    }
}

/// Reads the header rows at the start of a table file.
///
/// The first row names the columns; tagged rows (`#primaryKey:`, `#dbTypes:`,
/// `#exportMode:`) may follow in any order, mixed with `##legal:` rows, which
/// are skipped. The header ends at the first row that is not a tag.
public enum HeaderParser {
    /// The outcome of looking at a prefix of a file.
    public enum Result: Sendable {
        /// The whole header, read.
        case header(EPFHeader)
        /// The prefix ends inside the header: call again with more bytes.
        case needMoreBytes
    }

    /// Largest header accepted; a longer one means this is not an EPF file.
    package static let maximumHeaderBytes = 16 << 20

    /// Parses the header from `bytes`, the start of a file. `isComplete`
    /// says `bytes` is the whole file (so running out of bytes is final).
    /// `separators` end the header rows and split their names, as they do
    /// the data rows.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, isComplete: Bool, separators: Separators = .relational
    ) throws(FormatError) -> Result {
        let field = Character(UnicodeScalar(separators.field))
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else {
            if isComplete {
                throw FormatError(
                    .emptyFile, byteOffset: 0, detail: "the file is empty (0 bytes)",
                    hint: "An EPF table file has at least a header and a #recordsWritten footer; download it again")
            }
            return .needMoreBytes
        }
        let end = bytes.count
        guard let columns = try columnRow(base, end: end, isComplete: isComplete, separators: separators, field: field) else {
            return .needMoreBytes
        }
        var tags = TagRows(position: columns.end + separators.record.count)
        switch try tags.read(base, end: end, isComplete: isComplete, separators: separators, field: field) {
        case .needMoreBytes: return .needMoreBytes
        case .footer: break
        case .headerEnd:
            if !isComplete && tags.position >= end && end < maximumHeaderBytes { return .needMoreBytes }
        }
        return .header(try tags.header(columns: columns.names, separators: separators))
    }

    /// Row 1, the column names (`#name^Aname...`): the names and where the
    /// row ends (its separator's first byte); nil when the bytes end inside
    /// it and more may come. Throws when the file does not start like an
    /// EPF table or names a column twice or not at all.
    static func columnRow(
        _ base: UnsafePointer<UInt8>, end: Int, isComplete: Bool, separators: Separators, field: Character
    ) throws(FormatError) -> (names: [String], end: Int)? {
        guard base[0] == EPFByte.hash else {
            if looksBinary(base, count: min(end, 512)) {
                throw FormatError(
                    .notEPF, headerRow: 1, byteOffset: 0,
                    detail: "this is not an EPF table file: it starts with binary data, not a '#' header row",
                    hint: "Check that the path names an extracted EPF table file (archives are read whole, not as tables)")
            }
            throw FormatError(
                .missingHeader, headerRow: 1, byteOffset: 0,
                detail: "missing header: the first row does not start with '#' and column names",
                hint: "The file was cut at its start or is not an EPF table; download it again")
        }
        let firstTerminator = separators.findRecordEnd(base, from: 0, end: end)
        if separators.isRelational, findWindowsRowEnd(base, from: 0, end: firstTerminator ?? end) != nil {
            throw windowsLineEnds(row: 1, offset: 0)
        }
        guard let firstEnd = firstTerminator else {
            if !isComplete && end < maximumHeaderBytes { return nil }
            let binary = looksBinary(base, count: min(end, 512))
            throw FormatError(
                binary ? .notEPF : .missingHeader, headerRow: 1, byteOffset: 0,
                detail: binary
                    ? "this is not an EPF table file: no \(separators.recordBytes) row end in \(end) bytes of binary data"
                    : "the header row is not terminated by \(separators.recordBytes)",
                hint: "The file is truncated or not an EPF table file; download it again")
        }
        let columns = splitNames(base, from: 1, end: firstEnd, field: field)
        if let problem = checkColumnNames(columns) {
            throw FormatError(
                .badHeader, headerRow: 1, byteOffset: 0, detail: problem,
                hint: "The header row must name every column once; the file is damaged")
        }
        return (columns, firstEnd)
    }

    /// The tagged rows after the column names (`#primaryKey:`, `#dbTypes:`,
    /// `#exportMode:`, and `##legal:` rows, skipped), as far as they are
    /// read.
    struct TagRows {
        var declaredKey: [String]?
        var typeNames: [String]?
        var typesRow = (row: 0, offset: 0)
        var mode: ExportMode?
        var warnings: [String] = []
        /// Header rows read.
        var row = 1
        /// Where the next row starts: once read, the first row after the
        /// header (data or footer).
        var position: Int
        /// A row with no row end, where the bytes end.
        var cutRow: (row: Int, offset: Int)?

        init(position: Int) {
            self.position = position
        }

        /// What ended the reading of the tagged rows.
        enum End {
            /// A row that is not a tag (or the end of the bytes, or a row
            /// cut by it).
            case headerEnd
            /// A `#recordsWritten:` footer: a table with no rows.
            case footer
            /// The bytes end inside a row and more may come.
            case needMoreBytes
        }

        /// Reads tagged rows from `position` until a row that is not a tag.
        mutating func read(
            _ base: UnsafePointer<UInt8>, end: Int, isComplete: Bool, separators: Separators, field: Character
        ) throws(FormatError) -> End {
            let rowEnd = separators.record.count
            while position < end {
                // A row that is not a tag ends the header.
                guard base[position] == EPFByte.hash else { break }
                let terminator = separators.findRecordEnd(base, from: position, end: end)
                if separators.isRelational, findWindowsRowEnd(base, from: position, end: terminator ?? end) != nil {
                    throw windowsLineEnds(row: row + 1, offset: position)
                }
                guard let terminator else {
                    if !isComplete && end < maximumHeaderBytes { return .needMoreBytes }
                    // An unterminated tail: the record scanner reports it, unless
                    // the header it cut is incomplete (then `header` says so).
                    cutRow = (row + 1, position)
                    break
                }
                let text = String(decoding: UnsafeRawBufferPointer(start: base + position, count: terminator - position), as: UTF8.self)
                if text.hasPrefix("##") {
                    // ##legal: licence text.
                } else if let colon = text.firstIndex(of: ":"), isTagName(text[text.index(after: text.startIndex)..<colon]) {
                    let tag = text[text.index(after: text.startIndex)..<colon]
                    // A footer right after the header: a table with no rows.
                    if tag == "recordsWritten" { return .footer }
                    row += 1
                    try take(tag, value: text[text.index(after: colon)...], field: field)
                    position = terminator + rowEnd
                    continue
                } else {
                    break  // a data row that happens to start with '#'
                }
                row += 1
                position = terminator + rowEnd
            }
            return .headerEnd
        }

        /// Takes the tag row `#tag:value`, row `row`, starting at `position`.
        mutating func take(_ tag: Substring, value: Substring, field: Character) throws(FormatError) {
            switch tag {
            case "primaryKey":
                declaredKey = value.isEmpty ? [] : value.split(separator: field, omittingEmptySubsequences: false).map(String.init)
            case "dbTypes":
                typeNames = value.split(separator: field, omittingEmptySubsequences: false).map(String.init)
                typesRow = (row, position)
            case "exportMode":
                guard let parsed = ExportMode(rawValue: value.uppercased()) else {
                    throw FormatError(
                        .unknownExportMode, headerRow: row, byteOffset: Int64(position),
                        detail: "unknown #exportMode '\(value)' (expected FULL or INCREMENTAL)",
                        hint: "The importer cannot tell whether to replace or update the table; check the file")
                }
                mode = parsed
            default:
                warnings.append("header row \(row): unknown tag #\(tag): skipped")
            }
        }

        /// The header of a table with columns `columns` and these tags;
        /// throws when a tag it needs is missing or does not fit them.
        func header(columns: [String], separators: Separators) throws(FormatError) -> EPFHeader {
            if let cutRow, typeNames == nil || mode == nil {
                throw FormatError(
                    .truncated, headerRow: cutRow.row, byteOffset: Int64(cutRow.offset),
                    detail: "the file ends inside its header (header row \(cutRow.row) has no \(separators.recordBytes) row end)",
                    hint: "The download was cut short; download the file again")
            }
            guard let typeNames else {
                throw FormatError(
                    .badHeader, headerRow: row, byteOffset: Int64(position),
                    detail: "the header has no #dbTypes: row",
                    hint: "Without declared types the values cannot be decoded; the file is damaged or not an EPF table")
            }
            guard typeNames.count == columns.count else {
                throw FormatError(
                    .typeCountMismatch, headerRow: typesRow.row, byteOffset: Int64(typesRow.offset),
                    detail: "#dbTypes: names \(typeNames.count) types but the header has \(columns.count) columns",
                    hint: "The header is damaged; download the file again")
            }
            guard let mode else {
                throw FormatError(
                    .badHeader, headerRow: row, byteOffset: Int64(position),
                    detail: "the header has no #exportMode: row",
                    hint: "The importer cannot tell whether to replace or update the table; the file is damaged")
            }
            var warnings = warnings
            let types = typeNames.map(ColumnType.init(declared:))
            for (index, type) in types.enumerated() where type.kind == .unknown {
                warnings.append("column \(columns[index]): unknown type '\(type.declared)': stored as text")
            }
            if declaredKey == nil {
                warnings.append("the header has no #primaryKey: row: the table has no key")
            }
            let declared = declaredKey ?? []
            var key: [String] = []
            for name in declared {
                if columns.contains(name) {
                    if !key.contains(name) { key.append(name) }
                } else {
                    warnings.append("declared key column '\(name)' is not one of the columns: dropped from the key")
                }
            }
            return EPFHeader(
                columns: columns, types: types, primaryKey: key, declaredPrimaryKey: declared,
                exportMode: mode, dataOffset: position, rowCount: row, warnings: warnings)
        }
    }

    /// A header row that ends in `0x02 0x0D 0x0A`: without this check the
    /// row would run on into the next ones and fail with a misleading error.
    static func windowsLineEnds(row: Int, offset: Int) -> FormatError {
        FormatError(
            .windowsLineEnds, headerRow: row, byteOffset: Int64(offset),
            detail: "the row ends in 0x02 0x0D 0x0A (a Windows line end), not 0x02 0x0A: a tool converted the file's line ends",
            hint: "Download the file again and copy it as binary (EPF rows end in 0x02 0x0A only)")
    }

    static func splitNames(_ base: UnsafePointer<UInt8>, from: Int, end: Int, field: Character) -> [String] {
        let text = String(decoding: UnsafeRawBufferPointer(start: base + from, count: end - from), as: UTF8.self)
        return text.split(separator: field, omittingEmptySubsequences: false).map(String.init)
    }

    static func checkColumnNames(_ columns: [String]) -> String? {
        var seen = Set<String>()
        for (index, name) in columns.enumerated() {
            if name.isEmpty { return "column \(index + 1) of the header row has no name" }
            if !seen.insert(name).inserted { return "column '\(name)' is named twice in the header row" }
        }
        return nil
    }

    static func isTagName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
    }

    /// A few bytes that never occur in EPF text (control bytes other than the
    /// separators and whitespace) mean binary data.
    static func looksBinary(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        var suspicious = 0
        for index in 0..<count {
            let byte = base[index]
            if byte < 0x20 && byte != 0x01 && byte != 0x02 && byte != 0x0A && byte != 0x0D && byte != 0x09 {
                suspicious += 1
            }
        }
        return suspicious > max(2, count / 64)
    }
}
