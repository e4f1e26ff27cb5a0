/// An INCREMENTAL file for a table the catalog does not have: refused
/// unless forced.
///
/// An INCREMENTAL export holds one day's changed rows, so applied alone it
/// makes a table of those rows only; and the FULL export it follows, dated
/// earlier, would then be skipped as older than the table's day, leaving the
/// table short for good. Refusing keeps the order right: the FULL first,
/// then the days after it.
package struct IncrementalWithoutFull: Error, Sendable, CustomStringConvertible {
    /// The catalog table (prefix included).
    package var table: String
    package var feed: String?
    /// `YYYY-MM-DD`, when the file's folder is named like a feed.
    package var feedDate: String?

    package var description: String {
        let export = feed.map { "the \($0) FULL export" } ?? "a FULL export of \(table)"
        let date = feedDate.map { " dated \($0) or earlier (e.g. from Apple's weekly current/ folder)" } ?? ""
        return
            "an INCREMENTAL file, but the catalog has no \(table) table yet: alone it would make a table of one day's changes. Import \(export)\(date) first, then this day again; or run again with --force to apply it anyway"
    }
}
