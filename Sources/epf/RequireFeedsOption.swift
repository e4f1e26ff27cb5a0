import ArgumentParser

/// `--require-feeds`, shared by `epf import` and `epf sync`: a nightly job
/// whose path (or server folder) holds no feed at all is a failure, not
/// "nothing to import", so that a cron entry with a wrong path alerts.
/// Feeds that are all applied already are still a success.
struct RequireFeedsOption: ParsableArguments {
    @Flag(name: .long, help: "Exit 1 when no feed is found at all (a wrong path), not when every feed found is already applied.")
    var requireFeeds = false

    /// Exits 1 with `message` (said on standard error) when feeds are
    /// required.
    func noFeedFound(_ message: String) throws {
        guard requireFeeds else { return }
        Console.message("\(message) (--require-feeds: exit 1)")
        throw ExitCode(1)
    }
}
