import EPFInput
import Foundation

/// The md5 of a download (a table file, compressed file or archive),
/// computed in the same run that imports it, on a thread of its own so that
/// it costs the import's reader nothing.
///
/// The thread maps the file and hashes it behind the reader: the reader
/// only says how far it has read (`InputObservable`), and the thread hashes
/// up to there. Those pages were just read, so they are in the page cache:
/// the file is read from disk once. At the end (`checked`), the thread
/// hashes whatever the reader passed over (a load resumed past its start, a
/// staged file not read again) and returns the digest.
///
/// A file that cannot be mapped (a named pipe) is hashed by the reader
/// itself, as it reads.
///
/// Invariant: `state` is shared with the hashing thread and guarded by its
/// condition; the mapping is read-only and outlives the thread (the thread
/// holds the state, the state holds the mapping). `inline` is used only by
/// the reader's thread, and read after its reading is over.
final class DownloadDigest: @unchecked Sendable {
    private let state: State?
    private var inline = MD5()
    let path: String

    /// Starts hashing the file at `path` behind what `input` reads.
    init(path: String, following input: any InputObservable) {
        self.path = path
        guard let file = try? MappedFile(path: path) else {
            state = nil
            input.observeInput { [unowned self] bytes in inline.update(bytes) }
            return
        }
        let state = State(file: file)
        self.state = state
        var consumed = 0
        input.observeInput { bytes in
            consumed += bytes.count
            state.allow(upTo: consumed)
        }
        let thread = Thread { state.run() }
        thread.name = "epf-md5"
        thread.start()
    }

    deinit { state?.cancel() }

    /// The md5 of the whole file, checked against `expected` (its `.md5`
    /// side file) when there is one. Waits for the thread to finish.
    func checked(expected: String?) throws -> String {
        let actual = state?.finish() ?? MD5.hex(inline.finalize())
        if let expected, actual != expected {
            throw InputError(
                path: path, detail: "md5 mismatch: the file's md5 is \(actual) but \(path).md5 says \(expected)",
                hint: "The download is damaged or incomplete; download it (and its .md5) again")
        }
        return actual
    }

    private final class State: @unchecked Sendable {
        let file: MappedFile
        let condition = NSCondition()
        /// Bytes the thread may hash: what the reader has read.
        var allowed = 0
        var finishing = false
        var cancelled = false
        var digest: String?

        init(file: MappedFile) { self.file = file }

        func allow(upTo count: Int) {
            condition.lock()
            if count > allowed {
                allowed = min(count, file.size)
                condition.signal()
            }
            condition.unlock()
        }

        /// Lets the thread hash the rest and waits for the digest.
        func finish() -> String {
            condition.lock()
            defer { condition.unlock() }
            allowed = file.size
            finishing = true
            condition.broadcast()
            while digest == nil { condition.wait() }
            return digest!
        }

        func cancel() {
            condition.lock()
            cancelled = true
            condition.broadcast()
            condition.unlock()
        }

        /// The thread's loop: hash what is allowed, wait for more.
        func run() {
            var md5 = MD5()
            var hashed = 0
            while true {
                condition.lock()
                while allowed == hashed && !cancelled && !(finishing && hashed == file.size) { condition.wait() }
                let upTo = allowed
                let stop = cancelled
                let done = finishing && hashed == file.size
                condition.unlock()
                if stop { return }
                if done {
                    let result = MD5.hex(md5.finalize())
                    condition.lock()
                    digest = result
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                md5.update(UnsafeRawBufferPointer(rebasing: file.bytes[hashed..<upTo]))
                hashed = upTo
            }
        }
    }
}
