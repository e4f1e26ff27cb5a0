/// Where a day of a table lies in the lake, and how a reader tells its day
/// and mode from a file's path.
package enum LakePartition {
    /// `<table>/export_date=YYYY-MM-DD/mode=FULL` (or `mode=INCREMENTAL`):
    /// a FULL and an INCREMENTAL file of the same day are two partitions.
    package static func path(table: String, day: String, mode: String) -> String {
        "\(table)/export_date=\(day)/mode=\(mode)"
    }

    /// Every file of a table under the lake's root: `<root>/<table>/*/*/*.parquet`.
    package static func glob(root: String, table: String) -> String { "\(root)/\(table)/*/*/*.parquet" }

    /// A regular expression over a file's path: group 1 the day, group 2 the mode.
    package static let pathPattern = "/export_date=([^/]+)/mode=([^/]+)/[^/]+$"
}
