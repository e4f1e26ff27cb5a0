/// A column as `epf_table_info.columns` lists it.
public struct ColumnInfo: Sendable, Codable, Equatable {
    public var name: String
    /// The declared EPF type (`VARCHAR(1000)`, `BIGINT`, ...).
    public var type: String

    public init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}
