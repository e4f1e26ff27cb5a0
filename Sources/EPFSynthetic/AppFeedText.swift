/// The fixed lists the app feed set draws from: genres, devices,
/// languages with words in their own scripts, currencies.
enum AppFeedText {
    static let gamesID = 6014

    /// The App Store's genres: the root, the top-level genres, the Games subgenres.
    static let genres: [(id: Int, parent: Int?, name: String)] = {
        let topLevel: [(Int, String)] = [
            (6000, "Business"), (6001, "Weather"), (6002, "Utilities"), (6003, "Travel"), (6004, "Sports"),
            (6005, "Social Networking"), (6006, "Reference"), (6007, "Productivity"), (6008, "Photo & Video"), (6009, "News"),
            (6010, "Navigation"), (6011, "Music"), (6012, "Lifestyle"), (6013, "Health & Fitness"), (6014, "Games"),
            (6015, "Finance"), (6016, "Entertainment"), (6017, "Education"), (6018, "Books"), (6020, "Medical"),
            (6021, "Magazines & Newspapers"), (6023, "Food & Drink"), (6024, "Shopping"), (6026, "Developer Tools"),
            (6027, "Graphics & Design"),
        ]
        let games: [(Int, String)] = [
            (7001, "Action"), (7002, "Adventure"), (7003, "Casual"), (7004, "Board"), (7005, "Card"), (7006, "Casino"),
            (7007, "Dice"), (7008, "Educational"), (7009, "Family"), (7011, "Music"), (7012, "Puzzle"), (7013, "Racing"),
            (7014, "Role Playing"), (7015, "Simulation"), (7016, "Sports"), (7017, "Strategy"), (7018, "Trivia"), (7019, "Word"),
        ]
        return [(36, nil, "App Store")] + topLevel.map { ($0.0, 36, $0.1) } + games.map { ($0.0, gamesID, $0.1) }
    }()

    /// Indexes into `genres`.
    static let rootGenre = 0
    static let topLevelGenres = genres.indices.filter { genres[$0].parent == 36 }
    static let gameGenres = genres.indices.filter { genres[$0].parent == gamesID }

    /// Device families, then models.
    static let devices: [(id: Int, name: String)] = {
        let families = ["iPhone", "iPod touch", "iPad", "Mac", "Apple Watch", "Apple TV", "Apple Vision Pro"]
        let iPhones = [
            "6s", "SE", "7", "8", "X", "XS", "XR", "11", "11 Pro", "12", "12 mini", "12 Pro", "13", "13 mini", "13 Pro",
            "14", "14 Plus", "14 Pro", "15", "15 Plus", "15 Pro", "16", "16 Plus", "16 Pro", "16e",
        ].map { "iPhone \($0)" }
        let iPads = [
            "(9th generation)", "(10th generation)", "Air (4th generation)", "Air (5th generation)", "Air 11-inch (M2)",
            "mini (6th generation)", "Pro 11-inch (4th generation)", "Pro 12.9-inch (6th generation)", "Pro 13-inch (M4)",
        ].map { "iPad \($0)" }
        let names = families + iPhones + iPads
        return names.enumerated().map { (id: $0.offset + 1, name: $0.element) }
    }()

    /// A language of `application_detail`, and its words.
    struct Language {
        var code: String
        var words: [[UInt8]]
    }

