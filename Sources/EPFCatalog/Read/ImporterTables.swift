/// The importer's own tables that readers read, by name. Every table the
/// importer keeps for itself starts with `prefix`.
package enum ImporterTables {
    /// What the importer's own tables start with.
    package static let prefix = "epf_"
    /// The import journal: one row per file applied or refused.
    package static let journal = "epf_journal"
    /// How each EPF table was last applied.
    package static let tableInfo = "epf_table_info"
}
