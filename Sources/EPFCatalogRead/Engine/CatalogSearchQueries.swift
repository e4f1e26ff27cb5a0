import EPFCatalogCore
import EPFTextSearch

/// The SQL of one search (`CatalogReadEngine.search`), written once for
/// every backend around its `SearchRowsSQL`: the matches of `$1` that pass
/// the filters, a page of them in search order, and how many there are.
///
/// Filters: sold in the storefront (`$2`) when the catalog has prices, as
/// Apple's search finds only what a storefront sells; made for the devices
/// of an entity (`application_device_type`, `device_type`). A page reads
/// the index only when it is of this version of epf (`indexIsCurrent`).
///
/// When the catalog has the popularity charts, the applications of the
/// storefront's overall chart (genre 36, EPFTextSearch's `SearchRanking`,
/// which says the whole order of a search) are read apart,
/// by rank (`rankedCandidates`), and the pages of the index leave them out.
@usableFromInline
struct CatalogSearchQueries: Sendable {
    /// The Apple IDs of a page of matches (`$1` match, [`$2` storefront,]
    /// then limit and offset), walked in search order.
    @usableFromInline let walkedPage: String
    /// The same page, the matches sorted (`SearchPlan.sort`).
    @usableFromInline let sortedPage: String
    /// How many rows match (`$1`, [`$2`]).
    @usableFromInline let count: String
    /// Whether the storefront is bound after the match.
    @usableFromInline let byStorefront: Bool
    /// The applications of the storefront's overall chart that pass the
    /// filters, by rank, with their titles (`$1` storefront); nil when the
    /// catalog has no popularity charts.
    @usableFromInline let rankedCandidates: String?
    /// 1 when the index was built by this version of epf, else 0.
    @usableFromInline let indexIsCurrent: String

    /// The page's SQL for `plan`.
    @inlinable
    func page(_ plan: SearchPlan) -> String {
        switch plan {
        case .walk: walkedPage
        case .sort: sortedPage
        }
    }

    /// Throws when `entity` is given and the catalog has no device tables.
    ///
    /// - Parameter storefrontByCode: the storefront parameter is its
    ///   alpha-3 code (upper case), whose ID the filter finds as
    ///   `storefront(for:)` does; else its ID.
    @usableFromInline
    init<Source: CatalogReadSource>(
        _ source: Source, index: String, names: CatalogTableNames, tables: Set<String>, entity: SoftwareEntity?,
        storefrontByCode: Bool = false
    ) throws(CatalogError) {
        func has(_ table: String) -> Bool { tables.contains(names(table)) }
        func table(_ table: String) -> String { quoteIdentifier(names(table)) }
        let rows = source.searchRows(index: quoteIdentifier(index), application: table("application"), match: source.parameter(1))
        let prices = has("application_price")
        let charts = has(SearchRanking.chartTable)
        if let entity, !(has("application_device_type") && has("device_type")) {
            throw CatalogError(
                .notFound,
                detail: "the catalog has no application_device_type and device_type tables to tell \(entity.rawValue) apart",
                hint: "Import the itunes feed's application_device_type and device_type tables, or search without --entity")
        }
        /// The storefront as parameter `number` gives it.
        func storefront(_ number: Int) -> String {
            storefrontByCode && has("storefront")
                ? "(SELECT storefront_id FROM \(table("storefront")) WHERE upper(country_code) = \(source.parameter(number)) ORDER BY storefront_id LIMIT 1)"
                : source.parameter(number)
        }
        /// The filters on the application `id`, in the storefront `storefront`.
        func filters(_ id: String, _ storefront: String) -> String {
            var filter = ""
            if prices {
                filter += """

                    AND EXISTS (SELECT 1 FROM \(table("application_price")) AS p WHERE p.application_id = \(id) AND p.storefront_id = \(storefront))
                    """
            }
            if let entity {
                let devices = entity.deviceNames.map { quoteLiteral($0.lowercased()) }.joined(separator: ", ")
                filter += """

                    AND EXISTS (SELECT 1 FROM \(table("application_device_type")) AS d JOIN \(table("device_type")) AS t ON t.device_type_id = d.device_type_id
                        WHERE d.application_id = \(id) AND lower(t.name) IN (\(devices)))
                    """
            }
            return filter
        }
        byStorefront = prices || charts
        var filter = filters(rows.applicationID, storefront(2))
        if charts {
            let chart = table(SearchRanking.chartTable)
            filter += """

                AND NOT EXISTS (SELECT 1 FROM \(chart) AS r WHERE r.storefront_id = \(storefront(2)) AND r.genre_id = \(SearchRanking.overallGenre)
                    AND r.application_id = \(rows.applicationID) AND r.application_rank IS NOT NULL)
                """
            rankedCandidates = """
                SELECT c.application_id, a.title FROM \(chart) AS c JOIN \(table("application")) AS a ON a.application_id = c.application_id
                WHERE c.storefront_id = \(storefront(1)) AND c.genre_id = \(SearchRanking.overallGenre) AND c.application_rank IS NOT NULL\(filters("c.application_id", storefront(1)))
                    AND \(source.searchIndexIsCurrent(index)) ORDER BY c.application_rank, c.application_id
                """
        } else {
            rankedCandidates = nil
        }
        let next = byStorefront ? 3 : 2
        let current = source.searchIndexIsCurrent(index)
        indexIsCurrent = "SELECT CASE WHEN \(current) THEN 1 ELSE 0 END"
        let paging = "LIMIT \(source.parameter(next)) OFFSET \(source.parameter(next + 1))"
        walkedPage = "SELECT \(rows.applicationID) FROM \(rows.walkedFrom)\(filter)\n    AND \(current) ORDER BY \(rows.order) \(paging)"
        sortedPage = "SELECT \(rows.applicationID) FROM \(rows.from)\(filter)\n    AND \(current) ORDER BY \(rows.sortedOrder) \(paging)"
        count = "SELECT count(*) FROM \(rows.from)\(filter)"
    }
}