    static let latin = words(
        "the app helps you plan your day with simple tools and beautiful widgets for every screen track progress share with friends offline mode no ads sync across devices privacy first design crafted for iPhone iPad and Mac features dark mode support premium subscription unlocks more levels puzzles themes statistics reminders calendar export import backup restore — • über naïve café ação señal łódź"
    )
    static let languages: [Language] = {
        let french = words(
            "l'application vous aide à organiser votre journée avec des outils simples et de beaux widgets sans publicité synchronisation hors ligne thème sombre élégant"
        )
        let german = words(
            "die App hilft Ihnen Ihren Tag mit einfachen Werkzeugen und schönen Widgets zu planen ohne Werbung Synchronisierung über alle Geräte Dunkelmodus größer"
        )
        let spanish = words(
            "la aplicación te ayuda a planificar tu día con herramientas sencillas y widgets bonitos sin anuncios sincronización modo oscuro diseño cuidado"
        )
        let japanese = words("このアプリは 毎日の 予定を 簡単に 管理できます 写真 編集 無料 広告なし 同期 ダークモード 対応 ウィジェット 統計 リマインダー 日本語")
        let chinese = words("这个 应用 帮助 您 轻松 安排 每一天 简单 工具 精美 小组件 无广告 同步 深色模式 支持 照片 编辑 中文")
        let korean = words("이 앱은 하루 일정을 간단하게 관리할 수 있도록 도와줍니다 사진 편집 무료 광고 없음 동기화 다크 모드 지원 한국어")
        let cyrillic = words(
            "приложение помогает планировать ваш день простые инструменты красивые виджеты без рекламы синхронизация тёмная тема поддержка")
        let greek = words("η εφαρμογή σας βοηθά να οργανώσετε τη μέρα σας απλά εργαλεία όμορφα γραφικά χωρίς διαφημίσεις συγχρονισμός")
        let thai = words("แอปนี้ ช่วย คุณ วางแผน วัน ของคุณ ด้วย เครื่องมือ ง่าย ไม่มี โฆษณา ซิงค์ โหมดมืด")
        let arabic = words("يساعدك التطبيق على تنظيم يومك بأدوات بسيطة وأدوات جميلة بدون إعلانات مزامنة الوضع الداكن دعم")
        let hebrew = words("האפליקציה עוזרת לך לתכנן את היום שלך עם כלים פשוטים ווידג'טים יפים ללא פרסומות סנכרון מצב כהה")
        let hindi = words("यह ऐप आपके दिन की योजना बनाने में मदद करता है सरल उपकरण सुंदर विजेट बिना विज्ञापन सिंक डार्क मोड")
        let table: [(String, [[UInt8]])] = [
            ("EN", latin), ("JA", japanese), ("ZH", chinese), ("KO", korean), ("FR", french), ("DE", german), ("ES", spanish),
            ("IT", latin), ("PT", latin), ("RU", cyrillic), ("NL", latin), ("SV", latin), ("DA", latin), ("FI", latin),
            ("NB", latin), ("TR", latin), ("PL", latin), ("AR", arabic), ("HE", hebrew), ("TH", thai), ("ID", latin),
            ("MS", latin), ("VI", latin), ("UK", cyrillic), ("CS", latin), ("SK", latin), ("HU", latin), ("RO", latin),
            ("EL", greek), ("HR", latin), ("CA", latin), ("HI", hindi), ("BG", cyrillic), ("SL", latin), ("LT", latin),
            ("LV", latin), ("ET", latin), ("SR", cyrillic), ("FA", arabic),
        ]
        return table.map { Language(code: $0.0, words: $0.1) }
    }()

    /// Currencies of storefronts by ISO alpha-3 code (others: USD), and
    /// how many of each a USD price tier is (whole units for those that
    /// have no cents).
    static let currencies: [String: (code: String, perDollar: Double, whole: Bool)] = {
        var table: [String: (String, Double, Bool)] = [
            "USA": ("USD", 1, false), "JPN": ("JPY", 160, true), "GBR": ("GBP", 1, false), "CHN": ("CNY", 7, false),
            "KOR": ("KRW", 1500, true), "CAN": ("CAD", 1.4, false), "AUS": ("AUD", 1.5, false), "RUS": ("RUB", 99, true),
            "IND": ("INR", 89, true), "BRA": ("BRL", 5.9, false), "MEX": ("MXN", 19, false), "CHE": ("CHF", 1, false),
            "SWE": ("SEK", 11, false), "NOR": ("NOK", 11, false), "DNK": ("DKK", 7.5, false), "POL": ("PLN", 4.5, false),
            "TUR": ("TRY", 40, false), "IDN": ("IDR", 16_000, true), "THA": ("THB", 35, false), "TWN": ("TWD", 32, true),
            "HKG": ("HKD", 8, false), "SGP": ("SGD", 1.4, false), "NZL": ("NZD", 1.7, false), "ZAF": ("ZAR", 18, false),
            "SAU": ("SAR", 3.75, false), "ARE": ("AED", 3.67, false), "ISR": ("ILS", 3.7, false),
        ]
        for euro in [
            "FRA", "DEU", "ITA", "ESP", "NLD", "BEL", "AUT", "PRT", "IRL", "FIN", "GRC", "SVK", "SVN", "EST", "LVA",
            "LTU", "LUX", "MLT", "CYP", "HRV",
        ] {
            table[euro] = ("EUR", 1, false)
        }
        return table.mapValues { (code: $0.0, perDollar: $0.1, whole: $0.2) }
    }()

    static func words(_ text: String) -> [[UInt8]] {
        text.split(separator: " ").map { Array($0.utf8) }
    }
}
