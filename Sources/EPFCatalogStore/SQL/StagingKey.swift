import EPFCatalogCore
import EPFCatalogRead

/// The key of a staging table, built after the bulk load (several times
/// faster than keeping an index while rows arrive): a unique index on the
/// file's primary key, the last row of a repeated key kept, as EPF means
/// (a later row of a key replaces an earlier one).
package enum StagingKey {
    /// Creates the unique key index of `staging` (named after catalog table
    /// `table`), first deleting the earlier rows of each repeated key if the
    /// index cannot be built. Returns the index's name and the rows deleted.
    package static func build(
        on staging: String, table: String, key: [String], connection: some SQLConnection, dialect: some SQLDialect
    ) throws -> (index: String, duplicates: Int) {
        let name = try connection.freeIndexName(base: "\(table)_key")
        let create =
            "CREATE UNIQUE INDEX \(quoteIdentifier(name)) ON \(quoteIdentifier(staging)) (\(quoteColumnList(key)))\(dialect.uniqueIndexSuffix)"
        var duplicates = 0
        if try !connection.executeUnlessUniqueViolation(create) {
            duplicates = try keepLast(in: staging, key: key, connection: connection, dialect: dialect)
            try connection.execute(create)
        }
        return (name, duplicates)
    }

    /// Deletes every row of a repeated key but the last one of the file;
    /// returns how many.
    package static func keepLast(
        in staging: String, key: [String], connection: some SQLConnection, dialect: some SQLDialect
    ) throws -> Int {
        try connection.change(dialect.keepLastOfEachKey(in: quoteIdentifier(staging), key: quoteColumnList(key)), [])
    }
}
