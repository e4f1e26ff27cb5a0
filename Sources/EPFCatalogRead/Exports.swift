// The read side's API speaks the shared model (errors, timestamps,
// storefront sets): a module that imports the read side has both.
@_exported import EPFCatalogCore
