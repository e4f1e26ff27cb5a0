// The read side of SQLite catalogs (connection, statements, rows,
// `SQLiteReadSource`, `Catalog(path:)`, `SQLiteCatalogAdmin`) is EPFSQLiteReader,
// so that a program that only reads (epf-server) links no store. This
// module is the store, and brings the reader with it: everything that
// imported EPFSQLite keeps building, and one import gives the whole
// backend.
@_exported import EPFSQLiteReader
