import ArgumentParser
import EPFCatalog
import EPFImport
import Foundation

/// `epf import PATH...`
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import EPF table files or feed folders into the catalog.",
        discussion: """
            PATH is a table file (application, application_price, ...) or a folder of table \
            files (an extracted feed such as itunes20261101/). Paths are applied in the order \
            given: name a FULL feed before the INCREMENTAL days after it.

            The files of one folder are loaded and checked first, then applied together in \
            one transaction: if any of them fails, none of the folder is applied, and the \
            catalog stays exactly as it was. Every file is recorded in the import journal.

            A summary per file goes to standard error; with --format json or csv it goes to \
            standard output instead. Exit status 1 when any file failed.
            """
    )

    @OptionGroup var catalog: CatalogOption

    @Argument(help: ArgumentHelp("Table files or feed folders, applied in this order.", valueName: "path"))
    var paths: [String]

    @Option(name: .long, help: ArgumentHelp("Import only tables whose whole name matches (repeatable).", valueName: "regex"))
    var include: [String] = []

    @Option(name: .long, help: ArgumentHelp("Skip tables whose whole name matches (repeatable).", valueName: "regex"))
    var exclude: [String] = []

    @Option(name: .long, help: ArgumentHelp("Prefix for the catalog's table names (e.g. epf_).", valueName: "prefix"))
    var tablePrefix: String = ""

    @Flag(name: .long, help: "Refuse files with invalid UTF-8 or NUL bytes instead of repairing and counting them.")
    var strict = false

    @Option(name: .long, help: "Where the summary goes: table (standard error), json or csv (standard output).")
    var format: OutputFormat = .table

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one table file or feed folder to import.") }
        let identifier = tablePrefix.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        if !identifier { throw ValidationError("--table-prefix may hold only letters, digits and '_'.") }
        do {
            _ = try TableFilter(include: include, exclude: exclude)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let plan: ImportPlan
        do {
            plan = try ImportPlanner.plan(
                paths: paths, filter: try TableFilter(include: include, exclude: exclude), tablePrefix: tablePrefix)
        } catch {
            Console.message("epf import: \(error.description)")
            throw ExitCode(1)
        }
        for note in plan.notes { Console.message("note: \(note)") }
        if plan.fileCount == 0 {
            Console.message("epf import: nothing to import")
            return
        }

        let store: SQLiteCatalogStore
        do {
            store = try SQLiteCatalogStore(path: catalog.path)
        } catch {
            Console.message("epf import: \(error.description)")
            throw ExitCode(1)
        }
        for leftover in store.droppedLeftovers {
            Console.message("note: dropped \(leftover), left by an import that did not finish")
        }

        let progress = ProgressDisplay(live: Console.messagesAreTerminal)
        let importer = Importer(store: store, options: ImportOptions(strict: strict)) { progress.show($0) }
        let clock = ContinuousClock.now
        let reports = importer.run(plan)
        progress.finish()
        let elapsed = ContinuousClock.now - clock

        let summary = ImportSummary(reports: reports, catalog: catalog.path, elapsed: elapsed)
        switch format {
        case .table: Console.message(summary.table())
        case .json: Console.out(summary.json())
        case .csv: Console.out(summary.csv())
        }
        if reports.contains(where: { $0.status != .applied }) {
            throw ExitCode(1)
        }
    }
}
