/// The errors of bzip2 data, worded once for both decoders (`Bzip2Stream`
/// and `ParallelBzip2Stream`).
extension InputError {
    static func bzip2Empty(_ path: String) -> InputError {
        InputError(path: path, detail: "the file is empty, not bzip2 data", hint: "Download it again")
    }

    static func notBzip2(_ path: String, at byte: Int64) -> InputError {
        InputError(
            path: path, detail: "not bzip2 data at compressed byte \(byte)",
            hint: "Check that the file is a .tbz/.bz2 archive; download it again if it should be")
    }

    /// `what`: which check failed, e.g. "a block's CRC or structure is wrong".
    static func bzip2Corrupt(_ path: String, at byte: Int64, _ what: String) -> InputError {
        InputError(
            path: path, detail: "corrupt bzip2 data near compressed byte \(byte) (\(what))",
            hint: "The archive is damaged; download it again")
    }

    /// `where`: how far the data went, e.g. "after 1200 compressed bytes".
    static func bzip2EndsEarly(_ path: String, _ where: String) -> InputError {
        InputError(path: path, detail: "the bzip2 data ends early (\(`where`))", hint: "The download was cut short; download it again")
    }

    static func bzip2OutOfMemory(_ path: String) -> InputError {
        InputError(path: path, detail: "out of memory decompressing bzip2", hint: "Free memory and run again")
    }
}

/// Why one bzip2 block did not decode (`Bzip2BlockDecoder`).
enum Bzip2BlockFailure: Error, Equatable {
    /// The block needs bits past the next marker: a block cut in two at a
    /// false magic (merged with the next piece and decoded again), or data
    /// so damaged that it reads on (reported as corrupt once no merge helps).
    case runsPastEnd
    /// The block breaks bzip2's rules; what names the rule, e.g. "the
    /// block's CRC does not match its bytes".
    case corrupt(String)

    /// What is wrong, for `InputError.bzip2Corrupt`.
    var what: String {
        switch self {
        case .runsPastEnd: "a block's data runs on past the next block marker"
        case .corrupt(let what): what
        }
    }
}
