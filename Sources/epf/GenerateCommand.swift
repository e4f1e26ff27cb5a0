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

            With --all-tables, --out gets the whole app feed set at the real feed's proportions: \
            every app table of the itunes, pricing and popularity feeds for --rows applications \
            (application_detail in several languages, a price per storefront, the charts), in the \
            folders itunesYYYYMMDD, pricingYYYYMMDD and popularityYYYYMMDD of the first day, and \
            with --days N the N days after it: INCREMENTAL (new applications, new versions, price \
            changes), each seventh a FULL. `epf import DIR` takes them in date order. \
            1,000,000 applications make about 19 GB a FULL day (docs/PERFORMANCE.md, "The real size").
            """)

    @Option(name: .long, help: ArgumentHelp("The folder to write (created if needed).", valueName: "dir"))
    var out: String

    @Option(name: .long, help: "Applications to write.")
    var rows: Int = 10_000

    @Option(name: .long, help: "Seed of the pseudo-random data.")
    var seed: UInt64 = 1

    @Option(
        name: .long,
        help:
            "Storefronts per application in application_price (0 to leave the table out), up to 177: real storefront IDs, US and JP first. (default: 5; 175 with --all-tables)"
    )
    var storefronts: Int?

    @Flag(
        name: .long,
        help:
            "Write every app table of the itunes, pricing and popularity feeds at the real feed's proportions, in feed folders (see above)."
    )
    var allTables = false

    @Option(name: .long, help: "With --all-tables: the days written after the first FULL (each seventh a FULL, the others INCREMENTAL).")
    var days: Int = 0

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --all-tables: write only day N (0 is the first FULL; a multiple of 7 is a FULL, others INCREMENTAL), the same bytes as with --days.",
            valueName: "n"))
    var onlyDay: Int?

    @Flag(
        name: .long,
        help:
            "Also write storefront, genre, genre_application, artist, artist_application, device_type and application_device_type (a catalog to query)."
    )
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
        if let storefronts, !(0...most).contains(storefronts) {
            throw ValidationError("--storefronts must be between 0 and \(most).")
        }
        if allTables {
            if catalogTables || incremental {
                throw ValidationError(
                    "--all-tables writes every table and the INCREMENTAL days itself: leave out --catalog-tables and --incremental.")
            }
            guard (1...most).contains(storefronts ?? 1) else { throw ValidationError("--all-tables needs --storefronts 1 or more.") }
            guard days >= 0 else { throw ValidationError("--days must be 0 or more.") }
            guard (onlyDay ?? 0) >= 0 else { throw ValidationError("--only-day must be 0 or more.") }
            if onlyDay != nil && days != 0 { throw ValidationError("Give --days or --only-day, not both.") }
        } else if days != 0 || onlyDay != nil {
            throw ValidationError("--days and --only-day go with --all-tables.")
        }
    }

    func run() throws {
        if allTables { return try writeFeedSet() }
        let storefronts = self.storefronts ?? 5
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
            Console.message(String(format: "%.1f s", (ContinuousClock.now - clock).inSeconds))
        } catch {
            Console.message("epf generate: \(Self.cannotWrite(out, error))")
            throw ExitCode(1)
        }
    }

    /// `--all-tables`: the feed set, a line per table file written.
    private func writeFeedSet() throws {
        var model = AppFeedModel(apps: rows, seed: seed, storefronts: Self.storefronts(storefronts ?? 175))
        if let exportMilliseconds { model.firstExportDate = exportMilliseconds }
        let clock = ContinuousClock.now
        var total: Int64 = 0
        do {
            let set = AppFeedSet(model: model, days: days)
            let say = { (file: AppFeedSet.Written) in
                total += file.bytes
                Console.message("wrote \(file.path): \(Format.count(file.rows)) rows, \(Format.bytes(file.bytes))")
            }
            if let onlyDay {
                try set.write(day: onlyDay, to: out).forEach(say)
            } else {
                try set.write(to: out, written: say)
            }
        } catch {
            Console.message("epf generate: \(Self.cannotWrite(out, error))")
            throw ExitCode(1)
        }
        Console.message(String(format: "%@ in %.1f s", Format.bytes(total), (ContinuousClock.now - clock).inSeconds))
    }

    /// Why `folder` could not be written, naming it and what to do
    /// (Foundation's own words name neither).
    static func cannotWrite(_ folder: String, _ error: any Error) -> String {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
        let why: String
        if exists && !isFolder.boolValue {
            why = "it is a file, not a folder"
        } else {
            var text = error.localizedDescription
            let preamble = "The operation could not be completed. "
            if text.hasPrefix(preamble) { text.removeFirst(preamble.count) }
            while text.last == "." { text.removeLast() }
            why = text.prefix(1).lowercased() + text.dropFirst()
        }
        return "cannot write the feed into \(folder): \(why). Give --out a folder you can write (it is made if missing)"
    }

    /// The first `count` storefronts: the United States and Japan, then the
    /// others by their alpha-2 code; named in English.
    static func storefronts(_ count: Int) -> [AppFeedSet.Storefront] {
        let first: [Int64] = [143441, 143462]
        let ids = first + CountryCode.storefrontIDs.filter { !first.contains($0) }
        let english = Locale(identifier: "en_US")
        return ids.prefix(count).map { id in
            let alpha2 = CountryCode.alpha2(forStorefront: id) ?? ""
            let code = CountryCode.alpha3(forStorefront: id) ?? alpha2
            return AppFeedSet.Storefront(id: Int(id), code: code, name: english.localizedString(forRegionCode: alpha2) ?? code)
        }
    }
}
