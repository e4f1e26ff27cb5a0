import EPFCatalog
import EPFReport
import Foundation

/// What `epf generate` writes into a folder: one synthetic feed of the
/// application tables (`FeedGenerator`), or with `allTables` the whole
/// app feed set at the real feed's proportions (`AppFeedSet`), its days
/// after the first with `days` (or one of them, `onlyDay`).
package struct SyntheticFeed: Sendable {
    package var rows: Int
    package var seed: UInt64 = 1
    /// Storefronts per application in application_price (0: none); nil
    /// is 5, or 175 with `allTables`.
    package var storefronts: Int?
    package var allTables = false
    package var days = 0
    package var onlyDay: Int?
    /// Also the catalog tables (storefront, genre, artist, device types).
    package var catalogTables = false
    /// Also the popularity charts (`application_popularity_per_genre`):
    /// the top 200 of each genre in each of 175 storefronts.
    package var charts = false
    /// Every row's export_date, epoch milliseconds (nil: 2026-11-01).
    package var exportDate: Int64?
    package var incremental = false

    package init(rows: Int) { self.rows = rows }

    /// What is wrong with the request, in `epf generate`'s option names;
    /// nil when it can be written.
    package var problem: String? {
        let most = CountryCode.storefrontIDs.count
        if rows < 0 { return "--rows must be 0 or more." }
        if let storefronts, !(0...most).contains(storefronts) { return "--storefronts must be between 0 and \(most)." }
        guard allTables else {
            return days != 0 || onlyDay != nil ? "--days and --only-day go with --all-tables." : nil
        }
        if catalogTables || charts || incremental {
            return
                "--all-tables writes every table and the INCREMENTAL days itself: leave out --catalog-tables, --charts and --incremental."
        }
        if storefronts == 0 { return "--all-tables needs --storefronts 1 or more." }
        if days < 0 { return "--days must be 0 or more." }
        if (onlyDay ?? 0) < 0 { return "--only-day must be 0 or more." }
        return onlyDay != nil && days != 0 ? "Give --days or --only-day, not both." : nil
    }

    /// Writes the feed into `folder` (made if missing); `say` hears a line
    /// per table file written and one for the whole (size, seconds).
    package func write(to folder: String, say: (String) -> Void) throws(SyntheticFeedError) {
        let clock = ContinuousClock.now
        do {
            if allTables {
                var model = AppFeedModel(apps: rows, seed: seed, storefronts: Self.storefronts(storefronts ?? 175))
                if let exportDate { model.firstExportDate = exportDate }
                let set = AppFeedSet(model: model, days: days)
                var total: Int64 = 0
                let tell = { (file: AppFeedSet.Written) in
                    total += file.bytes
                    say("wrote \(file.path): \(Format.count(file.rows)) rows, \(Format.bytes(file.bytes))")
                }
                if let onlyDay { try set.write(day: onlyDay, to: folder).forEach(tell) } else { try set.write(to: folder, written: tell) }
                say(String(format: "%@ in %.1f s", Format.bytes(total), (ContinuousClock.now - clock).inSeconds))
                return
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var generator = FeedGenerator(rows: rows, seed: seed, storefronts: storefronts ?? 5)
            generator.moreStorefronts = CountryCode.storefrontIDs.map(Int.init)
            if let exportDate { generator.exportDate = exportDate }
            if incremental { generator.exportMode = .incremental }
            say("wrote \(try generator.writeApplication(to: folder))")
            if storefronts ?? 5 > 0 { say("wrote \(try generator.writePrices(to: folder))") }
            if catalogTables {
                for path in try generator.writeCatalogTables(to: folder) { say("wrote \(path)") }
            }
            if charts { say("wrote \(try generator.writePopularity(to: folder))") }
            say(String(format: "%.1f s", (ContinuousClock.now - clock).inSeconds))
        } catch {
            throw SyntheticFeedError(folder: folder, error: error)
        }
    }

    /// The first `count` storefronts: the United States and Japan, then
    /// the others by their alpha-2 code; named in English.
    package static func storefronts(_ count: Int) -> [AppFeedSet.Storefront] {
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

/// A synthetic feed that could not be written: the folder, why (Foundation's
/// own words name neither), and what to do.
package struct SyntheticFeedError: Error, CustomStringConvertible {
    package var folder: String
    package var why: String

    init(folder: String, error: any Error) {
        self.folder = folder
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && !isFolder.boolValue {
            why = "it is a file, not a folder"
            return
        }
        var text = error.localizedDescription
        let preamble = "The operation could not be completed. "
        if text.hasPrefix(preamble) { text.removeFirst(preamble.count) }
        while text.last == "." { text.removeLast() }
        why = text.prefix(1).lowercased() + text.dropFirst()
    }

    package var description: String {
        "cannot write the feed into \(folder): \(why). Give --out a folder you can write (it is made if missing)"
    }
}
