/// The SQL of every row a lookup reads, written once for every backend
/// and spelled through its `CatalogReadSource` (parameters, bytewise
/// order), built when a catalog is opened: building SQL text for each
/// question showed in profiles (a lookup is ~20 µs).
///
/// NULLs are ordered as SQLite orders them (first going up, last going
/// down), written out so that PostgreSQL orders them the same; booleans
/// are read with `IS TRUE`, which both take for SQLite's 0/1 and
/// PostgreSQL's booleans. A query is nil when the catalog lacks its table.
@usableFromInline
struct CatalogReadQueries: Sendable {
    /// One application's `application` row: `application_id`, then
    /// `applicationColumns` (`$1`: the Apple ID).
    @usableFromInline let application: String
    /// The `application` columns a result reads, those the table has, in
    /// `ApplicationColumns.wanted` order.
    @usableFromInline let applicationColumns: [String]
    /// The application's artist (`$1`; `$2`: its `artist_name`, when
    /// `artistByName`): the one named as the application names it, else
    /// an actual artist, else the smallest ID; its ID, then its
    /// `view_url` (NULL when `artist` has none).
    @usableFromInline let artist: String?
    @usableFromInline let artistByName: Bool
    /// The names of the devices it runs on, by device type ID (`$1`);
    /// nil without `application_device_type` and `device_type`.
    @usableFromInline let devices: String?
    /// Its genres, primary first, then by ID: ID and name (`$1`).
    @usableFromInline let genres: String?
    /// Whether `genres` has names (the catalog has `genre`).
    @usableFromInline let genresWithNames: Bool
    /// Its price and currency in a storefront (`$1`, `$2`: storefront).
    @usableFromInline let price: String?
    /// Its `application_detail` rows, `detailColumns`, by language code
    /// bytewise (`$1`); nil without `language_code`.
    @usableFromInline let detail: String?
    @usableFromInline let detailColumns: [String]
    /// Its popularity ranks in a storefront, best first: genre ID, genre
    /// name, rank (`$1`, `$2`: storefront).
    @usableFromInline let popularity: String?
    /// The `storefront` row of an ID (`$1`).
    let storefrontByID: String?
    /// The `storefront` row of an alpha-3 code, any case (`$1`, upper case).
    let storefrontByCode: String?
    /// Every country code of `storefront`, bytewise.
    let countryCodes: String?

    init<Source: CatalogReadSource>(
        _ source: Source, names: CatalogTableNames, tables: Set<String>, applicationColumns: [String], detailColumns: [String],
        artistHasViewURL: Bool
    ) {
        func has(_ table: String) -> Bool { tables.contains(names(table)) }
        func table(_ table: String) -> String { quoteIdentifier(names(table)) }
        let p1 = source.parameter(1)
        let p2 = source.parameter(2)

        self.applicationColumns = applicationColumns
        application = "SELECT \(quoteColumnList(["application_id"] + applicationColumns)) FROM \(table("application")) WHERE application_id = \(p1) LIMIT 1"

        artistByName = has("artist_application") && has("artist")
        artist =
            !has("artist_application") ? nil
            : artistByName
                ? """
                SELECT aa.artist_id, \(artistHasViewURL ? "a.view_url" : "NULL") FROM \(table("artist_application")) AS aa LEFT JOIN \(table("artist")) AS a ON a.artist_id = aa.artist_id
                WHERE aa.application_id = \(p1)
                ORDER BY (a.name = \(p2)) IS TRUE DESC, a.is_actual_artist IS TRUE DESC, aa.artist_id NULLS FIRST LIMIT 1
                """
            : "SELECT artist_id, NULL FROM \(table("artist_application")) WHERE application_id = \(p1) ORDER BY artist_id NULLS FIRST LIMIT 1"

        devices =
            has("application_device_type") && has("device_type")
            ? """
            SELECT d.name FROM \(table("application_device_type")) AS ad JOIN \(table("device_type")) AS d ON d.device_type_id = ad.device_type_id
            WHERE ad.application_id = \(p1) AND d.name IS NOT NULL ORDER BY ad.device_type_id
            """
            : nil

        genresWithNames = has("genre")
        genres =
            !has("genre_application") ? nil
            : genresWithNames
                ? """
                SELECT ga.genre_id, g.name FROM \(table("genre_application")) AS ga LEFT JOIN \(table("genre")) AS g ON g.genre_id = ga.genre_id
                WHERE ga.application_id = \(p1) ORDER BY ga.is_primary DESC NULLS LAST, ga.genre_id NULLS FIRST
                """
            : """
            SELECT genre_id, NULL FROM \(table("genre_application"))
            WHERE application_id = \(p1) ORDER BY is_primary DESC NULLS LAST, genre_id NULLS FIRST
            """

        price =
            has("application_price")
            ? "SELECT retail_price, currency_code FROM \(table("application_price")) WHERE application_id = \(p1) AND storefront_id = \(p2) LIMIT 1"
            : nil

        self.detailColumns = detailColumns
        detail =
            detailColumns.contains("language_code")
            ? """
            SELECT \(quoteColumnList(detailColumns)) FROM \(table("application_detail"))
            WHERE application_id = \(p1) ORDER BY \(source.bytewise("language_code")) NULLS FIRST
            """
            : nil

        popularity =
            !has("application_popularity_per_genre") ? nil
            : has("genre")
                ? """
                SELECT p.genre_id, g.name, p.application_rank FROM \(table("application_popularity_per_genre")) AS p
                LEFT JOIN \(table("genre")) AS g ON g.genre_id = p.genre_id
                WHERE p.application_id = \(p1) AND p.storefront_id = \(p2) ORDER BY p.application_rank NULLS FIRST, p.genre_id NULLS FIRST
                """
            : """
            SELECT genre_id, NULL, application_rank FROM \(table("application_popularity_per_genre"))
            WHERE application_id = \(p1) AND storefront_id = \(p2) ORDER BY application_rank NULLS FIRST, genre_id NULLS FIRST
            """

        let storefront = has("storefront") ? table("storefront") : nil
        storefrontByID = storefront.map { "SELECT storefront_id, country_code, name FROM \($0) WHERE storefront_id = \(p1)" }
        storefrontByCode = storefront.map {
            "SELECT storefront_id, country_code, name FROM \($0) WHERE upper(country_code) = \(p1) ORDER BY storefront_id LIMIT 1"
        }
        countryCodes = storefront.map {
            "SELECT country_code FROM \($0) WHERE country_code IS NOT NULL ORDER BY \(source.bytewise("country_code"))"
        }
    }
}
