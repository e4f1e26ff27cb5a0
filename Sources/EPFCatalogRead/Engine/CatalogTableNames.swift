import EPFCatalogCore

/// The names a catalog stores its EPF tables under: the EPF name
/// (`application`) after the prefix the feed was imported with (`epf import
/// --table-prefix x_` stores `x_application`, searched through
/// `epf_search_x_application`).
///
/// Readers take the prefix from `--table-prefix`, or find it themselves
/// (`resolve`): a catalog with an unprefixed `application` table is read
/// unprefixed; otherwise the prefix of its one application table is used.
@usableFromInline
package struct CatalogTableNames: Sendable, Equatable {
    /// What every EPF table name starts with (empty: no prefix).
    package let prefix: String

    package init(prefix: String = "") {
        self.prefix = prefix
    }

    /// The catalog table of EPF table `table`.
    @usableFromInline
    package func callAsFunction(_ table: String) -> String { prefix + table }

    /// Whether `prefix` is one `--table-prefix` takes: letters, digits and
    /// `_` (it becomes part of SQL identifiers).
    package static func isValid(prefix: String) -> Bool {
        prefix.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    /// The prefixes of the application tables among `tables` (each a table
    /// named `P` + `application` whose columns, from `columns`, include
    /// `application_id` and `title`: that tells it from `artist_application`
    /// and `genre_application`), sorted; the importer's own staging and
    /// search tables are not application tables.
    package static func applicationPrefixes<E: Error>(
        in tables: Set<String>, columns: (String) throws(E) -> [String]
    ) throws(E) -> [String] {
        var prefixes: [String] = []
        for name in tables.sorted() where name.hasSuffix("application") {
            let prefix = String(name.dropLast("application".count))
            guard isValid(prefix: prefix), !internalPrefixes.contains(where: prefix.hasPrefix) else { continue }
            let present = Set(try columns(name))
            if present.contains("application_id") && present.contains("title") { prefixes.append(prefix) }
        }
        return prefixes
    }

    /// What the importer's staging, search and SQLite's own tables start with.
    static let internalPrefixes = [CatalogTables.stagingPrefix, CatalogTables.searchPrefix, "sqlite_"]

    /// The names to read the catalog `catalog` (as messages name it) with:
    /// `given` (`--table-prefix`) when there is one; else none when the
    /// catalog has an `application` table or no application table at all;
    /// else the prefix of its one application table.
    ///
    /// Throws a `CatalogError` listing the prefixes when the catalog holds
    /// application tables under several and `given` is nil; rethrows what
    /// `columns` throws.
    package static func resolve<E: Error>(
        given: String?, tables: Set<String>, columns: (String) throws(E) -> [String], catalog: String
    ) throws -> CatalogTableNames {
        if let given { return CatalogTableNames(prefix: given) }
        if tables.contains("application") { return CatalogTableNames() }
        let prefixes = try applicationPrefixes(in: tables, columns: columns)
        guard prefixes.count <= 1 else {
            throw CatalogError(
                .usage,
                detail:
                    "the catalog \(catalog) holds application tables under several prefixes: \(prefixes.map { "\($0)application" }.joined(separator: ", "))",
                hint: "Name the one to read with --table-prefix (\(prefixes.joined(separator: ", ")))")
        }
        return CatalogTableNames(prefix: prefixes.first ?? "")
    }

    /// The error of a catalog with no application table under these names.
    package func noApplicationTable(in catalog: String, tables: Set<String> = []) -> CatalogError {
        // A first import that stopped while loading the table leaves its
        // staging table, from which the same import resumes.
        if tables.contains(CatalogTables.staging(for: self("application"))) {
            return CatalogError(
                .notFound,
                detail: "an import into \(catalog) was interrupted before its \(self("application")) table was applied",
                hint: "Run the same epf import again: it resumes where it stopped")
        }
        return CatalogError(
            .notFound,
            detail: "the catalog \(catalog) has no \(self("application")) table",
            hint: prefix.isEmpty
                ? "Import the itunes feed first (epf import itunesYYYYMMDD)"
                : "Check --table-prefix \(prefix), or import the itunes feed with it first (epf import --table-prefix \(prefix) itunesYYYYMMDD)"
        )
    }
}
