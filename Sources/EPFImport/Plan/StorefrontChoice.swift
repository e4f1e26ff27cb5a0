import EPFCatalogStore

/// Which storefronts an import keeps, from what `--storefront` asked and
/// the set the catalog holds (`StorefrontSet.current(in:)`):
///
/// - no `--storefront`: the catalog's set (an INCREMENTAL into a filtered
///   catalog is filtered the same way; an unfiltered catalog stays so);
/// - the catalog's own set: kept;
/// - another set (or `all`): only into a catalog that has nothing applied
///   yet, or by an import that holds a FULL file (which replaces the set),
///   or with `--force`; otherwise refused, so that a catalog never holds
///   some tables of one set and some of another by accident.
package struct StorefrontChoice: Sendable, Equatable {
    /// The storefronts this run keeps; nil keeps every row.
    package var kept: StorefrontSet?
    /// The catalog's set before the run.
    package var previous: StorefrontSet?

    /// Whether the run replaces the catalog's set.
    package var replaces: Bool { kept != previous }

    /// The choice for a run into a catalog whose applied files are
    /// `applied`. `requested` is `--storefront` (nil: not given; `.some(nil)`:
    /// `all`); `holdsFull` tells, when asked, whether the run imports a
    /// FULL file. Throws a `CatalogError` (`.constraint`) when the set
    /// would change without a FULL or `force`.
    package init(
        requested: StorefrontSet??, applied: [AppliedFile], force: Bool, holdsFull: () -> Bool
    ) throws(CatalogError) {
        previous = StorefrontSet.current(in: applied)
        guard let requested else {
            kept = previous
            return
        }
        kept = requested
        guard replaces, !applied.isEmpty, !force, !holdsFull() else { return }
        let now = previous.map { "only the storefronts \($0.description)" } ?? "every storefront"
        let asked = requested.map { "only \($0.description)" } ?? "every storefront"
        throw CatalogError(
            .constraint, detail: "--storefront asks for \(asked), but the catalog holds \(now)",
            hint:
                "A different set takes a FULL import that names it with --storefront (its tables are replaced), or --force; nothing was imported"
        )
    }

    /// The line to tell the user, if any: which storefronts are kept, and
    /// whether the catalog's set changes.
    package var note: String? {
        switch (previous, kept) {
        case (nil, nil): return nil
        case (let old?, let new?) where old == new: return "keeping only the catalog's storefronts: \(new.description)"
        case (_, let new?): return "keeping only the storefronts \(new.description); they become the catalog's set"
        case (.some, nil): return "keeping every storefront; the catalog's storefront set is lifted"
        }
    }
}

extension ImportSchedule {
    /// Whether a unit of the schedule is a FULL export (by the header of its
    /// first file).
    package var holdsFull: Bool {
        units.contains { unit in
            (probes[unit.path] ?? (try? UnitProbe.probe(unit, separators: separators)))?.mode == .full
        }
    }
}
