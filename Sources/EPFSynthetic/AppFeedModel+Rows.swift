import EPFFormat

/// The rows of each table, written straight into bytes (fields split by
/// 0x01, rows ended by 0x02 0x0A).
extension AppFeedModel {
    /// Appends the rows `item` (an application, artist, chart, ... of
    /// `rows`) has in `table` on `day`; returns how many.
    func append(_ table: AppFeedTable, item: Int, day: Int, mode: ExportMode, rows: AppFeedRows, into bytes: inout [UInt8]) -> Int {
        let date = exportDate(day: day)
        switch table {
        case .application:
            var generator = FeedGenerator(rows: 0, seed: seed)
            generator.exportDate = date
            var random = SplitMix64(seed: hash(item, version(item, day: day), 10))
            generator.appendApplication(item, into: &bytes, random: &random)
            return 1
        case .applicationDetail:
            return appendDetails(item, day: day, date: date, into: &bytes)
        case .applicationDeviceType:
            let devices = self.devices(of: item)
            for device in devices { bytes.row(date, [.int(applicationID(item)), .int(device)]) }
            return devices.count
        case .artist:
            let renames = renames(ofArtist: item, by: day)
            let name = "Studio \(item)" + (renames > 0 ? " \(renames + 1)" : "")
            let id = FeedGenerator.artistID(item)
            bytes.row(
                date, [.int(id), .text(name), .int(1), .text("https://apps.apple.com/us/developer/studio-\(item)/id\(id)?mt=8"), .int(7)])
            return 1
        case .artistApplication:
            bytes.row(date, [.int(FeedGenerator.artistID(artist(of: item))), .int(applicationID(item))])
            return 1
        case .deviceType:
            let device = AppFeedText.devices[item]
            bytes.row(date, [.int(device.id), .text(device.name)])
            return 1
        case .genre:
            let genre = AppFeedText.genres[item]
            bytes.row(date, [.int(genre.id), genre.parent.map { .int($0) } ?? .text(""), .text(genre.name)])
            return 1
        case .genreApplication:
            let genres = self.genres(of: item)
            for (index, genre) in genres.enumerated() {
                bytes.row(date, [.int(AppFeedText.genres[genre].id), .int(applicationID(item)), .int(index == 0 ? 1 : 0)])
            }
            return genres.count
        case .storefront:
            let storefront = storefronts[item]
            bytes.row(date, [.int(storefront.id), .text(storefront.code), .text(storefront.name)])
            return 1
        case .applicationPrice:
            let tier = priceTier(item, day: day)
            let id = applicationID(item)
            for storefront in storefronts {
                let currency = AppFeedText.currencies[storefront.code] ?? (code: "USD", perDollar: 1, whole: false)
                bytes.row(date, [.int(id), .text(Self.price(tier: tier, currency: currency)), .text(currency.code), .int(storefront.id)])
            }
            return storefronts.count
        case .popularity:
            guard case .charts(let charts) = rows else { return 0 }
            let storefront = storefronts[item / charts.genreCount]
            let genre = item % charts.genreCount
            let candidates = genre == AppFeedText.rootGenre ? charts.overall : charts.candidates[genre]
            // The storefront's order: the application's own score, moved a little per storefront and day.
            let ranked = candidates.map { index in (hash(index, 0, 7) >> 1 &+ hash(index, day &* 1_000 &+ storefront.id, 8) >> 4, index) }
                .sorted { $0.0 < $1.0 }.prefix(200)
            for (rank, entry) in ranked.enumerated() {
                bytes.row(date, [.int(storefront.id), .int(AppFeedText.genres[genre].id), .int(applicationID(entry.1)), .int(rank + 1)])
            }
            return ranked.count
        }
    }

    /// How many times artist `index` was renamed by `day` (after the day it appeared).
    func renames(ofArtist index: Int, by day: Int) -> Int {
        var first = 0
        while artistCount(day: first) <= index { first += 1 }
        return day > first ? (first + 1...day).filter { isRenamed(artist: index, day: $0) }.count : 0
    }

    /// Whether artist `index` gets a new name on `day`.
    func isRenamed(artist index: Int, day: Int) -> Bool { hash(index, day, 4) % 1000 < 1 }

    /// The Apple ID of application `index` (`FeedGenerator`'s).
    func applicationID(_ index: Int) -> Int { FeedGenerator(rows: 0).applicationID(index) }

    /// 8 to 12 devices, distinct, as `device_type_id`s.
    func devices(of index: Int) -> [Int] {
        let roll = hash(index, 0, 9)
        let count = 8 + Int(roll % 5)
        let first = Int((roll >> 8) % UInt64(AppFeedText.devices.count - count + 1))
        return (first..<(first + count)).map { AppFeedText.devices[$0].id }
    }

    /// The languages of application `index` (indexes into
    /// `AppFeedText.languages`): 65% one, 17% two or three, 10% 4 to 9,
    /// 5% 10 to 19, 3% 20 to 39; English first for four in five.
    func languages(of index: Int) -> [Int] {
        var random = SplitMix64(seed: hash(index, 0, 5))
        let roll = random.next() % 100
        let total = AppFeedText.languages.count
        let count: Int
        switch roll {
        case ..<65: count = 1
        case ..<82: count = 2 + Int(random.next() % 2)
        case ..<92: count = 4 + Int(random.next() % 6)
        case ..<97: count = 10 + Int(random.next() % 10)
        default: count = 20 + Int(random.next() % UInt64(total - 19))
        }
        var order = Array(0..<total)
        if random.next() % 5 != 0 {
            // English first; the rest drawn.
            for slot in 1..<count {
                let pick = slot + Int(random.next() % UInt64(total - slot))
                order.swapAt(slot, pick)
            }
        } else {
            for slot in 0..<count {
                let pick = slot + Int(random.next() % UInt64(total - slot))
                order.swapAt(slot, pick)
            }
        }
        return Array(order.prefix(count))
    }

