import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// What every answer carries beyond its own fields, whichever path writes
/// it: `Date`, `Server`, and a request id in the request's log lines
/// (`hb.request.id`).
///
/// Hummingbird's application adds them to each answer of the router
/// (`ApplicationProtocol.run`: its `Date` cache, the configuration's
/// `serverName`, a `RequestID` in the request's logger). The event loop's
/// answers (`EventLoopReadHandler`) never reach that code, and Hummingbird
/// keeps its date cache and date format internal, so they are written
/// here, the same way; the server's name and the request id's key are the
/// ones both paths use. One writer for both paths would mean replacing
/// `ApplicationProtocol.run`, which writes the router's headers after any
/// middleware has run; instead `servesOnAFreePortAndStopsOnSIGTERM`
/// (ServerProcessTests) checks that both paths' `Date` and `Server` agree.
struct ServerHeaders {
    /// The `Server` header of both paths (Hummingbird's `serverName` for
    /// the router's).
    static let serverName = "epf-server"
    /// The log metadata key of a request's id, Hummingbird's.
    static let requestIDKey = "hb.request.id"

    private var date = HTTPDate()

    /// Adds `Date` (formatted again only when the second changes) and
    /// `Server` to `head`, as Hummingbird adds them to the router's.
    mutating func stamp(_ head: inout HTTPResponse) {
        head.headerFields[.date] = date.now
        head.headerFields[.server] = Self.serverName
    }

    /// Gives the request an id, Hummingbird's kind (`RequestID`), in both
    /// loggers' metadata; only when one of them logs at `info`, as the id
    /// costs a string that no line would show otherwise.
    static func identify(_ logger: inout Logger, _ accessLog: inout Logger) {
        guard logger.logLevel <= .info || accessLog.logLevel <= .info else { return }
        let id: Logger.Metadata.Value = "\(RequestID())"
        logger[metadataKey: requestIDKey] = id
        accessLog[metadataKey: requestIDKey] = id
    }
}

/// The `Date` header's value (`Wed, 25 Nov 2026 01:12:38 GMT`, RFC 9110's
/// IMF-fixdate), formatted again only when the second changes.
private struct HTTPDate {
    private var second: time_t = -1
    private var text = ""

    /// Now, to the second.
    var now: String {
        mutating get {
            let current = time(nil)
            if current != second {
                second = current
                text = Self.format(current)
            }
            return text
        }
    }

    static func format(_ time: time_t) -> String {
        var t = time
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
