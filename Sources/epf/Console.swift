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

    /// Replaces the current status line on a terminal (no newline).
    static func status(_ text: String) {
        write("\r\u{1B}[K" + text, to: STDERR_FILENO)
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
