import ArgumentParser
import EPFReport

extension LogFormat: ExpressibleByArgument {}

/// `--log-format`, for the commands a job runs: how their messages are
/// written on standard error.
struct LogFormatOption: ParsableArguments {
    @Option(name: .long, help: "Messages on standard error: text, or json (an object a line: time, level, message, fields).")
    var logFormat: LogFormat = .text

    /// Sets `Console.logFormat` as the command line is parsed, before the
    /// command runs.
    func validate() throws { Console.logFormat = logFormat }
}