    /// `application_detail`: one row per language.
    private func appendDetails(_ index: Int, day: Int, date: Int64, into bytes: inout [UInt8]) -> Int {
        let languages = self.languages(of: index)
        let version = self.version(index, day: day)
        let id = applicationID(index)
        let hasIPad = hash(index, 0, 11) % 10 < 6
        let developer = "https://developer\(artist(of: index)).example.com"
        var fields: [RowField] = []
        for language in languages {
            let words = AppFeedText.languages[language].words
            let code = AppFeedText.languages[language].code
            var random = SplitMix64(seed: hash(index, version, 12 &+ UInt64(language)))
            fields.removeAll(keepingCapacity: true)
            fields.append(.int(id))
            fields.append(.text(code))
            fields.append(.bytes(Self.text(words, bytes: 12 + Int(random.next() % 30), lines: false, random: &random)))
            fields.append(.bytes(Self.text(words, bytes: 800 + Int(random.next() % 1600), lines: true, random: &random)))
            fields.append(.bytes(Self.text(words, bytes: 50 + Int(random.next() % 350), lines: true, random: &random)))
            fields.append(.text(developer))
            fields.append(.text(developer + "/support"))
            let base = "https://is1-ssl.mzstatic.com/image/thumb/Purple126/v4/\(id % 97)/\(id)/\(code.lowercased())-v\(version)"
            let phones = 3 + Int(random.next() % 3)
            for slot in 1...AppFeedTable.screenshotSlots { fields.append(.text(slot <= phones ? "\(base)-\(slot).png/392x696bb.png" : "")) }
            for slot in 1...AppFeedTable.screenshotSlots { fields.append(.text(slot <= phones ? "1242x2688" : "")) }
            let pads = hasIPad ? 3 + Int(random.next() % 3) : 0
            for slot in 1...AppFeedTable.screenshotSlots {
                fields.append(.text(slot <= pads ? "\(base)-ipad-\(slot).png/576x768bb.png" : ""))
            }
            for slot in 1...AppFeedTable.screenshotSlots { fields.append(.text(slot <= pads ? "2048x2732" : "")) }
            bytes.row(date, fields)
        }
        return languages.count
    }

    /// About `bytes` bytes of `words`, split by spaces (and now and then a
    /// line break, when `lines`).
    static func text(_ words: [[UInt8]], bytes target: Int, lines: Bool, random: inout SplitMix64) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(target + 32)
        while text.count < target {
            if !text.isEmpty { text.append(lines && random.next() % 14 == 0 ? 0x0A : 0x20) }
            text += words[Int(random.next() % UInt64(words.count))]
        }
        return text
    }

    /// The price tier of application `index` on `day`: 0 (free) for 85%,
    /// else 1 to 60 (`tier - 0.01` dollars), drawn again at each price
    /// change (`tier(_:version:)`).
    func priceTier(_ index: Int, day: Int) -> Int {
        tier(index, version: priceVersion(index, day: day))
    }

    /// The tier of application `index` at its price `version`. A price
    /// change of a paid application (above tier 1) is a drop to a lower
    /// paid tier half the time, else a tier drawn again (85% free): so a
    /// week of a few thousand applications has drops to show, not only
    /// changes to and from free.
    func tier(_ index: Int, version: Int) -> Int {
        let roll = hash(index, version, 13)
        if version > 0 {
            let before = tier(index, version: version - 1)
            if before > 1, (roll >> 20) % 2 == 0 { return 1 + Int((roll >> 24) % UInt64(before - 1)) }
        }
        return roll % 100 < 85 ? 0 : 1 + Int((roll >> 8) % 60)
    }

    /// A tier's price in a currency, as EPF writes `DECIMAL(9,3)`.
    static func price(tier: Int, currency: (code: String, perDollar: Double, whole: Bool)) -> String {
        guard tier > 0 else { return "0.000" }
        if currency.whole { return "\(Int((Double(tier) * currency.perDollar).rounded())).000" }
        let whole = max(0, Int((Double(tier) * currency.perDollar).rounded()) - 1)
        return "\(whole).990"
    }
}

/// A field of a generated row.
enum RowField {
    case int(Int)
    case text(String)
    case bytes([UInt8])
}

extension [UInt8] {
    /// Appends a row: `export_date`, then `fields`, each after 0x01; 0x02 0x0A.
    mutating func row(_ exportDate: Int64, _ fields: [RowField]) {
        appendNumber(Int(exportDate))
        for field in fields {
            append(0x01)
            switch field {
            case .int(let value): appendNumber(value)
            case .text(let text): append(contentsOf: text.utf8)
            case .bytes(let bytes): append(contentsOf: bytes)
            }
        }
        append(0x02)
        append(0x0A)
    }

    /// Appends a decimal integer without making a string.
    mutating func appendNumber(_ value: Int) {
        if value < 0 { append(0x2D) }
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            append(0x30 + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }
}
