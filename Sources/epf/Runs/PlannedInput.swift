import ArgumentParser
import EPFFormat
import EPFImport

/// What `epf import` and `epf verify` both do with their paths: plan them
/// (any error is a message and exit 1) and say the plan's notes, including
/// archives and compressed files whose md5 cannot be checked.
enum PlannedInput {
    static func plan(
        _ paths: [String], filter: TableFilter, tablePrefix: String = "", separators: Separators = .relational,
        extensions: Bool = false, requireMD5: Bool, command: String
    ) throws -> ImportPlan {
        let plan = try Console.exitOnFailure(command) {
            try ImportPlanner.plan(paths: paths, filter: filter, tablePrefix: tablePrefix, separators: separators, extensions: extensions)
        }
        for note in plan.notes + (requireMD5 ? [] : plan.uncheckedMD5Notes) { Console.message("note: \(note)") }
        return plan
    }
}
