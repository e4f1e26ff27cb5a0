import EPFFormat
import Foundation

/// Writes deterministic synthetic EPF feeds of any size, for benchmarks and
/// stress tests: the same seed and row count give the same bytes.
///
/// The default shape is the real `application` table (17 columns, ~2 KB
/// rows with multi-line, accented, CJK and emoji text) and
/// `application_price` (compound key `application_id, storefront_id`).
///
/// Not a catalog API: users generate feeds with `epf generate`
/// (`SyntheticFeed`). SPI for the benchmark package, which writes its
/// inputs with it (`@_spi(Benchmarks) import EPFSynthetic`); the rest is
/// `package`.
@_spi(Benchmarks)
public struct FeedGenerator: Sendable {
    /// Applications to write.
    public var rows: Int
    /// Seed of the pseudo-random sequence.
    package var seed: UInt64
    /// Storefronts per application in `application_price`.
    package var storefronts: Int
    /// Storefront IDs used after the ten built in (`storefrontIDs`), priced
    /// in USD, when `storefronts` is above ten: real IDs, so that a
    /// storefront filter (`epf import --storefront`) can name them.
    package var moreStorefronts: [Int] = []
    /// `export_date` of every row (epoch milliseconds).
    package var exportDate: Int64 = 1_793_491_200_000
    /// `#exportMode` of every file.
    package var exportMode: ExportMode = .full

    /// A generator of `rows` applications, each priced in `storefronts`
    /// storefronts, from `seed`.
    public init(rows: Int, seed: UInt64 = 1, storefronts: Int = 5) {
        self.rows = rows
        self.seed = seed
        self.storefronts = storefronts
    }

    /// The `application` table's columns and declared types.
    package static let applicationColumns: [(String, String)] = [
        ("export_date", "BIGINT"), ("application_id", "INTEGER"), ("title", "VARCHAR(1000)"),
        ("recommended_age", "VARCHAR(20)"), ("artist_name", "VARCHAR(1000)"), ("seller_name", "VARCHAR(1000)"),
        ("company_url", "VARCHAR(1000)"), ("support_url", "VARCHAR(1000)"), ("view_url", "VARCHAR(1000)"),
        ("artwork_url_large", "VARCHAR(1000)"), ("artwork_url_small", "VARCHAR(1000)"),
        ("itunes_release_date", "DATETIME"), ("copyright", "VARCHAR(4000)"), ("description", "LONGTEXT"),
        ("version", "VARCHAR(100)"), ("itunes_version", "VARCHAR(100)"), ("download_size", "BIGINT"),
    ]

    /// The `application_price` table's columns and declared types.
    package static let priceColumns: [(String, String)] = [
        ("export_date", "BIGINT"), ("application_id", "INTEGER"), ("retail_price", "DECIMAL(9,3)"),
        ("currency_code", "VARCHAR(20)"), ("storefront_id", "INTEGER"),
    ]

    /// The storefronts prices are written for, with their currencies: the
    /// built-in ten, then `moreStorefronts`.
    package var priceStorefronts: [(Int, String)] {
        let builtIn = Set(Self.storefrontIDs.map(\.0))
        return Array((Self.storefrontIDs + moreStorefronts.filter { !builtIn.contains($0) }.map { ($0, "USD") }).prefix(storefronts))
    }

    static let storefrontIDs: [(Int, String)] = [
        (143441, "USD"), (143462, "JPY"), (143442, "EUR"), (143443, "EUR"), (143444, "GBP"), (143465, "CNY"),
        (143466, "KRW"), (143455, "CAD"), (143460, "AUD"), (143469, "RUB"),
    ]

