// The read side of PostgreSQL catalogs (connection, pipeline, rows,
// `PostgresTarget`, `PostgresReadSource`, `Catalog(target:)`,
// `PostgresCatalogAdmin`) is EPFPostgresReader, so that a program that only
// reads (epf-server) links no store. This module is the store, and brings
// the reader with it: everything that imported EPFPostgres keeps building,
// and one import gives the whole backend.
@_exported import EPFPostgresReader
