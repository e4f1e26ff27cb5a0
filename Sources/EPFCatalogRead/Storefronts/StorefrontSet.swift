import EPFCatalogCore
import EPFFormat
import Foundation

/// The storefronts a catalog holds the rows of, when it was imported with
/// `epf import --storefront US,JP`: its per-storefront tables (those with a
/// `storefront_id` column) have no rows of any other storefront.
///
/// Recorded with every file the import journal lists (`storefronts` in an
/// entry's details), so every store (SQLite, PostgreSQL, the lake) keeps it
/// the same way; the catalog's set is the one its last applied file
/// recorded (none: every storefront).
public struct StorefrontSet: Sendable, Equatable {
    /// The storefront IDs, ascending, without repeats.
    public let ids: [Int64]

    /// A set of `ids` (at least one).
    package init(ids: some Sequence<Int64>) {
        self.ids = Array(Set(ids)).sorted()
    }

    /// Parses `--storefront`: ISO country codes (`US`, `jpn`) and storefront
    /// IDs (`143462`), separated by commas; `all` is every storefront (nil).
    /// An unknown code is a usage error that lists the codes known.
    public static func parse(_ text: String) throws(CatalogError) -> StorefrontSet? {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if items.count == 1, items[0].lowercased() == "all" { return nil }
        guard !items.isEmpty else {
            throw CatalogError(
                .usage, detail: "--storefront needs storefronts", hint: "Give ISO country codes or storefront IDs: --storefront US,JP")
        }
        var ids: [Int64] = []
        for item in items {
            if let id = Int64(item), id > 0 {
                ids.append(id)
            } else if let id = CountryCode.storefrontID(forCode: item) {
                ids.append(id)
            } else {
                let known = CountryCode.storefrontIDs.compactMap(CountryCode.alpha2(forStorefront:))
                throw CatalogError(
                    .usage, detail: "--storefront: unknown country '\(item)'",
                    hint:
                        "Give ISO country codes (US or USA) or storefront IDs (143441); the codes known are \(known.joined(separator: " "))"
                )
            }
        }
        return StorefrontSet(ids: ids)
    }

    /// The filter an import applies to keep these storefronts' rows.
    package var filter: StorefrontFilter { StorefrontFilter(ids: ids) }

    /// `US, JP`: alpha-2 codes, the ID for a storefront without one.
    public var description: String {
        ids.map { CountryCode.alpha2(forStorefront: $0) ?? String($0) }.joined(separator: ", ")
    }

    /// `US,JP`: the set as `--storefront` takes it.
    public var argument: String {
        ids.map { CountryCode.alpha2(forStorefront: $0) ?? String($0) }.joined(separator: ",")
    }

    /// The set the journal details of one file record (`JournalEntry.
    /// details`, its `storefronts` member); nil: every storefront.
    package static func recorded(inDetails details: String?) -> StorefrontSet? {
        guard let details,
            let object = try? JSONSerialization.jsonObject(with: Data(details.utf8)) as? [String: Any],
            let ids = object["storefronts"] as? [NSNumber], !ids.isEmpty
        else { return nil }
        return StorefrontSet(ids: ids.map(\.int64Value))
    }

    /// The error of a lookup or search in `storefront` when the catalog's
    /// rows are of other storefronts only: never an empty answer that would
    /// read as "no such product".
    package func notImported(_ storefront: Storefront) -> CatalogError {
        let name =
            CountryCode.alpha2(forStorefront: storefront.id)
            ?? storefront.countryCode.flatMap(CountryCode.alpha2(forAlpha3:)) ?? String(storefront.id)
        var error = CatalogError(
            .notFound, detail: "storefront \(name) was not imported into this catalog (it has \(description))",
            hint: "Ask for one of those, or import the feeds again with --storefront naming \(name)")
        error.refusesStorefront = true
        return error
    }
}

extension CatalogReadSource {
    /// The catalog's storefront set, as its journal's last applied file
    /// recorded it; nil when the catalog has every storefront (or no
    /// journal). `tables` are the catalog's relations.
    package func storefrontSet(tables: Set<String>) throws(Failure) -> StorefrontSet? {
        guard tables.contains(CatalogTables.journal) else { return nil }
        var details: String?
        try forEachRow(
            "SELECT details FROM \(quoteIdentifier(CatalogTables.journal)) WHERE status = 'applied' ORDER BY id DESC LIMIT 1",
            SQLArguments()
        ) { row in details = row.text(0) }
        return StorefrontSet.recorded(inDetails: details)
    }
}
