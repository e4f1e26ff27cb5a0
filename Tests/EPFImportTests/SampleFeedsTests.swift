import EPFCatalog
import EPFImport
import EPFSQLite
import EPFTestSupport
import Foundation
import Testing

/// Imports SampleFeeds with the real importer and compares the catalog,
/// table by table and value by value, with the independent reference model.
@Suite("Sample feeds against the reference model")
struct SampleFeedsTests {
    /// The sample feeds in the order they are applied.
    static let feeds = ["itunes20261101", "pricing20261101", "popularity20261101", "itunes20261102"]

    /// A feed folder's table files as the reference reads them, in name order.
    static func referenceFiles(of feed: String) throws -> [(path: String, table: String, file: ReferenceFile)] {
        let folder = SampleFeeds.url(feed)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { !$0.hasPrefix(".") }
            .map { name in
                let url = folder.appendingPathComponent(name)
                return (url.path, name.replacingOccurrences(of: "-", with: "_"), try ReferenceFile(bytes: fileBytes(url)))
            }
    }

    /// The reference catalog after applying `feeds` in order.
    static func referenceCatalog(after feeds: [String]) throws -> ReferenceCatalog {
        var catalog = ReferenceCatalog()
        for feed in feeds {
            for (_, table, file) in try referenceFiles(of: feed) {
                catalog.apply(file, as: table)
            }
        }
        return catalog
    }

    /// Imports `feeds` (paths into SampleFeeds) into a new catalog in `folder`.
    static func importFeeds(_ feeds: [String], into folder: URL) throws -> (catalog: String, reports: [FileReport]) {
        let catalog = folder.appendingPathComponent("catalog.sqlite").path
        let reports = try runImport(feeds.map { SampleFeeds.path($0) }, catalog: catalog)
        return (catalog, reports)
    }

    /// Compares every table of the catalog at `path` with `reference`: the
    /// same tables, columns, rows (in key order), values and storage classes.
    static func expectCatalog(at path: String, equals reference: ReferenceCatalog, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let catalog = try RawSQLiteReader(path: path)
        let tables = try catalog.liveTables()
        #expect(tables == reference.tables.keys.sorted(), "live tables", sourceLocation: sourceLocation)
        for name in reference.tables.keys.sorted() where tables.contains(name) {
            let expected = reference.tables[name]!
            let order = expected.key.isEmpty ? "rowid" : expected.key.map(sqlName).joined(separator: ", ")
            let actual = try catalog.query("SELECT * FROM \(sqlName(name)) ORDER BY \(order)")
            #expect(actual.columns == expected.columns, "columns of \(name)", sourceLocation: sourceLocation)
            let expectedRows = expected.sortedRows
            #expect(actual.rows.count == expectedRows.count, "rows of \(name)", sourceLocation: sourceLocation)
            guard actual.columns == expected.columns else { continue }
            var differences = 0
            for (actualRow, expectedRow) in zip(actual.rows, expectedRows) where actualRow != expectedRow {
                for (column, (got, want)) in zip(expected.columns, zip(actualRow, expectedRow)) where got != want {
                    differences += 1
                    if differences <= 20 {
                        let key = expected.key.compactMap { expected.columns.firstIndex(of: $0) }.map { "\(expectedRow[$0])" }
                        Issue.record(
                            "\(name) [\(key.joined(separator: ", "))].\(column): expected \(want), catalog holds \(got)",
                            sourceLocation: sourceLocation)
                    }
                }
            }
            #expect(differences == 0, "values differing in \(name)", sourceLocation: sourceLocation)
        }
    }

