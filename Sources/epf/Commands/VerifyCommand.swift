import ArgumentParser
import EPFCatalog
import EPFImport
import EPFLocation
import EPFReport
import EPFStores
import Foundation

/// `epf verify PATH...`
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check EPF feeds without importing them: what an import would refuse, repair or skip.",
        discussion: """
            Reads every file as epf import would (header, types, field counts, UTF-8 and NUL \
            bytes, the #recordsWritten footer, .md5 files) and checks its keys for repeats; \
            writes to no catalog. Each file is clean, repairable (imported with repairs, skips \
            or values kept as text, counted) or damaged (an import would refuse it; the error \
            names the file, the record and the byte offset). Memory stays bounded: the key \
            check goes through a temporary file in --temp-dir.

            A summary per file goes to standard error (with --format json or csv, to standard \
            output). Exit status 1 when a file is damaged (with --require-clean, also when one \
            would be repaired). See docs/import.md.
            """
    )

    @Argument(help: ArgumentHelp("Download folders, feed folders or archives, table files.", valueName: "path"))
    var paths: [String]

    @OptionGroup var tables: TableFilterOptions

    @OptionGroup var separators: SeparatorOptions

    @OptionGroup var log: LogFormatOption

    @Flag(name: .long, help: "Count invalid UTF-8 or NUL bytes as damage, as epf import --strict refuses them.")
    var strict = false

    @Flag(name: .long, help: "Count compressed files and archives that have no .md5 file beside them as damaged.")
    var requireMD5 = false

    @Flag(name: .long, help: "Exit 1 also when a file would be repaired, have rows skipped or values kept as text.")
    var requireClean = false

    @Option(name: .long, help: ArgumentHelp("Folder for the temporary key index (default: $TMPDIR or /tmp).", valueName: "path"))
    var tempDir: String?

    @Option(name: .long, help: "Where the summary goes: table (standard error), json or csv (standard output).")
    var format: OutputFormat = .table

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Name at least one table file, feed folder or download folder to verify.") }
        if let tempDir, !FileManager.default.isFolder(atPath: tempDir) { throw ValidationError("--temp-dir \(tempDir): no such folder.") }
    }

    func run() throws {
        let plan = try PlannedInput.plan(
            paths, filter: try tables.filter(), separators: try separators.separators(), extensions: separators.flat,
            requireMD5: requireMD5, command: "verify")
        if plan.units.allSatisfy(\.isEmpty) {
            Console.message("epf verify: nothing to verify")
        }

        let progress = ImportProgressText(live: Console.messagesAreTerminal, keyStep: "checking the keys", write: Console.show)
        let options = VerifyOptions(strict: strict, requireMD5: requireMD5, temporaryFolder: tempDir)
        let verifier = FeedVerifier(options: options, makeStore: CatalogLocation.keyCheckStore) { progress.show($0) }
        let clock = ContinuousClock.now
        progress.start(plan)
        let reports = verifier.run(plan)
        progress.finish()

        let summary = VerifySummary(reports: reports, elapsed: ContinuousClock.now - clock)
        Console.print(summary, as: format)
        if reports.contains(where: { $0.status == .damaged }) || (requireClean && reports.contains { $0.status != .clean }) {
            throw ExitCode(1)
        }
    }
}
