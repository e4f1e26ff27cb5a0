import ArgumentParser
import EPFCatalog
import EPFLocation
import EPFStoreLocation
import Foundation

/// `epf compact [--db PATH|URL] [--format table|json|csv]`
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Give back to the disk the space a FULL re-import left free inside the catalog.",
        discussion: """
            A FULL re-import builds each table beside the one it replaces, and SQLite keeps the \
            old table's pages free inside the file: the catalog grows to about twice its size. \
            epf compact writes the catalog again without them. Lookups, searches and epf-server \
            keep answering meanwhile. It does not run during an import, nor an import during it. It needs \
            free disk space of about twice the catalog's size in use, checked first. \
            PostgreSQL gives a replaced table's space back by itself: there, it says so.
            Prints what it did (catalog, bytes before and after, bytes returned, seconds) on \
            standard output; progress and messages on standard error.
            """)

    @OptionGroup var catalog: CatalogOption

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .table

    func run() throws {
        let display = CompactionDisplay(live: Console.messagesAreTerminal)
        let report: CompactionReport
        do {
            report = try catalog.location.compact(hooks: TestEnvironment().compactionHooks, progress: display.show)
        } catch {
            display.finish()
            Console.message("epf compact: \(error.description)")
            throw ExitCode(error.kind == .usage ? 64 : 1)
        }
        display.finish()
        for note in report.notes { Console.message("note: \(note)") }
        if let reason = report.nothingToDo {
            Console.message("epf compact: \(report.catalog): \(reason) (\(Format.bytes(report.bytesBefore)))")
        } else {
            Console.message(
                "epf compact: \(report.catalog): \(Format.bytes(report.bytesBefore)) -> \(Format.bytes(report.bytesAfter)), "
                    + "\(Format.bytes(report.bytesReturned)) returned to the disk in " + String(format: "%.1f s", report.seconds))
        }
        let output = TabularOutput(
            columns: ["catalog", "bytes_before", "bytes_after", "bytes_returned", "seconds"],
            rows: [
                [
                    .text(report.catalog), .integer(report.bytesBefore), .integer(report.bytesAfter), .integer(report.bytesReturned),
                    .real(report.seconds),
                ]
            ],
            forms: ["seconds": .seconds])
        Console.out(output.render(format))
    }
}

/// Shows a compaction's progress on standard error: a status line
/// refreshed in place on a terminal, a plain line every 10 seconds
/// otherwise (and one per step).
final class CompactionDisplay {
    let live: Bool
    private var lastLogged: ContinuousClock.Instant?
    private var lastStep: String?
    private let logInterval = Duration.seconds(10)
    private let started = ContinuousClock.now

    init(live: Bool) { self.live = live }

    func show(_ event: CompactionEvent) {
        let step: String
        let line: String
        switch event {
        case .started(let liveBytes, let freeBytes):
            step = "start"
            line = "compacting: \(Format.bytes(liveBytes)) in use, \(Format.bytes(freeBytes)) free to return"
        case .copying(let done, let total):
            step = "copying"
            line = "copying the pages in use: " + Self.share(done, total)
        case .writingBack(let done, let total):
            step = "writing back"
            line = "writing the compact copy back: " + Self.share(done, total)
        case .truncating:
            step = "truncating"
            line = "cutting the file to its new size"
        }
        let elapsed = Format.duration((ContinuousClock.now - started).inSeconds)
        if live {
            Console.status("\(line) (\(elapsed))")
        } else if step != lastStep || lastLogged.map({ ContinuousClock.now - $0 >= logInterval }) ?? true {
            Console.message("\(line) (\(elapsed))")
            lastLogged = .now
        }
        lastStep = step
    }

    /// `12.0 of 270.0 MB (4%)`.
    private static func share(_ done: Int64, _ total: Int64) -> String {
        guard total > 0 else { return Format.bytes(done) }
        return Format.bytes(done, of: total) + " (\(min(100, done * 100 / total))%)"
    }

    func finish() {
        if live { Console.clearStatus() }
    }
}
