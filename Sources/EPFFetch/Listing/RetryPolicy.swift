import Foundation

/// How often a request that failed for a passing reason is tried again, and
/// how long to wait between tries: exponential backoff (1 s, 2 s, 4 s, ...
/// up to `maximumDelay`). Passing reasons: no answer (connection refused,
/// reset or dropped, a timeout) and HTTP 5xx. A 401/403, a 404, an md5
/// mismatch or a local file error is never retried here.
package struct RetryPolicy: Sendable, Equatable {
    /// Tries in all, the first one included (1 = no retry).
    package var attempts: Int
    /// The wait before the second try; each next wait doubles.
    package var firstDelay: TimeInterval
    /// The longest wait.
    package var maximumDelay: TimeInterval

    package init(attempts: Int = 5, firstDelay: TimeInterval = 1, maximumDelay: TimeInterval = 30) {
        self.attempts = max(1, attempts)
        self.firstDelay = max(0, firstDelay)
        self.maximumDelay = max(0, maximumDelay)
    }

    /// The wait after the failed try number `attempt` (1-based).
    package func delay(after attempt: Int) -> TimeInterval {
        min(maximumDelay, firstDelay * pow(2, Double(max(0, attempt - 1))))
    }

    /// Whether `error` may pass if the request is sent again.
    package static func isPassing(_ error: FetchError) -> Bool {
        switch error.kind {
        case .transport: return true
        case .status(let status): return (500..<600).contains(status)
        case .unauthorized, .notFound, .md5Mismatch, .file, .malformed: return false
        }
    }
}

/// A try that failed and is about to be made again.
package struct RetryEvent: Sendable {
    /// The server path of the file (or `.md5`) asked for.
    package var path: String
    package var error: FetchError
    /// The try that failed (1-based) and the tries in all.
    package var attempt: Int
    package var attempts: Int
    /// The wait before the next try.
    package var delay: TimeInterval
}

extension RetryPolicy {
    /// Runs `body` until it succeeds, fails for a reason that is not
    /// passing, or has been tried `attempts` times; the last error then
    /// says how many tries were made. `onRetry` hears of each wait.
    package func run<T>(
        _ path: String, onRetry: (RetryEvent) -> Void, sleep: (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
        _ body: () throws(FetchError) -> T
    ) throws(FetchError) -> T {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch {
                guard Self.isPassing(error) else { throw error }
                guard attempt < attempts else {
                    throw FetchError(error.kind, attempts == 1 ? error.detail : "\(error.detail) (gave up after \(attempts) tries)")
                }
                let wait = delay(after: attempt)
                onRetry(RetryEvent(path: path, error: error, attempt: attempt, attempts: attempts, delay: wait))
                sleep(wait)
                attempt += 1
            }
        }
    }
}

/// A server's listings, each request tried again as `retry` says.
package struct RetryingListingReader<Reader: ListingReader>: ListingReader {
    package let reader: Reader
    package let retry: RetryPolicy
    package let onRetry: (RetryEvent) -> Void

    package init(_ reader: Reader, retry: RetryPolicy, onRetry: @escaping (RetryEvent) -> Void) {
        self.reader = reader
        self.retry = retry
        self.onRetry = onRetry
    }

    package func list(_ path: String) throws(FetchError) -> [ListingEntry] {
        try retry.run(path, onRetry: onRetry) { () throws(FetchError) in try reader.list(path) }
    }
}
