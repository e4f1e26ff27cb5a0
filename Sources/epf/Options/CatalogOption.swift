import ArgumentParser
import EPFLocation
import EPFReport

/// `--db PATH`, shared by every command that uses a catalog.
struct CatalogOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(CatalogLocation.optionHelp, valueName: "path|url"))
    var db: String?

    /// The catalog path the user asked for.
    var path: String {
        CatalogLocation.path(db: db)
    }

    /// Where the catalog is: the one parse of `--db`.
    var location: CatalogLocation { CatalogLocation(path) }

    /// The catalog as messages name it: a PostgreSQL URL without its password.
    var displayName: String { location.displayName }
}

extension OutputFormat: ExpressibleByArgument {}
