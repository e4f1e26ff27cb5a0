import ArgumentParser
import EPFCatalog
import EPFImport
import EPFLocation
import EPFStoreLocation
import Foundation

/// `epf verify PATH...`
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check EPF feeds without importing them: what an import would refuse, repair or skip.",
        discussion: """
            PATH is anything epf import takes: a download folder, a feed folder or archive, \
            a table file (plain, .gz, .bz2, or a one-table .tbz). Every file is read the way \
            epf import reads it (header, types, field counts, UTF-8 and NUL bytes, the \
            #recordsWritten footer, .md5 side files) and its keys are checked for repeats. \
            Nothing is written to any catalog; every file is read, even after a damaged one.

            Each file is clean (imported as is), repairable (imported with the repairs, skipped \
            rows and values kept as text that its counts show) or damaged (an import would \
            refuse it; the error names the file, the record or header row and the byte \
            offset).

            Memory stays bounded whatever the file size: the chunks being parsed (as in an \
            import, 8 MB each, 2 x cores + 2 at most) plus about 32 MB for the key check, \
            which goes through a temporary SQLite file of the key columns in --temp-dir (on \
            disk: about the key columns' size, e.g. ~30 bytes per row for a numeric key), \
            removed afterwards.

            A summary per file goes to standard error; with --format json or csv it goes to \
            standard output instead. Exit status 1 when any file is damaged (with \
            --require-clean, also when any would be repaired), 0 otherwise.
            """
    )

    @Argument(help: ArgumentHelp("Download folders, feed folders or archives, table files.", valueName: "path"))
    var paths: [String]

    @Option(name: .long, help: ArgumentHelp("Check only tables whose whole name matches (repeatable).", valueName: "regex"))
    var include: [String] = []

    @OptionGroup var separators: SeparatorOptions

    @Option(name: .long, help: ArgumentHelp("Skip tables whose whole name matches (repeatable).", valueName: "regex"))
    var exclude: [String] = []

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
        do {
            _ = try TableFilter(include: include, exclude: exclude)
        } catch {
            throw ValidationError(error.description)
        }
        if let tempDir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: tempDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--temp-dir \(tempDir): no such folder.")
            }
        }
    }

    func run() throws {
        let plan = try PlannedInput.plan(
            paths, include: include, exclude: exclude, separators: try separators.separators(), extensions: separators.flat,
            requireMD5: requireMD5, command: "verify")
        if plan.units.allSatisfy(\.isEmpty) {
            Console.message("epf verify: nothing to verify")
        }

        let progress = ProgressDisplay(live: Console.messagesAreTerminal, keyStep: "checking the keys")
        let options = VerifyOptions(strict: strict, requireMD5: requireMD5, temporaryFolder: tempDir)
        let verifier = FeedVerifier(options: options, makeStore: CatalogLocation.keyCheckStore) { progress.show($0) }
        let clock = ContinuousClock.now
        progress.start(plan)
        let reports = verifier.run(plan)
        progress.finish()

        let summary = VerifySummary(reports: reports, elapsed: ContinuousClock.now - clock)
        switch format {
        case .table: Console.message(summary.table())
        case .json: Console.out(summary.json())
        case .csv: Console.out(summary.csv())
        }
        if reports.contains(where: { $0.status == .damaged }) || (requireClean && reports.contains { $0.status != .clean }) {
            throw ExitCode(1)
        }
    }
}

/// The per-file report of `epf verify`, as `--format` prints it: a table
/// with its closing lines, JSON, or CSV.
extension VerifySummary {
    private var output: TabularOutput {
        TabularOutput(
            columns: ["table", "mode", "status", "rows", "repaired", "skipped", "as_text", "seconds", "file", "error"],
            rows: reports.map { report in
                [
                    .text(report.table), report.mode.map { .text($0) } ?? .null, .text(report.status.rawValue),
                    .integer(Int64(report.rows)), .integer(Int64(report.repaired)), .integer(Int64(report.skipped)),
                    .integer(Int64(report.keptAsText)), .text(String(format: "%.3f", report.seconds)), .text(report.path),
                    report.error.map { .text($0) } ?? .null,
                ]
            })
    }

    func table() -> String {
        var text = ""
        if !reports.isEmpty {
            // The errors were said as the files were read; the table stays narrow.
            var narrow = output
            narrow.columns.removeLast()
            narrow.rows = narrow.rows.map { Array($0.dropLast()) }
            text += narrow.render(.table)
        }
        for report in reports {
            for duplicate in report.duplicateKeys {
                text +=
                    "repeated key: \(report.path): (\(duplicate.key.joined(separator: ", "))) in \(duplicate.rows) rows, "
                    + "record \(duplicate.firstRecord) (byte \(duplicate.firstOffset)) to record \(duplicate.lastRecord) "
                    + "(byte \(duplicate.lastOffset)); an import keeps the last\n"
            }
            if report.counts.duplicateKeys > 0 {
                text += "repeated key: \(report.path): \(Format.count(report.counts.duplicateKeys)) row(s) in all would be skipped\n"
            }
        }
        text +=
            "\(reports.count) file(s) verified: \(count(.clean)) clean, \(count(.repairable)) repairable, "
            + "\(count(.damaged)) damaged; \(Format.count(rows)) rows in \(String(format: "%.2f", elapsed.inSeconds)) s"
        return text
    }

    func csv() -> String { output.render(.csv) }

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }
}
