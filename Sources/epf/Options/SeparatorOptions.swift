import ArgumentParser
import EPFFormat

/// How the files' rows end and fields split, shared by `epf import` and
/// `epf verify`: EPF Relational by default, EPF Flat with `--flat`, any
/// other pair with `--record-separator`/`--field-separator` (as Apple's
/// EPFImporter's `-f`, `-s` and `-t`).
struct SeparatorOptions: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "Read EPF Flat files: rows end with a newline, fields split by a tab, names may have an extension (application.txt is table application)."
    )
    var flat = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Bytes that end a record (default \\x02\\n, with --flat \\n); escapes \\n, \\t, \\r, \\\\ and \\xHH.", valueName: "text"))
    var recordSeparator: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The byte that splits fields (default \\x01, with --flat \\t); escapes as for --record-separator.", valueName: "text"))
    var fieldSeparator: String?

    func validate() throws { try Console.validating(end: ".") { try separators() } }

    /// The separators given, over EPF Flat's with `--flat`, else over EPF
    /// Relational's.
    func separators() throws(Separators.Invalid) -> Separators {
        let base = flat ? Separators.flat : Separators.relational
        guard recordSeparator != nil || fieldSeparator != nil else { return base }
        return try Separators(
            escapedRecord: recordSeparator ?? Separators.escape(base.record),
            escapedField: fieldSeparator ?? Separators.escape([base.field]))
    }
}
