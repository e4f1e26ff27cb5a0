import EPFCatalogCore

/// The SQL of every row a result reads, written once for every backend
/// and spelled through its `CatalogReadSource` (parameters, a list of
/// Apple IDs, bytewise order), built when a catalog is opened: building
/// SQL text for each question showed in profiles.
///
/// Set-based: each related table is read once for all the applications of
/// a request (`$1`, the list of Apple IDs, `CatalogReadSource.idList`),
/// so that a lookup of 50 IDs or a search page of 50 results costs as many
/// statements as a lookup of one (`related`), and the engine assembles
/// the results in memory. The rows of one application keep the order the
/// query gives them (a total order restricted to one application is that
/// application's order), so no query orders by application.
///
/// NULLs are ordered as SQLite orders them (first going up, last going
/// down), written out so that PostgreSQL orders them the same; booleans
/// are read with `IS TRUE`, which both take for SQLite's 0/1 and
/// PostgreSQL's booleans. A query is nil when the catalog lacks its table.
@usableFromInline
struct CatalogReadQueries: Sendable {
    /// The tables a result draws on, one statement each: what a row of
    /// each query is, and how it is read (`CatalogReadEngine.applications`).
    @usableFromInline
    enum Related: Int, Sendable {
        /// `application_id`, `applicationColumns`, then the price and
        /// currency in the storefront when the catalog has prices (only the
        /// applications with a price there have a row).
        case application
        /// `application_id`, `artist_id`, the artist's `view_url`, its
        /// name: an actual artist first, then by ID (`ResultBatch` takes
        /// the first whose name is the application's `artist_name`, else
        /// the first).
        case artist
        /// `application_id`, `genre_id`, the genre's name: primary first,
        /// then by ID.
        case genres
        /// `application_id`, then `detailColumns`, by language code bytewise.
        case detail
        /// `application_id`, the name of a device it runs on, by device
        /// type ID.
        case devices
        /// `application_id`, `genre_id`, the genre's name, the rank in the
        /// storefront: best first.
        case popularity
    }

    /// One query of a request: its SQL, and whether it takes the
    /// storefront (`$2`) after the IDs (`$1`).
    @usableFromInline
    struct RelatedQuery: Sendable {
        @usableFromInline let table: Related
        @usableFromInline let sql: String
        @usableFromInline let byStorefront: Bool
    }

    /// The queries of a request, those whose tables the catalog has,
    /// `application` first, in four spellings (`related(one:byCode:)`).
    @usableFromInline let variants: [[RelatedQuery]]
    /// The `application` columns a result reads, those the table has, in
    /// `ApplicationColumns.wanted` order.
    @usableFromInline let applicationColumns: [String]
    /// Whether the `application` query reads prices (the catalog has them).
    @usableFromInline let withPrices: Bool
    /// Whether genres have names (the catalog has `genre`).
    @usableFromInline let genresWithNames: Bool
    /// The `application_detail` columns read, after `application_id`.
    @usableFromInline let detailColumns: [String]
    /// The `storefront` row of an ID (`$1`).
    @usableFromInline let storefrontByID: String?
    /// The `storefront` row of an alpha-3 code, any case (`$1`, upper case).
    @usableFromInline let storefrontByCode: String?
    /// Every country code of `storefront`, bytewise.
    let countryCodes: String?

    init<Source: CatalogReadSource>(
        _ source: Source, names: CatalogTableNames, tables: Set<String>, applicationColumns: [String], detailColumns: [String],
        artistHasViewURL: Bool
    ) {
        func has(_ table: String) -> Bool { tables.contains(names(table)) }
        let p1 = source.parameter(1)
        self.applicationColumns = applicationColumns
        withPrices = has("application_price")
        genresWithNames = has("genre")
        self.detailColumns = detailColumns
        let storefront = has("storefront") ? quoteIdentifier(names("storefront")) : nil
        let p2 = source.parameter(2)
        // `$2` a storefront ID; or a country code, whose ID the query
        // finds as `storefrontByCode` does.
        let byID = p2
        let byCode =
            storefront.map { "(SELECT storefront_id FROM \($0) WHERE upper(country_code) = \(p2) ORDER BY storefront_id LIMIT 1)" } ?? p2
        variants = [byID, byCode].flatMap { storefront in
            [{ (column: String) in "\(column) = \(p1)" }, { (column: String) in source.idList(column, parameter: 1) }].map { ids in
                Self.related(
                    source, names: names, tables: tables, applicationColumns: applicationColumns, detailColumns: detailColumns,
                    artistHasViewURL: artistHasViewURL, storefront: storefront, ids: ids)
            }
        }

        storefrontByID = storefront.map { "SELECT storefront_id, country_code, name FROM \($0) WHERE storefront_id = \(p1)" }
        storefrontByCode = storefront.map {
            "SELECT storefront_id, country_code, name FROM \($0) WHERE upper(country_code) = \(p1) ORDER BY storefront_id LIMIT 1"
        }
        countryCodes = storefront.map {
            "SELECT country_code FROM \($0) WHERE country_code IS NOT NULL ORDER BY \(source.bytewise("country_code"))"
        }
    }

