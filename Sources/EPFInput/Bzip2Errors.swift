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
