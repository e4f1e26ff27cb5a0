import ArgumentParser
import EPFCatalog
import EPFReport
import Foundation

/// Standard output for data, standard error for messages.
enum Console {
    /// Writes data to standard output.
    static func out(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// How messages are written (`--log-format`). Set once, while the
    /// command line is parsed (`LogFormatOption.validate`), before any
    /// thread that writes a message starts; only read after that.
    nonisolated(unsafe) static var logFormat = LogFormat.text

    /// Writes a message line to standard error: its text, or with
    /// `--log-format json` a JSON object.
    static func message(_ message: LogMessage) {
        write((logFormat == .json ? message.json(at: Date()) : message.text) + "\n", to: STDERR_FILENO)
    }

    /// Says `text` as an error; the exit status 1 to throw.
    @discardableResult
    static func failure(_ text: String) -> ExitCode {
        message(LogMessage(text, level: .error))
        return ExitCode(1)
    }

    /// Replaces the current status line on a terminal (no newline), cut
    /// to the terminal's width: a line that wrapped could not be replaced.
    static func status(_ text: String) {
        guard logFormat == .text else { return }
        write("\r\u{1B}[K" + DisplayWidth.fitted(text, columns: terminalColumns), to: STDERR_FILENO)
    }

    /// The width of the terminal standard error is, if it is one.
    private static var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Clears the status line.
    static func clearStatus() {
        guard logFormat == .text else { return }
        write("\r\u{1B}[K", to: STDERR_FILENO)
    }

    /// Runs `body`; what it throws (other than an exit status) is said as
    /// `epf COMMAND: ERROR` and ends the command with exit status 1, or 64
    /// when `usage` and it is a usage error (`CatalogError.Kind.usage`).
    @discardableResult
    static func exitOnFailure<T>(_ command: String, usage: Bool = false, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            message(LogMessage("epf \(command): \(error)", level: .error))
            throw ExitCode(usage && (error as? CatalogError)?.kind == .usage ? 64 : 1)
        }
    }

    /// Runs `check`: what it throws (a library refusing an option's value)
    /// becomes a usage error (exit 64) in the library's words, `end` after.
    @discardableResult
    static func validating<T>(end: String = "", _ check: () throws -> T) throws -> T {
        do { return try check() } catch { throw ValidationError("\(error)\(end)") }
    }

    /// Writes a run's summary: a table for people on standard error, JSON
    /// or CSV for scripts on standard output.
    static func print(_ summary: some RunSummary, as format: OutputFormat) {
        switch format {
        case .table: for line in logFormat == .json ? summary.messages() : [LogMessage(summary.table())] { message(line) }
        case .json: out(summary.json())
        case .csv: out(summary.csv())
        }
    }

    /// Writes a line of progress.
    @Sendable static func show(_ line: ProgressLine) {
        switch line {
        case .status(let text): status(text)
        case .message(let text): message(text)
        case .clearStatus: clearStatus()
        }
    }

    /// Whether standard error is a terminal (so a live status line makes sense).
    static var messagesAreTerminal: Bool { logFormat == .text && isatty(STDERR_FILENO) == 1 }

    /// Writes all of `text` (FileHandle writes again after a partial write
    /// or EINTR); a closed pipe leaves nothing more to do.
    private static func write(_ text: String, to descriptor: Int32) {
        try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: Data(text.utf8))
    }
}
