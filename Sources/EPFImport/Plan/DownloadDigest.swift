import EPFInput
import Foundation

/// What a download (a table file, compressed file or archive) is known by,
/// computed in the same run that imports it: its XXH64 fingerprint (for the
/// journal), and its md5 when a `.md5` side file says what it must be.
///
/// A thread of its own maps the file and hashes it behind the reader: the
/// reader only says how far it has read (`InputObservable`), and the thread
/// hashes up to there. Those pages were just read, so they are in the page
/// cache: the file is read from disk once, and the reader does none of the
/// hashing. At the end (`finish`), the thread hashes whatever the reader
/// passed over (a load resumed past its start, a staged file not read
/// again). A file that cannot be mapped (a named pipe) is hashed by the
/// reader itself, as it reads.
///
/// Invariant: `state` is shared with the hashing thread and guarded by its
/// condition; the mapping is read-only and outlives the thread (the thread
/// holds the state, the state holds the mapping). `inline` is used only by
/// the reader's thread, and read after its reading is over.
final class DownloadDigest: @unchecked Sendable {
    private let state: State?
    private var inline: Hashes
    let path: String
    let expectedMD5: String?

    /// Starts hashing the file at `path` behind what `input` reads; with
    /// `expectedMD5`, its md5 too.
    convenience init(path: String, expectedMD5: String?, following input: any InputObservable) {
        self.init(path: path, file: try? MappedFile(path: path), expectedMD5: expectedMD5, following: input)
    }

    /// Starts hashing `file`, mapped already (the reader's own mapping: its
    /// pages are then mapped once, not twice), behind what `input` reads.
    convenience init(file: MappedFile, expectedMD5: String?, following input: any InputObservable) {
        self.init(path: file.path, file: file, expectedMD5: expectedMD5, following: input)
    }

    private init(path: String, file: MappedFile?, expectedMD5: String?, following input: any InputObservable) {
        self.path = path
        self.expectedMD5 = expectedMD5
        inline = Hashes(md5: expectedMD5 != nil)
        guard let file else {
            state = nil
            input.observeInput { [unowned self] bytes in inline.update(bytes) }
            return
        }
        let state = State(file: file, hashes: inline)
        self.state = state
        var consumed = 0
        input.observeInput { bytes in
            consumed += bytes.count
            state.allow(upTo: consumed)
        }
        let thread = Thread { state.run() }
        thread.name = "epf-fingerprint"
        thread.start()
    }

    deinit { state?.cancel() }

    /// The download's fingerprint, once its md5 (when a side file gave one)
    /// is checked. Waits for the hashing thread.
    func finish() throws -> String {
        let hashes = state?.finish() ?? inline
        if let expectedMD5, var md5 = hashes.md5, case let actual = MD5.hex(md5.finalize()), actual != expectedMD5 {
            throw InputError(
                path: path, detail: "md5 mismatch: the file's md5 is \(actual) but \(path).md5 says \(expectedMD5)",
                hint: "The download is damaged or incomplete; download it (and its .md5) again")
        }
        return XXH64.fingerprint(hashes.xxh64.finalize())
    }

    /// The hashes being computed.
    struct Hashes {
        var xxh64 = XXH64()
        var md5: MD5?

        init(md5: Bool) { self.md5 = md5 ? MD5() : nil }

        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            xxh64.update(bytes)
            md5?.update(bytes)
        }
    }

    private final class State: @unchecked Sendable {
        let file: MappedFile
        let condition = NSCondition()
        /// Bytes the thread may hash: what the reader has read.
        var allowed = 0
        var finishing = false
        var cancelled = false
        var hashes: Hashes
        var done = false

        init(file: MappedFile, hashes: Hashes) {
            self.file = file
            self.hashes = hashes
        }

        func allow(upTo count: Int) {
            condition.lock()
            if count > allowed {
                allowed = min(count, file.size)
                condition.signal()
            }
            condition.unlock()
        }

        /// Lets the thread hash the rest and waits for it.
        func finish() -> Hashes {
            condition.lock()
            defer { condition.unlock() }
            allowed = file.size
            finishing = true
            condition.broadcast()
            while !done { condition.wait() }
            return hashes
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }

        /// The thread's loop: hash what is allowed, wait for more. `hashes`
        /// belongs to this thread until `done` is set.
        func run() {
            var hashed = 0
            while true {
                condition.lock()
                while allowed == hashed && !cancelled && !(finishing && hashed == file.size) { condition.wait() }
                let upTo = allowed
                let stop = cancelled
                let complete = finishing && hashed == file.size
                if complete {
                    done = true
                    condition.broadcast()
                }
                condition.unlock()
                if stop || complete { return }
                hashes.update(UnsafeRawBufferPointer(rebasing: file.bytes[hashed..<upTo]))
                hashed = upTo
            }
        }
    }
}
