import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// The file a load reads, as far as resuming is concerned: its name, size
/// and modification time (for an archive entry, the archive's).
package struct SourceIdentity: Sendable, Equatable, Codable {
    package var path: String
    package var size: Int64?
    /// Modification time, nanoseconds since 1970.
    package var modified: Int64?
    /// The storefronts the load keeps (`epf import --storefront`): a load
    /// resumes only with the same filter, so a table never mixes two sets.
    package var storefronts: [Int64]?
    /// The separators the file was read with (`Separators.stored`), nil
    /// for EPF Relational's: a load resumes only when read the same way.
    package var separators: String?

    package init(path: String, size: Int64?, modified: Int64?, storefronts: [Int64]? = nil, separators: String? = nil) {
        self.path = path
        self.size = size
        self.modified = modified
        self.storefronts = storefronts
        self.separators = separators
    }
}
