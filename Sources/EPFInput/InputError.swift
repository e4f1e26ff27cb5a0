/// A problem reaching the bytes of a file (as opposed to a problem with the
/// bytes themselves, which is a `FormatError`).
package struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as the user named it.
    package var path: String
    /// What went wrong, in plain words.
    package var detail: String
    /// What the user can do about it.
    package var hint: String

    package init(path: String, detail: String, hint: String) {
        self.path = path
        self.detail = detail
        self.hint = hint
    }

    /// `path: detail. hint`.
    package var description: String { "\(path): \(detail). \(hint)" }

    /// A compressed file or archive with no `.md5` beside it, when md5s are
    /// required (`--require-md5`).
    package static func missingMD5(_ path: String) -> InputError {
        InputError(
            path: path, detail: "no \(path).md5 beside it, and --require-md5 is set",
            hint: "Download its .md5 file too (it comes beside every archive), or run without --require-md5")
    }

    /// An error for a failed system call, with `errno`'s text.
    static func system(_ path: String, _ action: String, errno code: Int32) -> InputError {
        let reason = String(cString: strerror(code))
        let hint: String
        switch code {
        case ENOENT: hint = "Check the path"
        case EACCES, EPERM: hint = "Check the file's permissions"
        case EISDIR: hint = "Name a table file or a feed folder"
        default: hint = "Check the file and the disk"
        }
        return InputError(path: path, detail: "cannot \(action): \(reason)", hint: hint)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
