import EPFCatalogCore
import EPFCatalogRead

/// A column as `epf_table_info.columns` lists it.
package struct ColumnInfo: Sendable, Codable, Equatable {
    package var name: String
    /// The declared EPF type (`VARCHAR(1000)`, `BIGINT`, ...).
    package var type: String

    package init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}
