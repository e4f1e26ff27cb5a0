import ArgumentParser
import EPFCatalog
import EPFFormat
import EPFSynthetic
import Foundation

/// `epf generate`
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a deterministic synthetic feed (application, application_price) for benchmarks and tests.",
        discussion: """
            The same --rows and --seed always give the same bytes. Rows are ~2 KB, like the \
            real application table: 1,000,000 rows make about 2 GB.
            """)

    @Option(name: .long, help: ArgumentHelp("The folder to write (created if needed).", valueName: "dir"))
    var out: String

    @Option(name: .long, help: "Applications to write.")
    var rows: Int = 10_000

    @Option(name: .long, help: "Seed of the pseudo-random data.")
    var seed: UInt64 = 1

    @Option(
        name: .long,
        help: "Storefronts per application in application_price (0 to leave the table out), up to 177: real storefront IDs, US and JP first.")
    var storefronts: Int = 5

    @Flag(
        name: .long,
        help: "Also write storefront, genre, genre_application, artist, artist_application, device_type and application_device_type (a catalog to query).")
    var catalogTables = false

    @Option(
        name: .long,
        help: ArgumentHelp("The export_date of every row, a UTC day (default: 2026-11-01).", valueName: "yyyy-mm-dd"))
    var exportDate: String?

    @Flag(name: .long, help: "Write INCREMENTAL files (#exportMode:INCREMENTAL) instead of FULL ones.")
    var incremental = false

    /// `--export-date` as epoch milliseconds.
    var exportMilliseconds: Int64? {
        guard let exportDate else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.date(from: exportDate).map { Int64($0.timeIntervalSince1970 * 1000) }
    }

    func validate() throws {
        if exportDate != nil && exportMilliseconds == nil { throw ValidationError("--export-date takes a day as YYYY-MM-DD.") }
        guard rows >= 0 else { throw ValidationError("--rows must be 0 or more.") }
        let most = CountryCode.storefrontIDs.count
        guard (0...most).contains(storefronts) else { throw ValidationError("--storefronts must be between 0 and \(most).") }
    }

    func run() throws {
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            var generator = FeedGenerator(rows: rows, seed: seed, storefronts: storefronts)
            generator.moreStorefronts = CountryCode.storefrontIDs.map(Int.init)
            if let exportMilliseconds { generator.exportDate = exportMilliseconds }
            if incremental { generator.exportMode = .incremental }
            let clock = ContinuousClock.now
            let application = try generator.writeApplication(to: out)
            Console.message("wrote \(application)")
            if storefronts > 0 {
                Console.message("wrote \(try generator.writePrices(to: out))")
            }
            if catalogTables {
                for path in try generator.writeCatalogTables(to: out) { Console.message("wrote \(path)") }
            }
            Console.message(String(format: "%.1f s", Format.seconds(ContinuousClock.now - clock)))
        } catch {
            Console.message("epf generate: \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}
