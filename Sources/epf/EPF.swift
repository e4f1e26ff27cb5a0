import ArgumentParser
import EPFCatalog

/// `epf`: imports Apple's Enterprise Partner Feed into a catalog and answers
/// questions from it.
@main
struct EPF: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "epf",
        abstract: "Import Apple's Enterprise Partner Feed (EPF) into an indexed catalog and query it.",
        discussion: """
            Data goes to standard output, messages to standard error.
            Exit status: 0 success (also when there was nothing to do), 1 when a file failed \
            or the catalog could not answer, 64 for usage errors.
            """,
        version: EPFVersion.current,
        subcommands: [
            ImportCommand.self, VerifyCommand.self, TablesCommand.self, LookupCommand.self, SearchCommand.self, ChartsCommand.self,
            SQLCommand.self,
            HistoryCommand.self,
            CompactCommand.self,
            FetchCommand.self, GenerateCommand.self, ServeCommand.self,
            SyncCommand.self, LakeCommand.self,
        ]
    )
}
