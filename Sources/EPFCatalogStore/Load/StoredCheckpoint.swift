import EPFCatalogCore
import EPFCatalogRead
import EPFFormat
import Foundation

/// A load's checkpoint as a store keeps it (`epf_checkpoint`, in SQLite and
/// in PostgreSQL alike), with what it was made for: the file and the
/// header. The text forms (JSON with sorted keys, the phase) are written
/// and read here, so both stores store the same thing.
package struct StoredCheckpoint: Sendable {
    /// The catalog table the load goes into.
    package var table: String
    package var checkpoint: LoadCheckpoint
    package var source: SourceIdentity?
    /// `EPFHeaderSignature` of the header the staging table was made for.
    package var header: String
    /// The key index of a staging table that is complete.
    package var keyIndex: String?

    /// A checkpoint read back from its stored columns.
    package init(
        table: String, byteOffset: Int64, records: Int, counts: String?, firstExportDate: Int64?, phase: String?, source: String?,
        header: String, keyIndex: String?
    ) {
        let decoder = JSONDecoder()
        self.table = table
        checkpoint = LoadCheckpoint(
            byteOffset: byteOffset, records: records,
            counts: counts.flatMap { try? decoder.decode(LoadCounts.self, from: Data($0.utf8)) } ?? LoadCounts(),
            firstExportDate: firstExportDate, staged: phase == Self.stagedPhase)
        self.source = source.flatMap { try? decoder.decode(SourceIdentity.self, from: Data($0.utf8)) }
        self.header = header
        self.keyIndex = keyIndex
    }

    /// Whether a load of `target` may go on from this checkpoint: made for
    /// the same file (path, size, modification time), the same header, the
    /// same storefront filter and the same separators.
    package func resumes(_ target: StagingTarget) -> Bool {
        guard let wanted = target.source else { return false }
        return source == wanted && header == EPFHeaderSignature(target.header).text
    }

    static let stagedPhase = "staged"

    /// The stored phase of `checkpoint`: `staged` or `loading`.
    package static func phase(_ checkpoint: LoadCheckpoint) -> String { checkpoint.staged ? stagedPhase : "loading" }

    /// JSON with sorted keys: the same text from every run.
    package static func json<T: Encodable>(_ value: T?) -> String? {
        guard let value else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The parts of a header a staging table is made from, as text: a load
/// resumes only into a staging table made for the same columns, types, key
/// and mode.
package struct EPFHeaderSignature: Sendable, Equatable {
    package let text: String

    package init(_ header: EPFHeader) {
        text = [
            header.columns.joined(separator: ","), header.types.map { "\($0)" }.joined(separator: ","),
            header.primaryKey.joined(separator: ","), header.exportMode.rawValue,
        ].joined(separator: "|")
    }
}
