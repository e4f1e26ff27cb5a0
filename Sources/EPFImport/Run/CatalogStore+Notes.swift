import EPFCatalogStore

extension CatalogStore {
    /// What is worth telling about how the store was opened: its own notes,
    /// the leftovers of an import that did not finish (dropped), and the
    /// loads an interrupted import left to resume.
    package var openingNotes: [String] {
        notes + droppedLeftovers.map { "dropped \($0), left by an import that did not finish" }
            + resumableLoads.map { load in
                // A load resumes only under its own filter: say which.
                let filter = load.storefronts.map { " with --storefront \($0.argument)" } ?? ""
                return
                    "an interrupted load of \(load.table) (\(load.records) rows committed) resumes if this import reads the same file\(filter); --restart starts over"
            }
    }
}
