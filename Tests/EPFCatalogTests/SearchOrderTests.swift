import EPFCatalog
import EPFSQLite
import Testing

/// `Catalog.search`: the order of results (whole words, then beginnings;
/// fewer words first), paging across that boundary, and the storefront and
/// entity filters. (The storefront's chart first: `QueryTests.popularFirst`,
/// for both backends.)
@Suite("Search order and filters")
struct SearchOrderTests {
    static let titles: [[String]] = [
        ["1", "Chessboard"], ["2", "Chess Pro Deluxe"], ["3", "Chess"], ["4", "Chessmaster Pro"], ["5", "Ocean Chess"],
        ["6", "Weather"],
    ]

    /// A catalog of `titles`, with prices and devices when asked.
    static func catalog(prices: [[String]]? = nil, devices: [[String]]? = nil) throws -> TemporaryCatalog {
        let catalog = try TemporaryCatalog()
        var staged = [
            try catalog.stage(
                TableBytes(
                    columns: ["application_id", "title"], types: ["INTEGER", "VARCHAR(1000)"], key: ["application_id"], rows: titles),
                as: "application"),
            try catalog.stage(
                TableBytes(
                    columns: ["storefront_id", "country_code", "name"], types: ["INTEGER", "VARCHAR(3)", "VARCHAR(200)"],
                    key: ["storefront_id"], rows: [["143441", "USA", "United States"], ["143462", "JPN", "Japan"]]),
                as: "storefront"),
        ]
        if let prices {
            staged.append(
                try catalog.stage(
                    TableBytes(
                        columns: ["application_id", "retail_price", "currency_code", "storefront_id"],
                        types: ["INTEGER", "DECIMAL(9,3)", "VARCHAR(20)", "INTEGER"], key: ["application_id", "storefront_id"],
                        rows: prices),
                    as: "application_price"))
        }
        if let devices {
            staged.append(
                try catalog.stage(
                    TableBytes(
                        columns: ["device_type_id", "name"], types: ["INTEGER", "VARCHAR(200)"], key: ["device_type_id"],
                        rows: [["1", "iPhone"], ["2", "iPod touch"], ["3", "iPad"], ["6", "Mac"]]),
                    as: "device_type"))
            staged.append(
                try catalog.stage(
                    TableBytes(
                        columns: ["application_id", "device_type_id"], types: ["INTEGER", "INTEGER"],
                        key: ["application_id", "device_type_id"], rows: devices),
                    as: "application_device_type"))
        }
        _ = try catalog.store.apply(staged, journal: [])
        return catalog
    }

    static func ids(
        _ catalog: Catalog, _ term: String, country: String? = nil, entity: SoftwareEntity? = nil, limit: Int = 50, offset: Int = 0
    )
        throws -> [Int64]
    {
        try catalog.search(term: term, country: country, entity: entity, limit: limit, offset: offset).results.map(\.trackId)
    }

    @Test func wholeWordsComeBeforeBeginningsThenFewerWords() throws {
        let sample = try Self.catalog()
        let catalog = try Catalog(path: sample.path)
        #expect(try Self.ids(catalog, "chess") == [3, 5, 2, 1, 4])
        #expect(try Self.ids(catalog, "CHESS pro") == [2, 4])
        #expect(try Self.ids(catalog, "che") == [3, 1, 5, 4, 2])
    }

    @Test(arguments: [(0, 2, [3, 5]), (2, 2, [2, 1]), (3, 5, [1, 4]), (4, 1, [4]), (5, 3, []), (1, 3, [5, 2, 1])])
    func pagesCrossFromWholeWordsToBeginnings(_ offset: Int, _ limit: Int, _ expected: [Int64]) throws {
        let sample = try Self.catalog()
        let catalog = try Catalog(path: sample.path)
        #expect(try Self.ids(catalog, "chess", limit: limit, offset: offset) == expected)
    }

    @Test func onlyApplicationsSoldInTheStorefrontAreFound() throws {
        let prices = [
            ["1", "0.99", "USD", "143441"], ["2", "1.99", "USD", "143441"], ["3", "0", "USD", "143441"],
            ["5", "120", "JPY", "143462"], ["3", "0", "JPY", "143462"],
        ]
        let sample = try Self.catalog(prices: prices)
        let catalog = try Catalog(path: sample.path)
        #expect(try Self.ids(catalog, "chess") == [3, 2, 1])
        #expect(try Self.ids(catalog, "chess", country: "JP") == [3, 5])
        #expect(try Self.ids(catalog, "chess", country: "JP", limit: 1, offset: 1) == [5])
        #expect(try Self.ids(catalog, "chess", limit: 2, offset: 2) == [1])
        let japan = try catalog.search(term: "ocean", country: "JPN")
        #expect(japan.results.first?.formattedPrice == "¥120")
    }

    @Test func entitiesFilterByDevice() throws {
        let devices = [["3", "1"], ["3", "3"], ["2", "6"], ["1", "2"], ["5", "3"]]
        let sample = try Self.catalog(devices: devices)
        let catalog = try Catalog(path: sample.path)
        #expect(try Self.ids(catalog, "chess", entity: .software) == [3, 1])
        #expect(try Self.ids(catalog, "chess", entity: .iPadSoftware) == [3, 5])
        #expect(try Self.ids(catalog, "chess", entity: .macSoftware) == [2])
        #expect(try Self.ids(catalog, "chess", entity: nil).count == 5)
        #expect(SoftwareEntity(apiName: "ipadsoftware") == .iPadSoftware)
        #expect(SoftwareEntity(apiName: "tvSoftware") == nil)
    }

    @Test func anEntityWithoutDeviceTablesIsAClearError() throws {
        let sample = try Self.catalog()
        let catalog = try Catalog(path: sample.path)
        let error = try #require(throws: CatalogError.self) { try Self.ids(catalog, "chess", entity: .macSoftware) }
        #expect(error.description.contains("no application_device_type and device_type tables"))
    }

    @Test func anIndexOfAnOlderVersionIsAClearError() throws {
        let sample = try Self.catalog()
        try sample.store.database.execute(
            """
            DROP TABLE epf_search_application;
            CREATE VIRTUAL TABLE epf_search_application USING fts5(/* epf search text v1 */ title, content='');
            """)
        let catalog = try Catalog(path: sample.path)
        let error = try #require(throws: CatalogError.self) { try Self.ids(catalog, "chess") }
        #expect(error.description.contains("built by an older version of epf"))
        #expect(error.description.contains("epf import --force"))
    }
}
