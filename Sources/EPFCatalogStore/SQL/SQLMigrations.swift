import EPFCatalogCore
import EPFCatalogRead
import EPFFormat

/// The importer's own tables in a SQL catalog, migrated step by step
/// (`CatalogMigration`, `CatalogMigrator`) through a connection: the
/// journal and table info written once, in the dialect's types; a backend
/// adds only what is its own (`own`: PostgreSQL's unfit values, and how
/// each backend's checkpoint table became the shared one).
package struct SQLMigrations<Connection: SQLConnection, Dialect: SQLDialect>: CatalogMigrationDatabase {
    package typealias Failure = any Error

    let connection: Connection
    let dialect: Dialect
    /// The backend's SQL for a step, run after the shared SQL of that step
    /// (empty: nothing of its own).
    let own: (CatalogMigration) -> String

    package init(connection: Connection, dialect: Dialect, own: @escaping (CatalogMigration) -> String) {
        self.connection = connection
        self.dialect = dialect
        self.own = own
    }

    package func sql(for step: CatalogMigration) -> String {
        let journal = CatalogTables.journal
        let integer = dialect.integerType
        let shared: String
        switch step {
        case .journalAndTableInfo:
            shared = """
                CREATE TABLE IF NOT EXISTS \(journal) (
                    id \(dialect.serialKey),
                    feed TEXT,
                    feed_date TEXT,
                    table_name TEXT NOT NULL,
                    export_date \(integer),
                    mode TEXT,
                    rows \(integer) NOT NULL,
                    repaired_rows \(integer) NOT NULL,
                    skipped_rows \(integer) NOT NULL,
                    source_path TEXT NOT NULL,
                    source_size \(integer),
                    started_at TEXT NOT NULL,
                    finished_at TEXT NOT NULL,
                    status TEXT NOT NULL,
                    message TEXT,
                    details TEXT
                );
                CREATE TABLE IF NOT EXISTS \(CatalogTables.tableInfo) (
                    table_name TEXT PRIMARY KEY,
                    feed TEXT,
                    export_mode TEXT NOT NULL,
                    export_date \(integer),
                    columns TEXT NOT NULL,
                    primary_key TEXT NOT NULL,
                    source_path TEXT,
                    applied_at TEXT NOT NULL
                );
                """
        case .journalOriginSizeMD5:
            shared = """
                ALTER TABLE \(journal) ADD COLUMN origin_size \(integer);
                ALTER TABLE \(journal) ADD COLUMN origin_md5 TEXT;
                """
        case .checkpoints, .checkpointResumeColumns, .checkpointsShared:
            shared = ""
        case .journalOriginModified:
            shared = "ALTER TABLE \(journal) ADD COLUMN origin_mtime \(integer)"
        case .journalOriginHash:
            shared = "ALTER TABLE \(journal) ADD COLUMN origin_hash TEXT"
        case .tableInfoRowCount:
            shared = "ALTER TABLE \(CatalogTables.tableInfo) ADD COLUMN row_count \(integer)"
        case .rowDigests:
            shared = """
                CREATE TABLE IF NOT EXISTS \(CatalogTables.rowDigests) (
                    table_name TEXT PRIMARY KEY,
                    export_date \(integer) NOT NULL,
                    layout \(integer) NOT NULL,
                    rows \(integer) NOT NULL,
                    digests \(dialect.bytesType) NOT NULL
                )
                """
        case .changeLog:
            let prices = CatalogTables.priceChanges
            let apps = CatalogTables.appChanges
            let price = dialect.columnType(ColumnType(declared: "DECIMAL(9,3)"))
            shared = """
                CREATE TABLE IF NOT EXISTS \(prices) (
                    application_id \(integer) NOT NULL,
                    storefront_id \(integer) NOT NULL,
                    price_before \(price),
                    price_after \(price),
                    export_date \(integer) NOT NULL
                );
                CREATE INDEX IF NOT EXISTS \(prices)_by_storefront ON \(prices) (storefront_id, export_date);
                CREATE INDEX IF NOT EXISTS \(prices)_by_application ON \(prices) (application_id, storefront_id, export_date);
                CREATE INDEX IF NOT EXISTS \(prices)_by_date ON \(prices) (export_date);
                CREATE TABLE IF NOT EXISTS \(apps) (
                    application_id \(integer) NOT NULL,
                    kind TEXT NOT NULL,
                    value_before TEXT,
                    value_after TEXT,
                    export_date \(integer) NOT NULL
                );
                CREATE INDEX IF NOT EXISTS \(apps)_by_kind ON \(apps) (kind, export_date);
                CREATE INDEX IF NOT EXISTS \(apps)_by_application ON \(apps) (application_id, export_date);
                CREATE INDEX IF NOT EXISTS \(apps)_by_date ON \(apps) (export_date)
                """
        case .applicationDigests:
            shared = """
                CREATE TABLE IF NOT EXISTS \(CatalogTables.applicationDigests) (
                    table_name TEXT PRIMARY KEY,
                    export_date \(integer) NOT NULL,
                    applications \(integer) NOT NULL,
                    digests \(dialect.bytesType) NOT NULL
                )
                """
        }
        return [shared, own(step)].filter { !$0.isEmpty }.joined(separator: ";\n")
    }

    package func execute(_ sql: String) throws {
        try connection.execute(sql)
    }

    package func columnNames(of table: String) throws -> [String] {
        try connection.columnNames(of: table)
    }

    package func recordedSteps() throws -> [String] {
        try connection.rows("SELECT identifier FROM \(CatalogTables.schema)", []).compactMap { $0.first?.textValue }
    }

    package func record(_ identifier: String) throws {
        try connection.change(
            "INSERT INTO \(CatalogTables.schema) (identifier, applied_at) VALUES (\(dialect.parameters(2)))",
            [.text(identifier), .text(Timestamp.now())])
    }

    package func catalogError(_ error: any Error, while action: String) -> CatalogError {
        connection.catalogError(error, while: action)
    }
}
