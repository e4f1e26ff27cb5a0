import EPFCatalogRead

/// What `epf tables`, `epf history` and `epf sql` read from a PostgreSQL
/// catalog: the admin engine (`CatalogAdminEngine`) over one connection
/// (`PostgresReadSource`). Lookups and search: `PostgresCatalog`.
package typealias PostgresCatalogAdmin = CatalogAdminEngine<PostgresReadSource>

extension CatalogAdminEngine where Source == PostgresReadSource {
    /// Connects to the catalog at `target`. Throws when it cannot.
    package convenience init(target: PostgresTarget) throws(CatalogError) {
        self.init(source: try PostgresReadSource(target: target, applicationName: "epf admin"))
    }
}
