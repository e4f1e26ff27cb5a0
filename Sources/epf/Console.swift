#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output for data, standard error for messages.
enum Console {
    /// Writes data to standard output.
    static func out(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes a message line to standard error.
    static func message(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// Replaces the current status line on a terminal (no newline), cut
    /// to the terminal's width: a line that wrapped could not be replaced.
    static func status(_ text: String) {
        write("\r\u{1B}[K" + fitted(text, columns: terminalColumns), to: STDERR_FILENO)
    }

    /// `text` cut to `columns` display columns (`DisplayWidth`), the last
    /// one `…` when cut; nil columns: as it is.
    static func fitted(_ text: String, columns: Int?) -> String {
        guard let columns, columns > 1, DisplayWidth.of(text) > columns - 1 else { return text }
        var out = ""
        var width = 0
        for character in text {
            let next = DisplayWidth.of(character)
            // One column is left free: a terminal that wraps at the last
            // column would start a new line.
            if width + next > columns - 2 { break }
            out.append(character)
            width += next
        }
        return out + "…"
    }

    /// The width of the terminal standard error is, if it is one.
    private static var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Clears the status line.
    static func clearStatus() {
        write("\r\u{1B}[K", to: STDERR_FILENO)
    }

    /// Whether standard error is a terminal (so a live status line makes sense).
    static var messagesAreTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }  // a closed pipe: nothing more to do
                offset += written
            }
        }
    }
}
