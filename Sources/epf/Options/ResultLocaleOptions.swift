import ArgumentParser
import EPFCatalog

/// `--country` and `--lang`, shared by the commands that print results
/// (`lookup`, `search`).
struct ResultLocaleOptions: ParsableArguments {
    @Option(name: .long, help: "ISO country code (US, USA) or storefront ID for prices (default US).")
    var country: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Language of the name, description and release notes, from application_detail when the application has it: en, ja, ja_JP (default: the application table's own name).",
            valueName: "lang"))
    var lang: String?

    func validate() throws { try Console.validating { try language() } }

    /// `--lang` as a language, nil when not given.
    func language() throws(CatalogError) -> Language? {
        try lang.map { (text) throws(CatalogError) in try Language(text) }
    }
}
