import EPFCatalog
import EPFSQLite
import Testing

/// How readers find the prefix a catalog's tables were imported with.
@Suite("Table prefixes")
struct CatalogTableNamesTests {
    /// The columns of the tables of a catalog imported under `x_` (and the
    /// importer's staging and search tables of it).
    static let columns: [String: [String]] = [
        "x_application": ["export_date", "application_id", "title"],
        "x_artist_application": ["export_date", "artist_id", "application_id"],
        "x_genre_application": ["export_date", "genre_id", "application_id", "is_primary"],
        "epf_stage_x_application": ["export_date", "application_id", "title"],
        "epf_search_x_application": ["title"],
        "epf_journal": ["table_name"],
    ]

    static func names(_ tables: [String: [String]], given: String? = nil) throws -> CatalogTableNames {
        try CatalogTableNames.resolve(given: given, tables: Set(tables.keys), columns: { tables[$0] ?? [] }, catalog: "c.sqlite")
    }

    @Test func theOneApplicationTableGivesThePrefix() throws {
        #expect(CatalogTableNames.applicationPrefixes(in: Set(Self.columns.keys), columns: { Self.columns[$0] ?? [] }) == ["x_"])
        let names = try Self.names(Self.columns)
        #expect(names.prefix == "x_" && names("storefront") == "x_storefront")
    }

    @Test func anUnprefixedApplicationTableOrAGivenPrefixWins() throws {
        var tables = Self.columns
        tables["application"] = ["application_id", "title"]
        #expect(try Self.names(tables).prefix == "")
        #expect(try Self.names(tables, given: "y_").prefix == "y_")
        #expect(try Self.names([:]).prefix == "", "no application table at all: read unprefixed (and say it has none)")
    }

    @Test func severalPrefixesAreListed() {
        var tables = Self.columns
        tables["epf_application"] = ["application_id", "title"]
        let error = #expect(throws: CatalogError.self) { try Self.names(tables) }
        #expect(error?.detail == "the catalog c.sqlite holds application tables under several prefixes: epf_application, x_application")
        #expect(error?.hint.contains("--table-prefix (epf_, x_)") == true)
    }

    @Test func prefixesAreLettersDigitsAndUnderscores() {
        #expect(CatalogTableNames.isValid(prefix: "epf_2026_"))
        #expect(!CatalogTableNames.isValid(prefix: "x-"))
        #expect(!CatalogTableNames.isValid(prefix: "x\"; DROP"))
    }
}
