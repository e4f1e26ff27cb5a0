import ArgumentParser
import EPFCatalog

/// `--table-prefix`, shared by the commands that read a catalog's EPF
/// tables by name (`lookup`, `search`, `tables`), for a catalog imported
/// with `epf import --table-prefix`.
struct TablePrefixOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The prefix the catalog's tables were imported with (epf import --table-prefix). Left out: found in the catalog (needed only when it holds several).",
            valueName: "prefix"))
    var tablePrefix: String?

    func validate() throws {
        if let tablePrefix { try Self.validate(tablePrefix) }
    }

    /// Refuses a prefix other than letters, digits and `_` (it becomes
    /// part of SQL names), here and for `epf import --table-prefix`.
    static func validate(_ prefix: String) throws {
        guard CatalogTableNames.isValid(prefix: prefix) else {
            throw ValidationError("--table-prefix may hold only letters, digits and '_'.")
        }
    }
}
