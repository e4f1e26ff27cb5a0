import EPFCatalog
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP basic-auth credentials. Their text appears in no description, no
/// message and no URL: only in the `Authorization` header of a request.
package struct Credentials: Sendable, CustomStringConvertible {
    package var user: String
    private var password: String

    package init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    var authorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    package var description: String { "credentials for \(user.isEmpty ? "an empty user" : "a user")" }
}

/// The EPF server at a base URL (`https://feeds.itunes.apple.com/feeds/epf/v5/current/`):
/// folder listings, `.md5` side files, and file bodies streamed to disk
/// with HTTP `Range` resume. Requests wait (the calling thread blocks);
/// each has a timeout for a silent server.
///
/// HTTP goes through the toolchain's FoundationNetworking (`URLSession`,
/// libcurl below it): nothing more to build.
package final class FeedServer: ListingReader, Sendable {
    /// The base URL, ending with `/`, without user or password.
    package let base: URL
    private let credentials: Credentials?
    /// Seconds without a byte before a request fails.
    let timeout: TimeInterval

    /// `text` as a feed server's base URL, http or https with a host; nil
    /// for anything else.
    package static func baseURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host?.isEmpty == false
        else { return nil }
        return url
    }

    /// `base` with any `user:password@` taken out (they become the
    /// credentials when `credentials` is nil).
    package init(base: URL, credentials: Credentials?, timeout: TimeInterval = 60) throws(FetchError) {
        guard var parts = URLComponents(url: base, resolvingAgainstBaseURL: false), let scheme = parts.scheme?.lowercased(),
            scheme == "http" || scheme == "https", parts.host?.isEmpty == false
        else {
            throw FetchError(.malformed, "the URL must be an http:// or https:// URL of the feed's folder")
        }
        var fromURL: Credentials?
        if let user = parts.user {
            fromURL = Credentials(
                user: user.removingPercentEncoding ?? user, password: (parts.password ?? "").removingPercentEncoding ?? "")
        }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        if !parts.path.hasSuffix("/") { parts.path += "/" }
        guard let clean = parts.url else { throw FetchError(.malformed, "the URL cannot be read") }
        self.base = clean
        self.credentials = credentials ?? fromURL
        self.timeout = timeout
    }

    /// The URL of `path` below the base.
    package func url(_ path: String) -> URL {
        let encoded = path.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
                ?? String($0)
        }.joined(separator: "/")
        // The base ends with "/" and `encoded` has no character a URL refuses.
        return URL(string: base.absoluteString + encoded)!
    }

    /// The listing of the folder `path` ("" for the base, else ending with `/`).
    package func list(_ path: String) throws(FetchError) -> [ListingEntry] {
        let address = url(path)
        let body = try text(path, limit: 16 << 20)
        guard body.range(of: "<a ", options: .caseInsensitive) != nil || body.range(of: "<html", options: .caseInsensitive) != nil else {
            throw FetchError(.malformed, "\(address): not an HTML folder listing")
        }
        return DirectoryListing.parse(body, url: address)
    }

    /// The body of the small file `path` (a listing, an `.md5`) as text.
    package func text(_ path: String, limit: Int = 1 << 20) throws(FetchError) -> String {
        let sink = MemorySink(limit: limit)
        let answer = try perform(url(path), range: nil, sink: sink)
        try check(answer.status, url(path))
        if sink.overflowed { throw FetchError(.malformed, "\(url(path)): larger than \(limit / 1024) KiB") }
        return String(decoding: sink.data, as: UTF8.self)
    }

    /// What a download did.
    package struct Transfer: Sendable, Equatable {
        /// The bytes received and written.
        package var received: Int64
        /// Whether the server continued from the offset asked (206); false
        /// when the file was written from its start.
        package var resumed: Bool
        /// The server said the range starts at or past the end (416): the
        /// file at `partPath` may already be whole.
        package var rangeBeyondEnd: Bool = false
        /// The md5 (lowercase hex) of the whole file at `partPath` as
        /// written, computed on the way; nil when it could not be (a 416,
        /// the bytes before the range unreadable).
        package var md5: String?
    }

    /// Downloads `path` to the file `partPath`: from its current end with a
    /// `Range` request when it has bytes, from the start otherwise (or when
    /// the server answers the range with the whole file).
    /// `onBytes` hears of each block written, as it is written.
    package func download(_ path: String, to partPath: String, onBytes: (@Sendable (Int64) -> Void)? = nil) throws(FetchError) -> Transfer {
        let address = url(path)
        let offset = (try? FileManager.default.attributesOfItem(atPath: partPath))?[.size].flatMap { ($0 as? NSNumber)?.int64Value } ?? 0
        let sink = try FileSink(path: partPath, offset: offset)
        sink.onBytes = onBytes
        let answer = try perform(address, range: offset > 0 ? offset : nil, sink: sink)
        if offset > 0 && answer.status == 416 {
            return Transfer(received: 0, resumed: false, rangeBeyondEnd: true)
        }
        try check(answer.status, address)
        if let failure = sink.failure { throw failure }
        if answer.status == 206 && !sink.resumed {
            throw FetchError(.malformed, "\(address): the server answered a range that does not start at byte \(offset)")
        }
        return Transfer(received: sink.written, resumed: sink.resumed, md5: sink.digest)
    }

    private func check(_ status: Int, _ address: URL) throws(FetchError) {
        switch status {
        case 200, 206: return
        case 401, 403:
            throw FetchError(
                .unauthorized,
                credentials == nil
                    ? "\(address): the server asks for credentials (HTTP \(status)): set EPF_USERNAME and EPF_PASSWORD, or add the host to ~/.netrc"
                    : "\(address): the server refused the credentials (HTTP \(status)): check EPF_USERNAME and EPF_PASSWORD, or ~/.netrc")
        case 404: throw FetchError(.notFound, "\(address): not found on the server (HTTP 404)")
        default: throw FetchError(.status(status), "\(address): the server answered HTTP \(status)")
        }
    }

    /// Sends a GET and waits for its end; the body goes to `sink` when the
    /// status is 200 or 206.
    private func perform(_ address: URL, range: Int64?, sink: BodySink) throws(FetchError) -> (status: Int, headers: [AnyHashable: Any]) {
        var request = URLRequest(url: address, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        if let credentials { request.setValue(credentials.authorization, forHTTPHeaderField: "Authorization") }
        if let range { request.setValue("bytes=\(range)-", forHTTPHeaderField: "Range") }
        // The bytes as sent: no transparent decompression of .tbz bodies.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        // Without it, FoundationNetworking names the process "epf (unknown
        // version)".
        request.setValue(EPFVersion.userAgent, forHTTPHeaderField: "User-Agent")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        let delegate = TaskDelegate(sink: sink, expectedOffset: range ?? 0)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        session.dataTask(with: request).resume()
        delegate.done.wait()
        session.finishTasksAndInvalidate()
        if let error = delegate.error {
            if let failure = sink.failure { throw failure }
            throw FetchError(.transport, "\(address): \(Self.describe(error))")
        }
        return (delegate.status, delegate.headers)
    }

    /// A transport error in words, without the URL's query or any header.
    static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        switch code {
        case NSURLErrorTimedOut: return "the server did not answer in time"
        case NSURLErrorCannotConnectToHost: return "cannot connect to the server"
        case NSURLErrorNetworkConnectionLost: return "the connection was lost"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "the server's name does not resolve"
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate:
            return "the TLS connection failed (certificate?)"
        default: return "the request failed (URL error \(code))"
        }
    }
}

