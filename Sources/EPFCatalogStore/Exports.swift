// The store side's API speaks the shared model and the read side's values
// (a store also answers as a reader): a module that imports the store side
// has all three.
@_exported import EPFCatalogCore
@_exported import EPFCatalogRead
