/// What a verification found, file by file: the value `epf verify
/// --format json` prints (keys `seconds`, `clean`, `repairable`,
/// `damaged`, `files`).
package struct VerifySummary: Sendable, Encodable {
    /// One report per file, in the order they ended.
    package var reports: [VerifyReport]
    /// Time spent verifying.
    package var elapsed: Duration

    package init(reports: [VerifyReport], elapsed: Duration) {
        self.reports = reports
        self.elapsed = elapsed
    }

    /// Files that ended with `status`.
    package func count(_ status: VerifyReport.Status) -> Int { reports.filter { $0.status == status }.count }
    /// Rows of every file verified.
    package var rows: Int { reports.reduce(0) { $0 + $1.rows } }

    private enum CodingKeys: String, CodingKey {
        case seconds, clean, repairable, damaged, files
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(elapsed.inSeconds.toThousandths, forKey: .seconds)
        try container.encode(count(.clean), forKey: .clean)
        try container.encode(count(.repairable), forKey: .repairable)
        try container.encode(count(.damaged), forKey: .damaged)
        try container.encode(reports, forKey: .files)
    }
}