/// Where a response's body goes.
class BodySink: @unchecked Sendable {
    var failure: FetchError?
    /// Called once with the status and, for 206, the first byte's offset.
    func begin(status: Int, contentRangeStart: Int64?) -> Bool { true }
    func write(_ data: Data) -> Bool { true }
}

/// A small body, kept in memory up to a limit.
final class MemorySink: BodySink, @unchecked Sendable {
    let limit: Int
    var data = Data()
    var overflowed = false
    init(limit: Int) { self.limit = limit }

    override func write(_ chunk: Data) -> Bool {
        guard data.count + chunk.count <= limit else {
            overflowed = true
            return false
        }
        data.append(chunk)
        return true
    }
}

/// The delegate of one request: hands the body to its sink as it comes.
///
/// Invariant: its state is touched only on the session's serial delegate
/// queue until `done` is signalled, and read by the waiting thread after.
final class TaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let sink: BodySink
    let expectedOffset: Int64
    let done = DispatchSemaphore(value: 0)
    var status = 0
    var headers: [AnyHashable: Any] = [:]
    var error: (any Error)?
    private var writing = false
    private var challenged = false

    init(sink: BodySink, expectedOffset: Int64) {
        self.sink = sink
        self.expectedOffset = expectedOffset
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        status = http?.statusCode ?? 0
        headers = http?.allHeaderFields ?? [:]
        guard status == 200 || status == 206 else {
            completionHandler(.allow)  // the (small) error body is read and dropped
            return
        }
        var start: Int64?
        if status == 206, let range = http?.value(forHTTPHeaderField: "Content-Range") {
            // "bytes 100-999/1000"
            let numbers = range.drop(while: { !$0.isNumber }).prefix(while: \.isNumber)
            start = Int64(numbers)
        }
        writing = sink.begin(status: status, contentRangeStart: start)
        completionHandler(writing ? .allow : .cancel)
    }

    /// A 401's challenge (the credentials, when there are any, went in the
    /// request's header and were refused): the request ends as a 401.
    /// (FoundationNetworking waits forever on a 401 left to its default
    /// handling without a credential store.)
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
        challenged = true
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// A redirect keeps the credentials only on the same scheme, host and
    /// port: they are never sent to another server.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        var next = request
        let from = task.originalRequest?.url
        if next.url?.scheme != from?.scheme || next.url?.host != from?.host || next.url?.port != from?.port {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(next)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard writing else { return }
        if !sink.write(data) {
            writing = false
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // A cancel of our own (a refused range, a full sink) is no transport error.
        if let error, !challenged, (error as NSError).code != NSURLErrorCancelled || sink.failure != nil {
            self.error = error
        }
        done.signal()
    }
}
