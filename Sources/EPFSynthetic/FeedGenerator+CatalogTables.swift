import EPFCatalog
import Foundation

/// The tables a lookup joins besides `application` and `application_price`:
/// storefronts, genres, artists and devices, in the real column shapes, for
/// query benchmarks on a catalog of any size.
extension FeedGenerator {
    /// Top-level genres, then the Games subgenres (id, parent, name).
    static let genres: [(Int, Int?, String)] = [
        (36, nil, "App Store"), (6000, 36, "Business"), (6002, 36, "Utilities"), (6007, 36, "Productivity"),
        (6008, 36, "Photo & Video"), (6011, 36, "Music"), (6012, 36, "Lifestyle"), (6013, 36, "Health & Fitness"),
        (6014, 36, "Games"), (6016, 36, "Entertainment"), (6017, 36, "Education"), (7001, 6014, "Action"),
        (7002, 6014, "Board"), (7005, 6014, "Card"), (7012, 6014, "Puzzle"), (7017, 6014, "Strategy"),
    ]

    static let storefronts: [(Int, String, String)] = [
        (143441, "USA", "United States"), (143462, "JPN", "Japan"), (143442, "FRA", "France"),
        (143443, "DEU", "Germany"), (143444, "GBR", "United Kingdom"), (143465, "CHN", "China"),
        (143466, "KOR", "Korea"), (143455, "CAN", "Canada"), (143460, "AUS", "Australia"), (143469, "RUS", "Russia"),
    ]

    static let devices: [(Int, String)] = [(1, "iPhone"), (2, "iPod touch"), (3, "iPad"), (6, "Mac")]

    /// Artists: application `i` is by artist `i % artistCount`.
    static let artistCount = 9973

    /// Writes `storefront`, `genre`, `genre_application`, `artist`,
    /// `artist_application`, `device_type` and `application_device_type`
    /// into `folder` and returns their paths. Every application gets a
    /// primary genre (Games ones a subgenre too), one artist and one to
    /// three devices.
    @discardableResult
    public func writeCatalogTables(to folder: String) throws -> [String] {
        var random = SplitMix64(seed: seed &+ 0xCA7A)
        var paths: [String] = []
        paths.append(
            try writeTable(
                folder, "storefront", [("storefront_id", "INTEGER"), ("country_code", "VARCHAR(3)"), ("name", "VARCHAR(200)")],
                key: ["storefront_id"], count: Self.storefronts.count
            ) { index, fields in
                let (id, code, name) = Self.storefronts[index]
                fields = ["\(id)", code, name]
            })
        paths.append(
            try writeTable(
                folder, "genre", [("genre_id", "INTEGER"), ("parent_id", "INTEGER"), ("name", "VARCHAR(200)")], key: ["genre_id"],
                count: Self.genres.count
            ) { index, fields in
                let (id, parent, name) = Self.genres[index]
                fields = ["\(id)", parent.map { "\($0)" } ?? "", name]
            })
        let topLevel = Self.genres.filter { $0.1 == 36 }.map(\.0)
        let games = Self.genres.filter { $0.1 == 6014 }.map(\.0)
        paths.append(
            try writeTable(
                folder, "genre_application", [("genre_id", "INTEGER"), ("application_id", "INTEGER"), ("is_primary", "BOOLEAN")],
                key: ["genre_id", "application_id"], count: rows, perRow: 2
            ) { index, fields in
                let id = applicationID(index / 2)
                let primary = topLevel[Int(random.next() % UInt64(topLevel.count))]
                if index % 2 == 0 {
                    fields = ["\(primary)", "\(id)", "1"]
                } else {
                    // A second genre: a Games subgenre (or Games itself for a non-game).
                    fields = ["\(games[Int(random.next() % UInt64(games.count))])", "\(id)", "0"]
                }
            })
        paths.append(
            try writeTable(
                folder, "artist",
                [("artist_id", "INTEGER"), ("name", "VARCHAR(1000)"), ("is_actual_artist", "BOOLEAN"), ("view_url", "VARCHAR(1000)")],
                key: ["artist_id"], count: Self.artistCount
            ) { index, fields in
                let id = Self.artistID(index)
                fields = ["\(id)", "Studio \(index)", "1", "https://apps.apple.com/us/developer/studio-\(index)/id\(id)"]
            })
        paths.append(
            try writeTable(
                folder, "artist_application", [("artist_id", "INTEGER"), ("application_id", "INTEGER")],
                key: ["artist_id", "application_id"], count: rows
            ) { index, fields in
                fields = ["\(Self.artistID(index % Self.artistCount))", "\(applicationID(index))"]
            })
        paths.append(
            try writeTable(
                folder, "device_type", [("device_type_id", "INTEGER"), ("name", "VARCHAR(200)")], key: ["device_type_id"],
                count: Self.devices.count
            ) { index, fields in
                fields = ["\(Self.devices[index].0)", Self.devices[index].1]
            })
        paths.append(
            try writeTable(
                folder, "application_device_type", [("application_id", "INTEGER"), ("device_type_id", "INTEGER")],
                key: ["application_id", "device_type_id"], count: rows, perRow: 2
            ) { index, fields in
                // iPhone for every application; the second row iPad or Mac.
                fields = ["\(applicationID(index / 2))", index % 2 == 0 ? "1" : (index % 4 == 1 ? "3" : "6")]
            })
        return paths
    }