    /// Writes `application` into `folder` (created if needed) and returns
    /// its path.
    @discardableResult
    public func writeApplication(to folder: String, name: String = "application") throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        var writer = try BufferedWriter(path: path)
        try writeHeader(&writer, columns: Self.applicationColumns, key: ["application_id"])
        var random = SplitMix64(seed: seed)
        var row = [UInt8]()
        row.reserveCapacity(8192)
        for index in 0..<rows {
            row.removeAll(keepingCapacity: true)
            appendApplication(index, into: &row, random: &random)
            try writer.write(row)
        }
        try writer.write(Array("#recordsWritten:\(rows)".utf8) + [0x02, 0x0A])
        try writer.close()
        return path
    }

    /// The `application` table file's bytes, in memory (for benchmarks).
    public func applicationBytes() throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("epf-generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeApplication(to: folder.path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Writes `application_price` into `folder` and returns its path.
    @discardableResult
    public func writePrices(to folder: String, name: String = "application_price") throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        var writer = try BufferedWriter(path: path)
        try writeHeader(&writer, columns: Self.priceColumns, key: ["application_id", "storefront_id"])
        var random = SplitMix64(seed: seed &+ 0x5EED)
        var row = [UInt8]()
        let priced = priceStorefronts
        let count = priced.count
        for index in 0..<rows {
            let id = applicationID(index)
            for (storefront, currency) in priced {
                row.removeAll(keepingCapacity: true)
                append("\(exportDate)", &row); row.append(1)
                append("\(id)", &row); row.append(1)
                let cents = random.next() % 5 == 0 ? 0 : Int(random.next() % 5000) * 10 + 990
                let price =
                    currency == "JPY" || currency == "KRW"
                    ? "\(cents / 10 * 12).000" : "\(cents / 1000).\(String(format: "%03d", cents % 1000))"
                append(price, &row); row.append(1)
                append(currency, &row); row.append(1)
                append("\(storefront)", &row)
                row.append(0x02); row.append(0x0A)
                try writer.write(row)
            }
        }
        try writer.write(Array("#recordsWritten:\(rows * count)".utf8) + [0x02, 0x0A])
        try writer.close()
        return path
    }

    /// The Apple ID of application `index` (0-based, in file order): IDs
    /// are distinct, 9 digits, not in file order (as in real feeds).
    public func applicationID(_ index: Int) -> Int {
        // A bijection on 0..<2^28 (odd multiplier mod 2^28), offset into 9 digits.
        300_000_000 + (index &* 0x9E3779B1) & 0x0FFF_FFFF
    }

    func writeHeader(_ writer: inout BufferedWriter, columns: [(String, String)], key: [String]) throws {
        let rows = [
            "#" + columns.map(\.0).joined(separator: "\u{1}"),
            "#primaryKey:" + key.joined(separator: "\u{1}"),
            "#dbTypes:" + columns.map(\.1).joined(separator: "\u{1}"),
            "#exportMode:" + exportMode.rawValue,
            "##legal: Synthetic data generated by epf generate; not Apple's data.",
        ]
        for row in rows { try writer.write(Array(row.utf8) + [0x02, 0x0A]) }
    }

    func appendApplication(_ index: Int, into row: inout [UInt8], random: inout SplitMix64) {
        let id = applicationID(index)
        let titleWords = 2 + Int(random.next() % 3)
        var title = [UInt8]()
        for word in 0..<titleWords {
            if word > 0 { title.append(0x20) }
            title += Self.titleWords[Int(random.next() % UInt64(Self.titleWords.count))]
        }
        let artist = Self.titleWords[Int(random.next() % UInt64(Self.titleWords.count))] + Array(" Studio \(index % 9973)".utf8)
        append("\(exportDate)", &row); row.append(1)
        append("\(id)", &row); row.append(1)
        row += title; row.append(1)
        append(["4+", "9+", "12+", "17+"][Int(random.next() % 4)], &row); row.append(1)
        row += artist; row.append(1)
        row += artist; append(" Ltd", &row); row.append(1)
        append("https://developer\(index % 9973).example.com", &row); row.append(1)
        append("https://developer\(index % 9973).example.com/support", &row); row.append(1)
        append("https://apps.apple.com/us/app/app-\(id)/id\(id)?mt=8", &row); row.append(1)
        append("https://is1-ssl.mzstatic.com/image/thumb/Purple/v4/aa/bb/cc/\(id)/AppIcon-512x512bb.png", &row); row.append(1)
        append("https://is1-ssl.mzstatic.com/image/thumb/Purple/v4/aa/bb/cc/\(id)/AppIcon-100x100bb.png", &row); row.append(1)
        let year = 2008 + Int(random.next() % 18)
        let month = 1 + Int(random.next() % 12)
        let day = 1 + Int(random.next() % 28)
        append(String(format: "%04d %02d %02d", year, month, day), &row); row.append(1)
        append("© \(year) ", &row); row += artist; row.append(1)
        // ~1.5 KB of description in lines.
        let target = 1200 + Int(random.next() % 700)
        let start = row.count
        while row.count - start < target {
            row += Self.descriptionWords[Int(random.next() % UInt64(Self.descriptionWords.count))]
            let roll = random.next() % 16
            row.append(roll == 0 ? 0x0A : 0x20)
        }
        row.append(1)
        append("\(1 + random.next() % 9).\(random.next() % 20).\(random.next() % 10)", &row); row.append(1)
        append("\(100_000 + random.next() % 900_000)", &row); row.append(1)
        append("\(1_000_000 + random.next() % 900_000_000)", &row)
        row.append(0x02); row.append(0x0A)
    }

    func append(_ text: String, _ row: inout [UInt8]) {
        row.append(contentsOf: text.utf8)
    }

    /// The words titles are made of (each title 2 to 4 of them), as UTF-8.
    public static let titleWords: [[UInt8]] = [
        "Chess", "Puzzle", "Weather", "Photo", "Editor", "Pro", "Lite", "Notes", "Music", "Tracker", "Daily",
        "Word", "Quest", "Kingdom", "Café", "Échecs", "象棋", "将棋", "パズル", "체스", "Maps", "Budget", "Sleep",
        "Yoga", "Run", "Recipe", "Garden", "Sky", "Ocean", "Pixel", "Camera", "🎲", "Star", "Zen", "Tiles",
    ].map { Array($0.utf8) }

    static let descriptionWords: [[UInt8]] = [
        "the", "app", "helps", "you", "plan", "your", "day", "with", "simple", "tools", "and", "beautiful",
        "widgets", "for", "every", "screen", "track", "progress", "share", "with", "friends", "offline", "mode",
        "no", "ads", "sync", "across", "devices", "privacy", "first", "design", "crafted", "for", "iPhone",
        "iPad", "and", "Mac", "features:", "•", "dark", "mode", "support", "—", "über", "naïve", "café", "日本語",
        "対応", "中文", "支持", "한국어", "😀", "🚀", "premium", "subscription", "unlocks", "more", "levels",
        "puzzles", "themes", "statistics", "reminders", "calendar", "export", "import", "backup", "restore",
    ].map { Array($0.utf8) }
}

/// A small deterministic generator (SplitMix64): fast, and the same on every
/// platform, unlike the system's random numbers. SPI
/// (`@_spi(Benchmarks) import EPFSynthetic`): the benchmark package draws
/// its random inputs from it.
@_spi(Benchmarks)
public struct SplitMix64: Sendable {
    var state: UInt64
    /// A generator whose sequence `seed` starts.
    public init(seed: UInt64) { state = seed }
    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Appends bytes to a file through an 8 MB buffer.
struct BufferedWriter {
    let handle: FileHandle
    var buffer: [UInt8] = []

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        buffer.reserveCapacity(8 << 20)
    }

    mutating func write(_ bytes: [UInt8]) throws {
        buffer += bytes
        if buffer.count >= 8 << 20 { try flush() }
    }

    mutating func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws {
        try flush()
        try handle.close()
    }
}
