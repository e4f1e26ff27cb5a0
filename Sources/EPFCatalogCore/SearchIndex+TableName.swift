import EPFTextSearch

/// The name of a search index's table: the catalog's, spelled with the
/// importer's other tables (`CatalogTables`), so it is here rather than in
/// EPFTextSearch, which knows no catalog.
extension SearchIndex {
    /// The search table of catalog table `table`: `epf_search_<table>`.
    @usableFromInline
    package static func tableName(for table: String) -> String { CatalogTables.search(for: table) }
}