    /// Writes `application_popularity_per_genre` into `folder` and returns
    /// its path: for each of the first `storefronts` storefronts (the ten
    /// built in, then the others by their ID) and each genre of `genre`,
    /// `perGenre` applications ranked 1 to `perGenre`, drawn at random from
    /// all of them (so a chart's applications need not be of its genre:
    /// the size and the spread are what a query benchmark needs).
    @discardableResult
    public func writePopularity(to folder: String, storefronts: Int = 175, perGenre: Int = 200) throws -> String {
        let builtIn = Self.storefrontIDs.map(\.0)
        let ids = Array((builtIn + CountryCode.storefrontIDs.map(Int.init).filter { !builtIn.contains($0) }).prefix(storefronts))
        let charts = ids.flatMap { storefront in Self.genres.map { (storefront, $0.0) } }
        let perChart = min(perGenre, rows)
        var chart: [Int] = []
        return try writeTable(
            folder, "application_popularity_per_genre",
            [("storefront_id", "INTEGER"), ("genre_id", "INTEGER"), ("application_id", "INTEGER"), ("application_rank", "TINYINT")],
            key: ["storefront_id", "genre_id", "application_id"], count: charts.count, perRow: perChart
        ) { index, fields in
            let (storefront, genre) = charts[index / perChart]
            let rank = index % perChart
            if rank == 0 {
                var random = SplitMix64(seed: seed &+ UInt64(storefront) &* 31 &+ UInt64(genre))
                var picked = Set<Int>()
                chart.removeAll(keepingCapacity: true)
                while chart.count < perChart {
                    let app = Int(random.next() % UInt64(rows))
                    if picked.insert(app).inserted { chart.append(app) }
                }
            }
            fields = ["\(storefront)", "\(genre)", "\(applicationID(chart[rank]))", "\(rank + 1)"]
        }
    }

    static func artistID(_ index: Int) -> Int { 280_000_000 + index }

    /// Writes table `name` of `count * perRow` rows; `row(i, &fields)`
    /// fills row `i`'s fields after `export_date`.
    private func writeTable(
        _ folder: String, _ name: String, _ columns: [(String, String)], key: [String], count: Int, perRow: Int = 1,
        _ row: (Int, inout [String]) -> Void
    ) throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        var writer = try BufferedWriter(path: path)
        try writeHeader(&writer, columns: [("export_date", "BIGINT")] + columns, key: key)
        var fields: [String] = []
        var bytes = [UInt8]()
        for index in 0..<(count * perRow) {
            row(index, &fields)
            bytes.removeAll(keepingCapacity: true)
            append("\(exportDate)", &bytes)
            for field in fields {
                bytes.append(1)
                append(field, &bytes)
            }
            bytes.append(0x02)
            bytes.append(0x0A)
            try writer.write(bytes)
        }
        try writer.write(Array("#recordsWritten:\(count * perRow)".utf8) + [0x02, 0x0A])
        try writer.close()
        return path
    }
}
