import ArgumentParser
import EPFCatalog
import EPFReport

/// `epf search TERM [--country US] [--lang en] [--media M] [--entity E] [--limit N] [--offset N] [--format json|table|csv]`
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find applications by words in their title, as the iTunes Search API does.",
        discussion: """
            Every word must match the title, as a word or its beginning (che finds Chess); \
            case and accents are ignored (cafe finds Café) and a CJK word matches inside a \
            title (象棋 finds 国际象棋游戏). Best matches first: whole words before \
            beginnings, then titles of fewer words. Only applications sold in the storefront \
            of --country (default US) are found when the catalog has prices. Prints \
            {"resultCount": N, "results": [...]} in the shape of Apple's Search API. No match \
            gives an empty result (exit 0).
            """)

    @OptionGroup var catalog: CatalogOption

    @Argument(help: ArgumentHelp("Words to find in titles.", valueName: "term"))
    var term: [String]

    @OptionGroup var locale: ResultLocaleOptions

    @OptionGroup var prefix: TablePrefixOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Apple's media type: software or all; the others (\(AppleMedia.others.joined(separator: ", "))) find nothing.",
            valueName: "media"))
    var media: String = "software"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only applications for these devices: \(SoftwareEntity.allCases.map(\.rawValue).joined(separator: ", ")) (iPhone, iPad, Mac; needs the device tables).",
            valueName: "entity"))
    var entity: String?

    @Option(name: .long, help: "At most this many results.")
    var limit: Int = 50

    @Option(name: .long, help: "Results to skip before the first printed.")
    var offset: Int = 0

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .json

    func validate() throws {
        guard !term.joined().allSatisfy(\.isWhitespace) else { throw ValidationError("Give words to search for.") }
        guard limit >= ResultAssembly.fewestResults else {
            throw ValidationError("--limit must be \(ResultAssembly.fewestResults) or more (the API answers limit=0 with a 400 too).")
        }
        guard offset >= 0 else { throw ValidationError("--offset must be 0 or more.") }
        guard AppleMedia.all.contains(media) else {
            throw ValidationError("--media must be one of \(AppleMedia.all.joined(separator: ", ")), not '\(media)'.")
        }
        if let entity, SoftwareEntity(apiName: entity) == nil {
            throw ValidationError(
                "--entity must be one of \(SoftwareEntity.allCases.map(\.rawValue).joined(separator: ", ")), not '\(entity)'.")
        }
    }

    func run() throws {
        let (catalog, storefront) = try ResultOutput.open(
            catalog.location, tablePrefix: prefix.tablePrefix, country: locale.country, command: "search")
        let text = term.joined(separator: " ")
        guard AppleMedia.findsSoftware(media) else {
            Console.message("epf search: the catalog holds applications only; --media \(media) finds nothing")
            return Console.out(SearchResponse(results: []).rendered(as: format))
        }
        let response = try Console.exitOnFailure("search") {
            try catalog.search(
                term: text, in: storefront, language: try locale.language(), entity: entity.flatMap(SoftwareEntity.init(apiName:)),
                limit: limit, offset: offset)
        }
        if response.results.isEmpty {
            let why = catalog.whyNothingFound(
                term: text, offset: offset, in: storefront, entity: entity.flatMap(SoftwareEntity.init(apiName:)))
            Console.message("epf search: \(why)")
        }
        Console.out(response.rendered(as: format))
    }
}