    /// The queries for `one` application (`$1` its ID: it pays for no
    /// list, which SQLite's `IN` over `json_each` builds per statement) or
    /// several (`$1` a list, `CatalogReadSource.idList`), finding the
    /// storefront's rows by its ID (`$2`) or, `byCode`, by its alpha-3
    /// code (`$2`, upper case) as `storefrontByCode` finds it, so that a
    /// lookup reads the storefront's row in the same batch.
    @inlinable
    func related(one: Bool, byCode: Bool) -> [RelatedQuery] {
        variants[(byCode ? 2 : 0) + (one ? 0 : 1)]
    }

    /// Whether the catalog has the table(s) `table` reads.
    @inlinable
    func has(_ table: Related) -> Bool { variants[0].contains { $0.table == table } }

    /// The queries of a request, `ids` writing the condition that a column
    /// holds one of the request's IDs (`$1`), `storefront` the SQL of the
    /// storefront's ID.
    private static func related<Source: CatalogReadSource>(
        _ source: Source, names: CatalogTableNames, tables: Set<String>, applicationColumns: [String], detailColumns: [String],
        artistHasViewURL: Bool, storefront: String, ids: (String) -> String
    ) -> [RelatedQuery] {
        func has(_ table: String) -> Bool { tables.contains(names(table)) }
        func table(_ table: String) -> String { quoteIdentifier(names(table)) }
        let withPrices = has("application_price")
        var related: [RelatedQuery] = []

        let columns = (["application_id"] + applicationColumns).map { "a.\(quoteIdentifier($0))" }.joined(separator: ", ")
        related.append(
            RelatedQuery(
                table: .application,
                sql: withPrices
                    ? """
                    SELECT \(columns), p.retail_price, p.currency_code FROM \(table("application")) AS a
                    JOIN \(table("application_price")) AS p ON p.application_id = a.application_id AND p.storefront_id = \(storefront)
                    WHERE \(ids("a.application_id"))
                    """
                    : "SELECT \(columns) FROM \(table("application")) AS a WHERE \(ids("a.application_id"))",
                byStorefront: withPrices))

        if has("artist_application") {
            related.append(
                RelatedQuery(
                    table: .artist,
                    sql: has("artist")
                        ? """
                        SELECT aa.application_id, aa.artist_id, \(artistHasViewURL ? "a.view_url" : "NULL"), a.name
                        FROM \(table("artist_application")) AS aa LEFT JOIN \(table("artist")) AS a ON a.artist_id = aa.artist_id
                        WHERE \(ids("aa.application_id")) ORDER BY a.is_actual_artist IS TRUE DESC, aa.artist_id NULLS FIRST
                        """
                        : """
                        SELECT application_id, artist_id, NULL, NULL FROM \(table("artist_application"))
                        WHERE \(ids("application_id")) ORDER BY artist_id NULLS FIRST
                        """,
                    byStorefront: false))
        }

        if has("genre_application") {
            related.append(
                RelatedQuery(
                    table: .genres,
                    sql: has("genre")
                        ? """
                        SELECT ga.application_id, ga.genre_id, g.name FROM \(table("genre_application")) AS ga
                        LEFT JOIN \(table("genre")) AS g ON g.genre_id = ga.genre_id
                        WHERE \(ids("ga.application_id")) ORDER BY ga.is_primary DESC NULLS LAST, ga.genre_id NULLS FIRST
                        """
                        : """
                        SELECT application_id, genre_id, NULL FROM \(table("genre_application"))
                        WHERE \(ids("application_id")) ORDER BY is_primary DESC NULLS LAST, genre_id NULLS FIRST
                        """,
                    byStorefront: false))
        }

        if detailColumns.contains("language_code") {
            related.append(
                RelatedQuery(
                    table: .detail,
                    sql: """
                        SELECT application_id, \(quoteColumnList(detailColumns)) FROM \(table("application_detail"))
                        WHERE \(ids("application_id")) ORDER BY \(source.bytewise("language_code")) NULLS FIRST
                        """,
                    byStorefront: false))
        }

        if has("application_device_type") && has("device_type") {
            related.append(
                RelatedQuery(
                    table: .devices,
                    sql: """
                        SELECT ad.application_id, d.name FROM \(table("application_device_type")) AS ad
                        JOIN \(table("device_type")) AS d ON d.device_type_id = ad.device_type_id
                        WHERE \(ids("ad.application_id")) AND d.name IS NOT NULL ORDER BY ad.device_type_id
                        """,
                    byStorefront: false))
        }

        if has("application_popularity_per_genre") {
            related.append(
                RelatedQuery(
                    table: .popularity,
                    sql: has("genre")
                        ? """
                        SELECT p.application_id, p.genre_id, g.name, p.application_rank FROM \(table("application_popularity_per_genre")) AS p
                        LEFT JOIN \(table("genre")) AS g ON g.genre_id = p.genre_id
                        WHERE \(ids("p.application_id")) AND p.storefront_id = \(storefront)
                        ORDER BY p.application_rank NULLS FIRST, p.genre_id NULLS FIRST
                        """
                        : """
                        SELECT application_id, genre_id, NULL, application_rank FROM \(table("application_popularity_per_genre"))
                        WHERE \(ids("application_id")) AND storefront_id = \(storefront)
                        ORDER BY application_rank NULLS FIRST, genre_id NULLS FIRST
                        """,
                    byStorefront: true))
        }
        return related
    }
}
