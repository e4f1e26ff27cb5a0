import EPFFormat
import Foundation

/// What the app feed set holds on each day, as pure functions of the seed,
/// an application's index and the day: which applications exist, which
/// changed, their languages, genres, devices, prices and chart places.
///
/// The proportions (per application): one `application` row of about
/// 2 KB; 3.3 `application_detail` rows on average (65% in one language,
/// 17% in 2-3, 10% in 4-9, 5% in 10-19, 3% in 20-39), each about 2.5 KB
/// with a description in the language's own script (Latin, CJK, Cyrillic,
/// Greek, Thai, Arabic and Hebrew among them), release notes and up to five
/// iPhone and five iPad screenshot URLs; 8 to 12 `application_device_type`
/// rows; 1.9 `genre_application` rows; one `artist_application` row, one
/// artist per three applications; one `application_price` row per
/// storefront; and in `application_popularity_per_genre` the top 200 of
/// every storefront and genre. Each day 0.2% of the first day's number of
/// applications are new, 2.5% of the applications get a new version (new
/// `application` and `application_detail` rows) and 0.4% change price (a
/// new row in every storefront); the charts change every day. An
/// INCREMENTAL day holds every change since the last FULL (as EPF's do),
/// so the days of a week grow.
package struct AppFeedModel: Sendable {
    /// Applications on the first day.
    package var apps: Int
    /// Seed of every value: the same seed, the same bytes.
    package var seed: UInt64
    /// The storefronts, in the order prices are written.
    package var storefronts: [AppFeedSet.Storefront]
    /// The first day's `export_date` (epoch milliseconds, a UTC midnight).
    package var firstExportDate: Int64 = 1_793_491_200_000

    /// `apps` applications on the first day, priced in `storefronts`.
    package init(apps: Int, seed: UInt64 = 1, storefronts: [AppFeedSet.Storefront]) {
        self.apps = apps
        self.seed = seed
        self.storefronts = storefronts
    }

    // MARK: Days and change

    /// New applications a day.
    package var newAppsPerDay: Int { max(1, apps / 500) }

    /// Applications that exist on `day`: the first day's, then each day's new ones.
    package func appCount(day: Int) -> Int { apps + day * newAppsPerDay }

    /// The day application `index` first appears.
    func createdDay(_ index: Int) -> Int { index < apps ? 0 : 1 + (index - apps) / newAppsPerDay }

    /// Whether application `index` gets a new version on `day` (after the one it appears).
    func isUpdated(_ index: Int, day: Int) -> Bool { day > createdDay(index) && hash(index, day, 1) % 1000 < 25 }

    /// Whether application `index` changes price on `day`.
    func isRepriced(_ index: Int, day: Int) -> Bool { day > createdDay(index) && hash(index, day, 2) % 1000 < 4 }

    /// How many new versions application `index` has had by `day`.
    func version(_ index: Int, day: Int) -> Int { changes(of: index, by: day, isUpdated) }

    /// How many price changes application `index` has had by `day`.
    func priceVersion(_ index: Int, day: Int) -> Int { changes(of: index, by: day, isRepriced) }

    /// The days after application `index` appeared, up to `day`, on which `changed` holds.
    private func changes(of index: Int, by day: Int, _ changed: (Int, Int) -> Bool) -> Int {
        let first = createdDay(index) + 1
        return first <= day ? (first...day).filter { changed(index, $0) }.count : 0
    }

    /// Artists on `day`: one per three applications.
    func artistCount(day: Int) -> Int { max(1, appCount(day: day) / 3) }

    /// The artist of application `index`: among those there on its first day.
    func artist(of index: Int) -> Int { Int(hash(index, 0, 3) % UInt64(artistCount(day: createdDay(index)))) }

    /// The `export_date` of `day`.
    package func exportDate(day: Int) -> Int64 { firstExportDate + Int64(day) * 86_400_000 }

    /// `YYYYMMDD` of `day`, as feed folders are named.
    package func folderDate(day: Int) -> String {
        var seconds = time_t(exportDate(day: day) / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    /// A number for (`index`, `day`, `salt`) from the seed: the same on
    /// every run and platform.
    func hash(_ index: Int, _ day: Int, _ salt: UInt64) -> UInt64 {
        var mixer = SplitMix64(
            seed: seed ^ (UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
                ^ (UInt64(truncatingIfNeeded: day) &* 0xC2B2_AE3D_27D4_EB4F) ^ (salt &* 0x1656_67B1_9E37_79F9))
        return mixer.next()
    }

    // MARK: What a day's file of a table holds

    /// The last FULL day up to `day` (Apple's weekly FULL: every seventh).
    func lastFull(before day: Int) -> Int { (day - 1) / 7 * 7 }

    /// The units (applications, artists, charts, ...) of `table`'s file of
    /// `day` in `mode`: every one there on a FULL day; on an INCREMENTAL
    /// day the ones new or changed since the last FULL (an INCREMENTAL
    /// export holds every change since the last FULL, so the week's days
    /// grow), each as it is on `day`.
    func rows(of table: AppFeedTable, day: Int, mode: ExportMode) -> AppFeedRows {
        let full = mode == .full
        let since = full ? day : lastFull(before: day)
        let changedDays = (since + 1)..<(day + 1)
        switch table {
        case .application, .applicationDetail:
            return full
                ? .range(0..<appCount(day: day))
                : changedApps(since: since, day: day) { index in
                    changedDays.contains { isUpdated(index, day: $0) }
                }
        case .applicationDeviceType, .genreApplication, .artistApplication:
            return full ? .range(0..<appCount(day: day)) : .range(appCount(day: since)..<appCount(day: day))
        case .applicationPrice:
            return full
                ? .range(0..<appCount(day: day))
                : changedApps(since: since, day: day) { index in
                    changedDays.contains { isRepriced(index, day: $0) }
                }
        case .artist:
            if full { return .range(0..<artistCount(day: day)) }
            let new = Array(artistCount(day: since)..<artistCount(day: day))
            let renamed = (0..<artistCount(day: since)).filter { artist in changedDays.contains { isRenamed(artist: artist, day: $0) } }
            return .list(renamed + new)
        case .storefront:
            return full ? .range(0..<storefronts.count) : .range(0..<0)
        case .genre:
            return full ? .range(0..<AppFeedText.genres.count) : .range(0..<0)
        case .deviceType:
            return full ? .range(0..<AppFeedText.devices.count) : .range(0..<0)
        case .popularity:
            return .charts(Charts(model: self, day: day))
        }
    }

    /// The applications there on day `since` for which `changed` holds,
    /// then those new since.
    private func changedApps(since: Int, day: Int, _ changed: (Int) -> Bool) -> AppFeedRows {
        .list((0..<appCount(day: since)).filter(changed) + Array(appCount(day: since)..<appCount(day: day)))
    }

    // MARK: Genres

    /// The genres of application `index`, primary first (indexes into
    /// `AppFeedText.genres`): a top-level genre, games one or two
    /// subgenres, others now and then a second top-level genre.
    func genres(of index: Int) -> [Int] {
        let roll = hash(index, 0, 6)
        let topLevel = AppFeedText.topLevelGenres
        let primary = topLevel[Int(roll % UInt64(topLevel.count))]
        var genres = [primary]
        if AppFeedText.genres[primary].id == AppFeedText.gamesID {
            let games = AppFeedText.gameGenres
            let first = Int((roll >> 16) % UInt64(games.count))
            genres.append(games[first])
            if (roll >> 32) % 3 == 0 { genres.append(games[(first + 1 + Int((roll >> 40) % UInt64(games.count - 1))) % games.count]) }
        } else if (roll >> 16) % 100 < 75 {
            let second = topLevel[(topLevel.firstIndex(of: primary)! + 1 + Int((roll >> 24) % UInt64(topLevel.count - 1))) % topLevel.count]
            genres.append(second)
        }
        return genres
    }

    /// The top applications of each genre on `day`, the candidates of its
    /// charts: 400 by a popularity score of their own.
    struct Charts: Sendable {
        /// By genre (indexes into `AppFeedText.genres`).
        var candidates: [[Int]]
        /// Of all applications: the root genre's chart.
        var overall: [Int]
        let genreCount: Int
        let storefrontCount: Int

        init(model: AppFeedModel, day: Int) {
            genreCount = AppFeedText.genres.count
            storefrontCount = model.storefronts.count
            var byGenre = Array(repeating: [(UInt64, Int)](), count: genreCount)
            var all: [(UInt64, Int)] = []
            for index in 0..<model.appCount(day: day) {
                let score = model.hash(index, 0, 7)
                for genre in model.genres(of: index) { byGenre[genre].append((score, index)) }
                all.append((score, index))
                if all.count >= 8_192 {
                    all = Array(all.sorted { $0.0 < $1.0 }.prefix(400))
                }
            }
            candidates = byGenre.map { list in list.sorted { $0.0 < $1.0 }.prefix(400).map(\.1) }
            overall = all.sorted { $0.0 < $1.0 }.prefix(400).map(\.1)
        }

        var count: Int { genreCount * storefrontCount }
    }
}

/// The units a table's file is made of.
enum AppFeedRows: Sendable {
    case range(Range<Int>)
    case list([Int])
    /// Charts: unit `u` is storefront `u / genres`, genre `u % genres`.
    case charts(AppFeedModel.Charts)

    var count: Int {
        switch self {
        case .range(let range): return range.count
        case .list(let list): return list.count
        case .charts(let charts): return charts.count
        }
    }

    subscript(unit: Int) -> Int {
        switch self {
        case .range(let range): return range.lowerBound + unit
        case .list(let list): return list[unit]
        case .charts: return unit
        }
    }
}
