/// A problem with the bytes of one table file, located precisely enough for a
/// person to open the file at that byte and see it.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a value tests and callers can match.
    public enum Kind: String, Sendable, Codable {
        /// The file has no bytes.
        case emptyFile
        /// The file is not EPF text (binary data, another format).
        case notEPF
        /// The file does not start with a header row (`#` and the column
        /// names).
        case missingHeader
        /// A header row cannot be read (an empty name, a tag out of place).
        case badHeader
        /// `#dbTypes:` names another number of types than there are
        /// columns.
        case typeCountMismatch
        /// `#exportMode:` is neither FULL nor INCREMENTAL.
        case unknownExportMode
        /// A row has fewer fields than the header has columns.
        case shortRow
        /// A row has more fields than the header has columns, and they
        /// cannot be rejoined.
        case tooManyFields
        /// The file ends inside a row or inside its header: it was cut.
        case truncated
        /// The file has no `#recordsWritten:` footer: it was cut.
        case missingFooter
        /// The footer's count is not the number of rows read.
        case footerMismatch
        /// Rows follow the footer.
        case dataAfterFooter
        /// Text that is not valid UTF-8 (refused under `--strict`).
        case invalidUTF8
        /// Text with NUL bytes (refused under `--strict`).
        case nulBytes
        /// No row end in more bytes than any row could hold.
        case recordTooLarge
        /// An INCREMENTAL file without a usable `#primaryKey:`: its rows
        /// cannot be matched to the table's.
        case noKey
        /// More columns than the catalog can hold in one table.
        case tooManyColumns
        /// Rows end in 0x02 0x0D 0x0A: a tool converted the line ends.
        case windowsLineEnds
    }

    /// The kind of problem.
    public var kind: Kind
    /// The file, as the user named it (filled in by whoever opened it).
    public var file: String?
    /// 1-based number of the data record (header rows not counted), if the
    /// problem is in a data record.
    public var record: Int?
    /// 1-based number of the header row, if the problem is in the header.
    public var headerRow: Int?
    /// Absolute byte offset in the (decompressed) file where the row starts.
    public var byteOffset: Int64
    /// What is wrong, in plain words.
    public var detail: String
    /// What the user can do about it.
    public var hint: String

    package init(
        _ kind: Kind, file: String? = nil, record: Int? = nil, headerRow: Int? = nil,
        byteOffset: Int64, detail: String, hint: String
    ) {
        self.kind = kind
        self.file = file
        self.record = record
        self.headerRow = headerRow
        self.byteOffset = byteOffset
        self.detail = detail
        self.hint = hint
    }

    /// The same error with record numbers and offsets shifted by what came
    /// before the chunk it was found in.
    package func shifted(records: Int, bytes: Int64) -> FormatError {
        var copy = self
        if let record = copy.record { copy.record = record + records }
        copy.byteOffset += bytes
        return copy
    }

    /// The place (file, record or header row, byte), what is wrong and
    /// what to do: one line for a person.
    public var description: String {
        var place: [String] = []
        if let file { place.append(file) }
        if let record { place.append("record \(record)") }
        if let headerRow { place.append("header row \(headerRow)") }
        place.append("byte \(byteOffset)")
        return "\(place.joined(separator: ": ")): \(detail). \(hint)"
    }
}

extension FormatError {
    /// A record refused because of `--strict`: it holds invalid UTF-8 or
    /// NUL bytes that would otherwise be repaired.
    @usableFromInline package static func strict(invalidSequences: Int, nulBytes: Int, file: String, record: Int, offset: Int64)
        -> FormatError
    {
        let invalid = invalidSequences > 0
        return FormatError(
            invalid ? .invalidUTF8 : .nulBytes, file: file, record: record, byteOffset: offset,
            detail: invalid
                ? "the row holds \(invalidSequences) invalid UTF-8 sequence(s), refused because of --strict"
                : "the row holds \(nulBytes) NUL byte(s), refused because of --strict",
            hint: "Run without --strict to store U+FFFD in their place (counted and reported)")
    }
}
