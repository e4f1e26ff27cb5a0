import Foundation

/// A small feed whose chess applications have ranks in the storefronts'
/// overall charts (genre 36) that turn the index's order around: what
/// popular-first search is tested on, in every backend and through the
/// command line and the server.
///
/// Titles (`chess` finds 1-5; the index's order is whole words first,
/// then fewer words: 3, 5, 2, 1, 4): 1 Chessboard, 2 Chess Pro Deluxe,
/// 3 Chess, 4 Chessmaster Pro, 5 Ocean Chess, 6 Weather. Every application
/// is sold in JP, and all but 1 in the US. The US chart ranks 4, 1, 6 (and
/// genre 6014's chart ranks 2 first, which the search does not use); JP's
/// ranks 2, 5, 6. Every application is for iPhone but 5, for iPad only.
/// The US chart ranks first 7, sold there but not in `application` (a
/// popularity feed newer than the itunes feed): a chart leaves it out and
/// is still as long as asked (`usFreeChart`).
public enum ChessCharts {
    /// `chess` (and `che`) in the US: the chart's 4 by rank (1 is not sold
    /// there), then the index's order.
    public static let unitedStates: [Int64] = [4, 3, 5, 2]
    /// `chess` (and `che`) in JP: the chart's 2 and 5, then the index's order.
    public static let japan: [Int64] = [2, 5, 3, 1, 4]
    /// `chess` in JP for iPhone (`software`): 5 is for iPad only.
    public static let japanForIPhone: [Int64] = [2, 3, 1, 4]
    /// The US top free chart's first two: 7 is not in `application`, 1 not
    /// sold in the US.
    public static let usFreeChart: [Int64] = [4, 6]

    /// Writes the feed's table files into `folder` (a feed folder,
    /// `itunes20261101`, made if missing) and returns its path.
    @discardableResult
    public static func write(in folder: URL) throws -> String {
        let feed = folder.appendingPathComponent("itunes20261101")
        try FileManager.default.createDirectory(at: feed, withIntermediateDirectories: true)
        let date = "1793491200000"
        let titles = ["Chessboard", "Chess Pro Deluxe", "Chess", "Chessmaster Pro", "Ocean Chess", "Weather"]
        let tables: [(String, [String], [String], [String], [[String]])] = [
            (
                "application", ["export_date", "application_id", "title"], ["BIGINT", "INTEGER", "VARCHAR(1000)"], ["application_id"],
                titles.enumerated().map { [date, "\($0 + 1)", $1] }
            ),
            (
                "storefront", ["export_date", "storefront_id", "country_code", "name"],
                ["BIGINT", "INTEGER", "VARCHAR(3)", "VARCHAR(200)"],
                ["storefront_id"], [[date, "143441", "USA", "United States"], [date, "143462", "JPN", "Japan"]]
            ),
            (
                "application_price", ["export_date", "application_id", "retail_price", "currency_code", "storefront_id"],
                ["BIGINT", "INTEGER", "DECIMAL(9,3)", "VARCHAR(20)", "INTEGER"], ["application_id", "storefront_id"],
                ((1...6).flatMap { id in [[date, "\(id)", "0", "USD", "143441"], [date, "\(id)", "0", "JPY", "143462"]] }.filter {
                    !($0[1] == "1" && $0[4] == "143441")
                }) + [[date, "7", "0", "USD", "143441"]]
            ),
            (
                "device_type", ["export_date", "device_type_id", "name"], ["BIGINT", "INTEGER", "VARCHAR(200)"], ["device_type_id"],
                [[date, "1", "iPhone"], [date, "3", "iPad"]]
            ),
            (
                "application_device_type", ["export_date", "application_id", "device_type_id"], ["BIGINT", "INTEGER", "INTEGER"],
                ["application_id", "device_type_id"], (1...6).map { [date, "\($0)", $0 == 5 ? "3" : "1"] }
            ),
            (
                "application_popularity_per_genre", ["export_date", "storefront_id", "genre_id", "application_id", "application_rank"],
                ["BIGINT", "INTEGER", "INTEGER", "INTEGER", "TINYINT"], ["storefront_id", "genre_id", "application_id"],
                [
                    ["143441", "36", "7", "1"], ["143441", "36", "4", "2"], ["143441", "36", "1", "3"], ["143441", "36", "6", "4"],
                    ["143441", "6014", "2", "1"],
                    ["143462", "36", "2", "1"], ["143462", "36", "5", "2"], ["143462", "36", "6", "3"],
                ].map { [date] + $0 }
            ),
        ]
        for (name, columns, types, key, rows) in tables {
            let bytes = tableFileBytes(columns: columns, types: types, key: key, mode: "FULL", rows: rows)
            try Data(bytes).write(to: feed.appendingPathComponent(name))
        }
        return feed.path
    }
}
