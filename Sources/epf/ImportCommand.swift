import ArgumentParser
import EPFCatalog
import EPFImport
import EPFLocation
import EPFStoreLocation
import Foundation

/// `epf import PATH...`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import EPF feeds (download folders, feed folders or archives, table files) into the catalog.",
        discussion: """
            PATH is a download folder holding feeds at any depth (folders such as \
            itunes20261101/ or archives such as itunes20261101.tbz), one feed folder or \
            archive, or one table file (plain, .gz, .bz2, or a one-table .tbz). In a download \
            folder, each feed's newest FULL export is applied, then the INCREMENTAL days after \
            it in date order; what the import journal lists as applied (same feed, date, \
            table, size and md5) is skipped, so running the same command again imports only \
            what is new. Paths are applied in the order given.

            The files of one folder are loaded and checked first, then applied together in \
            one transaction: if any of them fails, none of the folder is applied, and the \
            catalog stays exactly as it was. Every file is recorded in the import journal.

            A load commits every 256 MB with a checkpoint: an import that was killed (or \
            ran out of disk) resumes where it stopped when the same files are imported \
            again; --restart starts them over. One import runs at a time per catalog.

            A summary per file goes to standard error; with --format json or csv it goes to \
            standard output instead. Exit status 1 when any file failed, and with \
            --require-feeds when the paths hold no feed at all (a nightly job with a wrong \
            path); 0 when every file found was applied, now or before.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Import into a Parquet lake in this folder instead of a catalog: one partition per table file, DIR/<table>/export_date=YYYY-MM-DD/mode=FULL|INCREMENTAL/part-00000.parquet (see docs/lake.md).",
            valueName: "dir"))
    var lake: String?

    @Argument(help: ArgumentHelp("Table files or feed folders, applied in this order.", valueName: "path"))
    var paths: [String]

    @Option(name: .long, help: ArgumentHelp("Import only tables whose whole name matches (repeatable).", valueName: "regex"))
    var include: [String] = []

    @Option(name: .long, help: ArgumentHelp("Skip tables whose whole name matches (repeatable).", valueName: "regex"))
    var exclude: [String] = []

    @OptionGroup var load: LoadOptions

    @OptionGroup var feeds: RequireFeedsOption

    @OptionGroup var separators: SeparatorOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep only these storefronts' rows in tables with a storefront_id column: ISO country codes or storefront IDs, comma-separated (US,JP or 143441); all for every storefront. The catalog remembers the set: later imports keep it; a different set takes a FULL import or --force (see docs/import.md).",
            valueName: "list"))
    var storefront: String?

    @Flag(name: .long, help: "Print what would be imported and skipped, and why; change nothing.")
    var dryRun = false

    @Flag(
        name: .long,
        help:
            "Apply files again even if the import journal lists them as applied, days older than the catalog's, and INCREMENTAL files for tables the catalog does not have yet."
    )
    var force = false

    @Flag(name: .long, help: "Fail compressed files and archives that have no .md5 file beside them.")
    var requireMD5 = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "PostgreSQL: table files of a feed folder loaded at once, each on its own connection, and the COPY connections a file of 32 MB or more is loaded over (SQLite loads one file at a time).",
            valueName: "n"))
    var jobs: Int = 2

    @Option(name: .long, help: "Where the summary goes: table (standard error), json or csv (standard output).")
    var format: OutputFormat = .table

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one table file or feed folder to import.") }
        if jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
        if lake != nil && catalog.db != nil { throw ValidationError("--lake and --db name two different stores: give one of them.") }
        if lake?.isEmpty == true { throw ValidationError("--lake needs a folder.") }
        do {
            _ = try TableFilter(include: include, exclude: exclude)
        } catch {
            throw ValidationError(error.description)
        }
        do {
            _ = try storefront.map(StorefrontSet.parse)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Where the import goes: the lake, else the catalog `--db` names.
    var location: CatalogLocation { lake.map { .lake(path: $0) } ?? catalog.location }

    func run() throws {
        let plan = try PlannedInput.plan(
            paths, include: include, exclude: exclude, tablePrefix: load.tablePrefix, separators: try separators.separators(),
            extensions: separators.flat, requireMD5: requireMD5, command: "import")

        if dryRun {
            do {
                let applied = try location.appliedFiles()
                let schedule = ImportSchedule(plan: plan, applied: applied, force: force)
                Console.out(PlanListing(schedule: schedule).render(format))
            } catch {
                Console.message("epf import: \(error)")
                throw ExitCode(1)
            }
            return
        }

        // Nothing found to import: say so and create nothing (no catalog, no lock file).
        if plan.fileCount == 0 {
            let found = "no table files or archives in \(paths.joined(separator: ", "))"
            try feeds.noFeedFound("epf import: \(found)")
            Console.message("epf import: nothing to import: \(found)")
            return
        }

        let run = ImportRun(
            location: location, command: "import", strict: load.strict, requireMD5: requireMD5, allowShrink: load.allowShrink,
            restart: load.restart,
            exclusive: load.exclusive, force: force, jobs: jobs, format: format,
            storefronts: try storefront.map { try StorefrontSet.parse($0).map { .only($0) } ?? .all } ?? .catalogs)
        if !(try run.apply(plan)) {
            throw ExitCode(1)
        }
    }
}
