/// A line of progress, as a tool writes it to standard error: on a
/// terminal a status line redrawn in place, with messages below it; in a
/// log, the messages alone.
package enum ProgressLine: Sendable, Equatable {
    /// The status line, drawn in place of the one before.
    case status(String)
    /// A line of its own, written in place of the status line (a string
    /// literal is one, its level read from its prefix).
    case message(LogMessage)
    /// The status line cleared.
    case clearStatus
}
