import ArgumentParser
import EPFCatalog

/// `epf search TERM [--country US] [--limit N] [--offset N] [--format json|table|csv]`
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find applications by words in their title, as the iTunes Search API does.",
        discussion: """
            Every word must match the title, as a word or its beginning (che finds Chess); \
            case and accents are ignored (cafe finds Café) and a CJK word matches inside a \
            title (象棋 finds 国际象棋游戏). Best matches first. Prints \
            {"resultCount": N, "results": [...]} in the shape of Apple's Search API, priced \
            in the storefront of --country (default US). No match gives an empty result (exit 0).
            """)

    @OptionGroup var catalog: CatalogOption

    @Argument(help: ArgumentHelp("Words to find in titles.", valueName: "term"))
    var term: [String]

    @Option(name: .long, help: "ISO country code (US, USA) or storefront ID for prices (default US).")
    var country: String?

    @Option(name: .long, help: "At most this many results.")
    var limit: Int = 50

    @Option(name: .long, help: "Results to skip before the first printed.")
    var offset: Int = 0

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .json

    func validate() throws {
        guard !term.joined().allSatisfy(\.isWhitespace) else { throw ValidationError("Give words to search for.") }
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more.") }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more.") }
    }

    func run() throws {
        let (catalog, storefront) = try ResultOutput.open(catalog.path, country: country, command: "search")
        let text = term.joined(separator: " ")
        let response: SearchResponse
        do {
            response = try catalog.search(term: text, in: storefront, limit: limit, offset: offset)
        } catch {
            Console.message("epf search: \(error.description)")
            throw ExitCode(1)
        }
        if response.results.isEmpty { Console.message("epf search: no application matches '\(text)'") }
        Console.out(try ResultOutput.render(response, as: format))
    }
}
