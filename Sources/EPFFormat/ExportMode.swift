/// How a table file is meant to be applied, from its `#exportMode:` row.
public enum ExportMode: String, Sendable, Codable, CaseIterable {
    /// The whole table: it replaces what the catalog has.
    case full = "FULL"
    /// Rows added or changed since the last full: an upsert by primary key.
    case incremental = "INCREMENTAL"
}
