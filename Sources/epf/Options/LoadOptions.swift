import ArgumentParser

/// How a feed's files are loaded into the catalog, shared by `epf import`
/// and `epf sync`: the table prefix, text repair, resuming, the journal
/// mode, the shrink guard and how long changes are kept.
struct LoadOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Prefix for the catalog's table names (e.g. epf_).", valueName: "prefix"))
    var tablePrefix: String = ""

    @Flag(name: .long, help: "Refuse files with invalid UTF-8 or NUL bytes instead of repairing and counting them.")
    var strict = false

    @Flag(name: .long, help: "Start interrupted loads over instead of resuming them from their last checkpoint.")
    var restart = false

    @Flag(
        name: .long,
        help: "Load with the rollback journal instead of WAL: faster, but queries of the catalog wait until the import is over (SQLite).")
    var exclusive = false

    @Flag(name: .long, help: "Apply a FULL file even if it has fewer than half the rows of the table it replaces.")
    var allowShrink = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Days of price and application changes to keep (epf changes, epf price-history); older ones are deleted by each import. 0 keeps all.",
            valueName: "days"))
    var keepHistory = 400

    /// `--keep-history` as the import takes it: nil keeps every change.
    var keepHistoryDays: Int? { keepHistory == 0 ? nil : keepHistory }

    func validate() throws {
        try TablePrefixOption.validate(tablePrefix)
        guard keepHistory >= 0 else {
            throw ValidationError("--keep-history must be a number of days, 0 or more (0 keeps every change), not \(keepHistory)")
        }
    }
}
