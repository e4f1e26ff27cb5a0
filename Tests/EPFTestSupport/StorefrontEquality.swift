import Foundation
import Testing

/// Checks that `epf import --storefront` equals a SQL filter of the
/// unfiltered catalog, through `epf` itself (`import`, `tables`, `sql`), so
/// one check serves every store a `--db` can name.
public enum StorefrontEquality {
    /// Imports `feeds` into `unfiltered` (every storefront) and into
    /// `filtered` with `--storefront` `ids`, then compares every table of
    /// the filtered catalog: a per-storefront table (one `epf tables` shows
    /// a set for) holds exactly the unfiltered rows `WHERE storefront_id IN
    /// ids`, every other table the same rows. Returns the per-storefront
    /// tables checked.
    @discardableResult
    public static func check(feeds: [String], ids: [Int64], unfiltered: String, filtered: String, in folder: URL) throws -> [String] {
        let all = try EPFRunner.run(["import", "--db", unfiltered] + feeds, in: folder)
        try #require(all.status == 0, "\(all.stderr)")
        let list = ids.map(String.init).joined(separator: ",")
        let some = try EPFRunner.run(["import", "--db", filtered, "--storefront", list] + feeds, in: folder)
        try #require(some.status == 0, "\(some.stderr)")

        let tables = try EPFRunner.run(["tables", "--db", filtered, "--format", "json"], in: folder)
        try #require(tables.status == 0, "\(tables.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(tables.stdout.utf8)) as? [[String: Any]], "\(tables.stdout)")
        var perStorefront: [String] = []
        for row in rows {
            let table = try #require(row["table"] as? String)
            let set = row["storefronts"] as? String
            var query = "SELECT * FROM \(table)"
            if set != nil {
                perStorefront.append(table)
                query += " WHERE storefront_id IN (\(list))"
            }
            let expected = try Self.rows(query, db: unfiltered, in: folder)
            let actual = try Self.rows("SELECT * FROM \(table)", db: filtered, in: folder)
            #expect(actual == expected, "\(table): the filtered import differs from the filtered rows")
            if set != nil {
                #expect(!actual.isEmpty, "\(table): no rows of \(list)")
                let total = try Self.rows("SELECT * FROM \(table)", db: unfiltered, in: folder)
                #expect(total.count > actual.count, "\(table): the filter left nothing out")
            }
        }
        return perStorefront
    }

    /// The CSV lines of `query`'s rows, sorted (the header left out).
    static func rows(_ query: String, db: String, in folder: URL) throws -> [Substring] {
        let result = try EPFRunner.run(["sql", "--db", db, "--format", "csv", query], in: folder)
        try #require(result.status == 0, "\(query): \(result.stderr)")
        return result.stdout.split(separator: "\n").dropFirst().sorted()
    }
}
