import EPFCatalogCore

/// One row of a read query's result, as a backend hands it to the read
/// engine (`CatalogReadSource.forEachRow`): valid only inside the call
/// that gives it.
///
/// Each backend reads its own values: SQLite's typed columns, PostgreSQL's
/// text with its column types. What a value means is the same for both:
/// `integer` is nil for NULL and for a value that is not an integer (a
/// SQLite column holds what a file gave), `text` is any value written as
/// text (nil for NULL), `number` a price (integer, real, or text holding
/// a number).
@usableFromInline
package protocol ReadRow {
    /// How many columns the row has.
    var count: Int { get }
    /// The name of column `column`.
    func name(_ column: Int) -> String
    /// The column as an integer; nil for NULL or a value that is not one.
    func integer(_ column: Int) -> Int64?
    /// The column as a number (a price); nil for NULL or text that is not one.
    func number(_ column: Int) -> Double?
    /// The column as text (numbers written out); nil for NULL.
    func text(_ column: Int) -> String?
    /// The column as SQLite would hold it (integers, reals, text, NULL).
    func value(_ column: Int) -> SQLValue
}
