import ArgumentParser
import EPFCatalog
import EPFReport

/// `epf lookup ID|LINK... [--country US] [--lang en] [--format json|table|csv]`
struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Show applications by Apple ID or product link, as the iTunes Lookup API does.",
        discussion: """
            Prints {"resultCount": N, "results": [...]} in the shape of Apple's Lookup API, \
            priced in the storefront of --country (default US). Unknown IDs are left out \
            (exit 0) with a message on standard error.
            """)

    @OptionGroup var catalog: CatalogOption

    @Argument(
        help: ArgumentHelp(
            "Apple IDs or product links: 364709193, id364709193, https://apps.apple.com/us/app/name/id364709193.", valueName: "id-or-link"))
    var ids: [String]

    @OptionGroup var locale: ResultLocaleOptions

    @OptionGroup var prefix: TablePrefixOption

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .json

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("Give at least one Apple ID or product link.") }
        for id in ids { try Console.validating { try ProductLink.appleID(from: id) } }
    }

    func run() throws {
        let (catalog, storefront) = try ResultOutput.open(
            catalog.location, tablePrefix: prefix.tablePrefix, country: locale.country, command: "lookup")
        let appleIDs = ids.compactMap { try? ProductLink.appleID(from: $0) }
        let response = try Console.exitOnFailure("lookup") {
            try catalog.lookup(ids: appleIDs, in: storefront, language: try locale.language())
        }
        for id in response.missing(appleIDs) {
            Console.message("epf lookup: no application with Apple ID \(id) sold in this storefront")
        }
        Console.out(response.rendered(as: format))
    }
}
