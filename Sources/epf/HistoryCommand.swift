import ArgumentParser
import EPFCatalog
import EPFPostgres

/// A journal status as `epf history --status` takes it.
enum JournalStatusFilter: String, ExpressibleByArgument, CaseIterable {
    case applied, failed
    case notApplied = "not-applied"
    case blocked
}

/// `epf history`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the import journal, newest first: one row per file applied or refused.")

    @OptionGroup var catalog: CatalogOption

    @Option(name: .long, help: "Show at most this many rows.")
    var limit: Int = 50

    @Option(name: .long, help: "Only this feed (itunes, pricing, popularity, ...).")
    var feed: String?

    @Option(name: .long, help: "Only this catalog table.")
    var table: String?

    @Option(name: .long, help: "Only this status.")
    var status: JournalStatusFilter?

    @Option(name: .long, help: "Output format.")
    var format: OutputFormat = .table

    /// The columns printed, in order.
    static let columns = [
        "id", "started_at", "feed", "feed_date", "table_name", "mode", "status", "rows", "repaired_rows",
        "skipped_rows", "seconds", "source_path", "message",
    ]

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more.") }
    }

    func run() throws {
        if let postgres = catalog.postgres {
            let found: [[String?]]?
            do {
                found = try PostgresCatalogReader.journal(
                    at: postgres, feed: feed, table: table, status: status?.rawValue, limit: limit)
            } catch {
                Console.message("epf history: \(error.description)")
                throw ExitCode(1)
            }
            guard let found else {
                Console.message("epf history: \(postgres.redacted) has no import journal yet; run `epf import` first")
                throw ExitCode(1)
            }
            // Numbers as numbers: id, rows, repaired_rows, skipped_rows, seconds.
            let numeric: Set<Int> = [0, 7, 8, 9, 10]
            let rows = found.map { row in
                row.enumerated().map { index, text -> SQLValue in
                    guard let text else { return .null }
                    if numeric.contains(index), let number = Int64(text) { return .integer(number) }
                    return .text(text)
                }
            }
            if rows.isEmpty { Console.message("epf history: no journal rows match") }
            Console.out(TabularOutput(columns: Self.columns, rows: rows).render(format))
            return
        }
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let feed { conditions.append("feed = ?"); values.append(.text(feed)) }
        if let table { conditions.append("table_name = ?"); values.append(.text(table)) }
        if let status { conditions.append("status = ?"); values.append(.text(status.rawValue)) }
        values.append(.integer(Int64(limit)))
        let journal = SQLiteCatalogStore.journalTable
        let sql = """
            SELECT id, started_at, feed, feed_date, table_name, mode, status, rows, repaired_rows, skipped_rows,
            CAST(round((julianday(finished_at) - julianday(started_at)) * 86400) AS INTEGER),
            source_path, message
            FROM \(quoteIdentifier(journal))
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY id DESC LIMIT ?
            """
        let reader = try catalog.reader(for: "history")
        let rows: [[SQLValue]]
        do {
            guard try reader.database.tableExists(journal) else {
                Console.message("epf history: \(catalog.path) has no import journal yet; run `epf import` first")
                throw ExitCode(1)
            }
            rows = try reader.database.rows(sql, values)
        } catch let error as SQLiteError {
            Console.message("epf history: \(error.message)")
            throw ExitCode(1)
        }
        if rows.isEmpty { Console.message("epf history: no journal rows match") }
        Console.out(TabularOutput(columns: Self.columns, rows: rows).render(format))
    }
}
