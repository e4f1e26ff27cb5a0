// `import EPFCatalog` brings the whole catalog, as it did before it was
// split along the line between reading and writing: the shared model, the
// read side and the store side. The package's own modules import the part
// they need (epf-server links no store: it imports EPFCatalogRead).
@_exported import EPFCatalogCore
@_exported import EPFCatalogRead
@_exported import EPFCatalogStore
