import ArgumentParser
import EPFImport

/// `--include` and `--exclude`: which tables a command takes.
struct TableFilterOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only tables whose whole name matches (repeatable).", valueName: "regex"))
    var include: [String] = []

    @Option(name: .long, help: ArgumentHelp("Skip tables whose whole name matches (repeatable).", valueName: "regex"))
    var exclude: [String] = []

    func validate() throws { _ = try filter() }

    /// The filter, or a usage error naming the pattern that does not compile.
    func filter() throws -> TableFilter { try Console.validating { try TableFilter(include: include, exclude: exclude) } }
}
