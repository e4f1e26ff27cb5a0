import ArgumentParser
import EPFCatalog
import EPFImport
import EPFLocation
import EPFReport
import EPFStores
import Foundation

/// `epf import PATH...`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import EPF feeds (download folders, feed folders or archives, table files) into the catalog.",
        discussion: """
            PATH is a download folder (feeds at any depth: itunes20261101/ or itunes20261101.tbz), \
            a feed folder or archive, or a table file (plain, .gz, .bz2, a one-table .tbz). Each \
            feed's newest FULL export is applied, then the INCREMENTAL days after it; what the \
            import journal lists as applied is skipped, so the same command again imports only \
            what is new.

            A folder's files are loaded and checked, then applied in one transaction: if one \
            fails, none is, and the catalog stays as it was. A load commits every 256 MB: an \
            import that was killed resumes when run again (--restart starts over).

            A summary per file goes to standard error (with --format json or csv, to standard \
            output). Exit status 1 when a file failed, or with --require-feeds when the paths \
            hold no feed. See docs/import.md.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Option(
        name: .long, help: ArgumentHelp("Import into a Parquet lake in this folder instead of a catalog (docs/lake.md).", valueName: "dir"))
    var lake: String?

    @Argument(help: ArgumentHelp("Table files or feed folders, applied in this order.", valueName: "path"))
    var paths: [String]

    @OptionGroup var tables: TableFilterOptions

    @OptionGroup var load: LoadOptions

    @OptionGroup var job: NightlyJobOptions

    @OptionGroup var separators: SeparatorOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Keep only these storefronts' rows: US,JP or 143441 (ISO codes or IDs), or all; the catalog keeps the set (docs/import.md).",
            valueName: "list"))
    var storefront: String?

    @Flag(name: .long, help: "Print what would be imported and skipped, and why; change nothing.")
    var dryRun = false

    @Flag(
        name: .long, help: "Apply what the journal lists as applied, days older than the catalog's, and INCREMENTALs of tables not in it.")
    var force = false

    @Flag(name: .long, help: "Fail compressed files and archives that have no .md5 file beside them.")
    var requireMD5 = false

    @Option(
        name: .long,
        help: ArgumentHelp("PostgreSQL: table files loaded at once, and the COPY connections of a file of 32 MB or more.", valueName: "n"))
    var jobs: Int = 2

    @Option(name: .long, help: "Where the summary goes: table (standard error), json or csv (standard output).")
    var format: OutputFormat = .table

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one table file or feed folder to import.") }
        if jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
        if lake != nil && catalog.db != nil { throw ValidationError("--lake and --db name two different stores: give one of them.") }
        if lake?.isEmpty == true { throw ValidationError("--lake needs a folder.") }
        try Console.validating { try CatalogImport.Storefronts(argument: storefront) }
    }

    /// Where the import goes: the lake, else the catalog `--db` names.
    var location: CatalogLocation { lake.map { .lake(path: $0) } ?? catalog.location }

    func run() throws {
        try job.recording("import", dryRun: dryRun) { metrics in
            let plan = try PlannedInput.plan(
                paths, filter: try tables.filter(), tablePrefix: load.tablePrefix, separators: try separators.separators(),
                extensions: separators.flat, requireMD5: requireMD5, command: "import")
            if dryRun {
                let applied = try Console.exitOnFailure("import") { try location.appliedFiles() }
                return Console.out(ImportSchedule(plan: plan, applied: applied, force: force).listing.render(format))
            }
            // Nothing found to import: say so and create nothing (no catalog, no lock file).
            if plan.fileCount == 0 {
                let found = "no table files or archives in \(paths.joined(separator: ", "))"
                try job.noFeedFound("epf import: \(found)")
                return Console.message("epf import: nothing to import: \(found)")
            }
            let console = ConsoleImport(
                location: location, command: "import", load: load, format: format, requireMD5: requireMD5, force: force, jobs: jobs,
                storefronts: try CatalogImport.Storefronts(argument: storefront), metrics: metrics)
            if !(try console.apply(plan)) { throw ExitCode(1) }
        }
    }
}
