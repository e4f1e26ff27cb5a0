import EPFFormat
import Foundation

/// The whole app feed set at the real feed's proportions: the app tables
/// of the `itunes`, `pricing` and `popularity` feeds, a FULL day and the
/// days after it, each day in its three feed folders
/// (`itunes20261101/`, `pricing20261101/`, `popularity20261101/`), the
/// layout `epf import DIR` reads.
///
/// Every value is a pure function of the seed, the application and the
/// day (`AppFeedModel`), so a FULL of any day holds exactly what the FULL
/// before it and the INCREMENTAL days between them add up to, and the same
/// seed always gives the same bytes. The proportions and change rates are
/// `AppFeedModel`'s; docs/PERFORMANCE.md says why each was chosen.
package struct AppFeedSet: Sendable {
    /// A storefront: its ID, ISO alpha-3 code and name.
    package struct Storefront: Sendable, Equatable {
        /// The storefront ID (143441).
        package var id: Int
        /// ISO 3166 alpha-3 (`USA`).
        package var code: String
        /// The country's name.
        package var name: String

        /// A storefront of `id`, `code` and `name`.
        package init(id: Int, code: String, name: String) {
            self.id = id
            self.code = code
            self.name = name
        }
    }

    /// What is generated.
    package var model: AppFeedModel
    /// Days written after the first FULL: day `d` (1...days) is a FULL
    /// when `d` is a multiple of 7 (Apple's weekly FULL), else INCREMENTAL.
    package var days: Int
    /// Threads writing a table's rows (each writes a run of applications
    /// into its own buffer; the buffers are written in order).
    package var threads: Int

    /// The set of `model` over `days` days after its FULL.
    package init(model: AppFeedModel, days: Int = 0, threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.model = model
        self.days = days
        self.threads = max(1, threads)
    }

    /// Whether day `day` (0 is the first) is written FULL.
    package static func isFull(day: Int) -> Bool { day % 7 == 0 }

    /// A table written: its path, rows and bytes.
    package struct Written: Sendable {
        /// The table file.
        package var path: String
        /// Its rows (the footer's `#recordsWritten`).
        package var rows: Int
        /// Its size.
        package var bytes: Int64
    }

    /// Writes days 0...`days` into `folder` (created if needed), telling
    /// `written` of each table file as it is done. Returns them all.
    @discardableResult
    package func write(to folder: String, written: (Written) -> Void = { _ in }) throws -> [Written] {
        var all: [Written] = []
        for day in 0...days {
            for file in try write(day: day, to: folder) {
                written(file)
                all.append(file)
            }
        }
        return all
    }

    /// Writes one day's three feed folders, FULL or INCREMENTAL as
    /// `isFull(day:)` says unless `mode` is given.
    package func write(day: Int, to folder: String, mode: ExportMode? = nil) throws -> [Written] {
        let mode = mode ?? (Self.isFull(day: day) ? .full : .incremental)
        let stamp = model.folderDate(day: day)
        var out: [Written] = []
        for table in AppFeedTable.allCases {
            let rows = model.rows(of: table, day: day, mode: mode)
            guard mode == .full || rows.count > 0 else { continue }
            let feedFolder = (folder as NSString).appendingPathComponent(table.feed + stamp)
            try FileManager.default.createDirectory(atPath: feedFolder, withIntermediateDirectories: true)
            let path = (feedFolder as NSString).appendingPathComponent(table.rawValue)
            out.append(try writeTable(table, rows: rows, day: day, mode: mode, to: path))
        }
        return out
    }

    /// Writes one table file: the header, the rows of `rows` (runs of them
    /// made on `threads` threads, written in order), the footer.
    func writeTable(_ table: AppFeedTable, rows: AppFeedRows, day: Int, mode: ExportMode, to path: String) throws -> Written {
        var writer = try BufferedWriter(path: path)
        var header = FeedGenerator(rows: 0, seed: model.seed)
        header.exportMode = mode
        try header.writeHeader(&writer, columns: table.columns.map { ($0.name, $0.type) }, key: table.key)
        var total = 0
        // Runs of units (applications, or chart entries) per thread, a
        // round of `threads` runs at a time, written in order.
        let run = 2_000
        let units = rows.count
        var start = 0
        while start < units {
            let starts = Array(stride(from: start, to: min(units, start + run * threads), by: run))
            // Each thread writes only its own slot.
            nonisolated(unsafe) let buffers = UnsafeMutableBufferPointer<([UInt8], Int)>.allocate(capacity: starts.count)
            buffers.initialize(repeating: ([], 0))
            defer {
                buffers.deinitialize()
                buffers.deallocate()
            }
            let model = self.model
            DispatchQueue.concurrentPerform(iterations: starts.count) { index in
                var bytes: [UInt8] = []
                bytes.reserveCapacity(run * 256)
                var count = 0
                for unit in starts[index]..<min(units, starts[index] + run) {
                    count += model.append(table, item: rows[unit], day: day, mode: mode, rows: rows, into: &bytes)
                }
                buffers[index] = (bytes, count)
            }
            for (bytes, count) in buffers {
                try writer.write(bytes)
                total += count
            }
            start += run * threads
        }
        try writer.write(Array("#recordsWritten:\(total)".utf8) + [0x02, 0x0A])
        try writer.close()
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
        return Written(path: path, rows: total, bytes: size ?? 0)
    }
}