    @Test("Every table equals the reference, whole, after each feed", arguments: 1...4)
    func everyTableEqualsTheReference(feedCount: Int) throws {
        let feeds = Array(Self.feeds.prefix(feedCount))
        let reference = try Self.referenceCatalog(after: feeds)
        try withTemporaryFolder { folder in
            let (catalog, reports) = try Self.importFeeds(feeds, into: folder)
            #expect(
                reports.allSatisfy { $0.status == .applied },
                "\(reports.filter { $0.status != .applied }.map { "\($0.path): \($0.error ?? "")" })")
            try Self.expectCatalog(at: catalog, equals: reference)
        }
    }

    /// Chunks much smaller than the files: a file's header, its rows and
    /// its footer arrive in several chunks. With 1 KB chunks the first chunk
    /// of most files ends exactly where their header ends (the first data
    /// row does not fit in it).
    @Test("Small chunks give the same catalog", arguments: [1024, 4096])
    func smallChunksGiveTheSameCatalog(chunkSize: Int) throws {
        let reference = try Self.referenceCatalog(after: Self.feeds)
        try withTemporaryFolder { folder in
            let catalog = folder.appendingPathComponent("catalog.sqlite").path
            let reports = try runImport(
                Self.feeds.map { SampleFeeds.path($0) }, catalog: catalog, options: ImportOptions(chunkSize: chunkSize))
            for report in reports where report.status != .applied {
                Issue.record("\(report.path): \(report.status): \(report.error ?? "")")
            }
            try Self.expectCatalog(at: catalog, equals: reference)
        }
    }

    @Test("The reference model reads the sample feeds as the README describes them")
    func referenceSanity() throws {
        let reference = try Self.referenceCatalog(after: Self.feeds)
        let counts = reference.tables.mapValues(\.rows.count)
        #expect(
            counts == [
                "application": 27, "application_detail": 25, "application_device_type": 61, "artist": 12,
                "artist_application": 26, "device_type": 6, "genre": 11, "genre_application": 57, "storefront": 7,
                "application_price": 175, "application_popularity_per_genre": 322,
            ])
        let application = try #require(try Self.referenceFiles(of: "itunes20261101").first { $0.table == "application" })
        #expect(application.file.rejoinedRecords == 1)
        #expect(application.file.records.count == 25)
    }

    @Test("Special rows read back exactly")
    func specialRows() throws {
        try withTemporaryFolder { folder in
            let (path, _) = try Self.importFeeds(Self.feeds, into: folder)
            let catalog = try RawSQLiteReader(path: path)
            func value(_ table: String, _ column: String, _ condition: String) throws -> StoredValue? {
                let rows = try catalog.rows("SELECT \(sqlName(column)) FROM \(sqlName(table)) WHERE \(condition)")
                #expect(rows.count == 1, "\(table) where \(condition): \(rows.count) rows")
                return rows.first?.first
            }
            func count(_ table: String) throws -> Int64? {
                try catalog.rows("SELECT count(*) FROM \(sqlName(table))").first?.first?.integer
            }

            // The row with a stray 0x01 in its description, rejoined whole.
            let stray = try #require(try value("application", "description", "application_id = 553910284"))
            let expectedStray =
                Array("Puzzle Box Deluxe: slide, rotate and unlock 200 wooden puzzle boxes.\nTip:".utf8) + [0x01]
                + Array("press and hold a tile to see where it can go.\nNo timers, no ads.".utf8)
            #expect(stray == .text(expectedStray))
            #expect(try value("application", "version", "application_id = 553910284") == .string("3.3.1"))
            #expect(try value("application", "itunes_version", "application_id = 553910284") == .string("331"))
            #expect(try value("application", "download_size", "application_id = 553910284") == .integer(74_448_896))
            #expect(try value("application", "export_date", "application_id = 553910284") == .integer(1_793_491_200_000))
            #expect(try count("application") == 27)
            #expect(try count("application_detail") == 25)
            #expect(try count("genre_application") == 57)

            // CRLF kept inside a description.
            let crlf = try #require(try value("application", "description", "application_id = 402233918"))
            #expect(
                crlf
                    == .string(
                        "Cloud Notes keeps your notes in sync on all your devices.\r\n\r\nFeatures:\r\n- Folders and tags\r\n- Offline mode\r\n- Weather and location stamps on each note"
                    ))

            // Emoji, CJK and accented titles, exact.
            let titles: [(Int, String)] = [
                (541_187_520, "Dice Chess \u{1F3B2}\u{265F}\u{FE0F}"),
                (412_039_587, "国际象棋游戏"),
                (498_120_336, "将棋"),
                (507_331_468, "ことばパズル"),
                (523_870_911, "체스 퍼즐 천국"),
                (627_145_588, "Mahjong Tiles 麻将"),
                (530_662_175, "Échecs Café"),
                (640_559_126, "写真パズル"),
            ]
            for (id, title) in titles {
                #expect(try value("application", "title", "application_id = \(id)") == .string(title), "title of \(id)")
            }
            #expect(try value("application", "seller_name", "application_id = 412039587") == .string("龙井软件有限公司"))

            // Empty fields are NULL.
            #expect(try value("genre", "parent_id", "genre_id = 36") == .null)
            #expect(try value("application_detail", "release_notes", "application_id = 507331468 AND language_code = 'JA'") == .null)

            // Prices: REAL, numerically equal to the text.
            #expect(
                try value("application_price", "retail_price", "application_id = 344518902 AND storefront_id = 143466")
                    == .real(12_345_678_901.0))
            #expect(try value("application_price", "retail_price", "application_id = 364709193 AND storefront_id = 143441") == .real(2.99))
            #expect(try value("application_price", "retail_price", "application_id = 364709193 AND storefront_id = 143462") == .real(370))
            #expect(try value("application_price", "retail_price", "application_id = 284882215 AND storefront_id = 143441") == .real(0))
            #expect(
                try value("application_price", "currency_code", "application_id = 364709193 AND storefront_id = 143462") == .string("JPY"))

            // Dates in their three forms.
            #expect(try value("application", "itunes_release_date", "application_id = 287650334") == .string("2005-09-06 00:00:00"))
            #expect(try value("application", "itunes_release_date", "application_id = 284882215") == .string("2012-03-06 10:00:00"))
            #expect(try value("application", "itunes_release_date", "application_id = 417592650") == .string("2013-04-04 21:15:00"))
            #expect(try value("application", "itunes_release_date", "application_id = 364709193") == .string("2010-04-02"))

            // BOOLEAN as 0/1.
            #expect(try value("artist", "is_actual_artist", "artist_id = 410000779") == .integer(0))
            #expect(try value("artist", "is_actual_artist", "artist_id = 284417353") == .integer(1))

            // The incremental: changed apps, new apps, untouched apps.
            let changedDescription = try #require(try value("application", "description", "application_id = 364709193")?.string)
            #expect(changedDescription.contains("NEW IN 3.0: puzzle mode"))
            #expect(try value("application", "version", "application_id = 364709193") == .string("3.0.0"))
            #expect(try value("application", "itunes_version", "application_id = 364709193") == .string("300"))
            #expect(try value("application", "download_size", "application_id = 364709193") == .integer(52_953_088))
            #expect(try value("application", "export_date", "application_id = 364709193") == .integer(1_793_577_600_000))
            #expect(try value("application", "title", "application_id = 339201745") == .string("Weather Now: Live Radar"))
            #expect(try value("application", "version", "application_id = 339201745") == .string("7.4.0"))
            #expect(try value("application", "download_size", "application_id = 586004127") == .integer(7_340_032))
            #expect(
                try value("application", "support_url", "application_id = 586004127")
                    == .string("https://www.knightfall-games.example/support"))
            #expect(try value("application", "title", "application_id = 638402717") == .string("Chess Openings Trainer"))
            #expect(try value("application", "itunes_release_date", "application_id = 638402717") == .string("2026-11-02"))
            #expect(try value("application", "itunes_release_date", "application_id = 640559126") == .string("2026-11-02"))
            #expect(
                try value("application_detail", "language_code", "application_id = 364709193 AND language_code = 'DE'") == .string("DE"))
            #expect(
                try catalog.rows("SELECT count(*) FROM genre_application WHERE application_id IN (638402717, 640559126)") == [[.integer(5)]]
            )
            // The two new apps have no prices.
            #expect(
                try catalog.rows("SELECT count(*) FROM application_price WHERE application_id IN (638402717, 640559126)") == [[.integer(0)]]
            )
        }
    }

    @Test("File reports and the journal: one applied row per file")
    func reportsAndJournal() throws {
        var expectedRows: [String: Int] = [:]
        for feed in Self.feeds {
            for (path, _, file) in try Self.referenceFiles(of: feed) {
                expectedRows[path] = file.records.count
            }
        }
        try withTemporaryFolder { folder in
            let (catalog, reports) = try Self.importFeeds(Self.feeds, into: folder)
            #expect(reports.count == 14)
            #expect(Set(reports.map(\.path)) == Set(expectedRows.keys))
            for report in reports {
                let folderName = URL(fileURLWithPath: report.path).deletingLastPathComponent().lastPathComponent
                let isIncremental = folderName == "itunes20261102"
                #expect(report.status == .applied, "\(report.path): \(report.error ?? "")")
                #expect(report.error == nil)
                #expect(report.rows == expectedRows[report.path], "rows of \(report.path)")
                #expect(report.mode == (isIncremental ? "INCREMENTAL" : "FULL"), "mode of \(report.path)")
                #expect(report.feed == String(folderName.prefix { !$0.isNumber }))
                #expect(report.feedDate == (isIncremental ? "2026-11-02" : "2026-11-01"))
                #expect(report.exportDate == (isIncremental ? 1_793_577_600_000 : 1_793_491_200_000))
                #expect(report.skipped == 0)
                #expect(report.size == Int64(try fileBytes(URL(fileURLWithPath: report.path)).count))
                let isStrayFile = folderName == "itunes20261101" && report.table == "application"
                #expect(report.repaired == (isStrayFile ? 1 : 0), "repaired in \(report.path)")
                #expect(report.counts.rejoinedRows == (isStrayFile ? 1 : 0))
                #expect(report.counts.ambiguousRepairs == 0)
                #expect(report.counts.rowsRead == report.rows)
                #expect(report.counts.invalidUTF8Rows == 0 && report.counts.nulBytes == 0 && report.counts.duplicateKeys == 0)
                #expect(report.counts.valuesKeptAsText == 0, "values kept as text in \(report.path): \(report.counts)")
            }
            let incremental = try #require(reports.first { $0.path.hasSuffix("itunes20261102/application") })
            #expect(incremental.outcome.map { [$0.rowsAfter, $0.inserted, $0.updated] } == [27, 2, 3])
            #expect(incremental.outcome?.addedColumns == [])
            let detail = try #require(reports.first { $0.path.hasSuffix("itunes20261102/application_detail") })
            #expect(detail.outcome.map { [$0.rowsAfter, $0.inserted, $0.updated] } == [25, 4, 1])
            let full = try #require(reports.first { $0.path.hasSuffix("itunes20261101/application") })
            #expect(full.outcome?.rowsAfter == 25)

            let journal = try JournalRow.all(in: catalog)
            #expect(journal.count == reports.count)
            #expect(journal.allSatisfy { $0.status == "applied" })
            #expect(Set(journal.map(\.sourcePath)) == Set(reports.map(\.path)), "one journal row per file")
            for report in reports {
                let row = try #require(journal.first { $0.sourcePath == report.path })
                #expect(row.table == report.table)
                #expect(row.feed == report.feed)
                #expect(row.feedDate == report.feedDate)
                #expect(row.mode == report.mode)
                #expect(row.rows == Int64(report.rows))
                #expect(row.repairedRows == Int64(report.repaired))
                #expect(row.skippedRows == 0)
                #expect(row.exportDate == report.exportDate)
            }
            let itunes = journal.filter { $0.sourcePath.contains("/itunes20261101/") }
            #expect(itunes.count == 9 && itunes.allSatisfy { $0.feed == "itunes" && $0.feedDate == "2026-11-01" && $0.mode == "FULL" })
            let pricing = try #require(journal.first { $0.table == "application_price" })
            #expect(pricing.feed == "pricing" && pricing.feedDate == "2026-11-01" && pricing.rows == 175 && pricing.mode == "FULL")
            let popularity = try #require(journal.first { $0.table == "application_popularity_per_genre" })
            #expect(popularity.feed == "popularity" && popularity.rows == 322)
            let application = try #require(journal.first { $0.sourcePath.hasSuffix("itunes20261101/application") })
            #expect(application.rows == 25 && application.repairedRows == 1)
        }
    }
}
