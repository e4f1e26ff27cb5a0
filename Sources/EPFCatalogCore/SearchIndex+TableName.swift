import EPFTextSearch

extension SearchIndex {
    /// The search table of catalog table `table`.
    @usableFromInline
    package static func tableName(for table: String) -> String { CatalogTables.search(for: table) }
}
