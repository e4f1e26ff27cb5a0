import EPFCatalog
import Foundation
import Hummingbird

/// The bodies the API answers with, all as Apple sends them:
/// `text/javascript; charset=utf-8`, JSON or JSONP alike.
package enum APIResponse {
    /// Apple's content type, for JSON too.
    package static let contentType = "text/javascript; charset=utf-8"

    /// A response's JSON, or JSONP when `callback` is given.
    package static func results(_ json: [UInt8], callback: String?) -> Response {
        if let callback { return body(JSONP.wrap(json, in: callback), status: .ok) }
        return body(json, newline, status: .ok)
    }

    /// `{"resultCount":0,"results":[]}`.
    package static func empty(callback: String?) -> Response {
        results(SearchResponse(results: []).jsonBytes(), callback: callback)
    }

    /// `{"errorMessage": ..., "queryParameters": {...}}` with the error's
    /// status. `queryParameters` is what Apple's errors carry: the API's
    /// parameters, each with what it takes.
    package static func error(_ error: APIError) -> Response {
        object(["errorMessage": error.message, "queryParameters": queryParameterHelp], status: HTTPResponse.Status(code: error.status))
    }

    /// A small JSON object (strings, nulls, objects), keys sorted, for
    /// `/health` and the errors; results are `SearchResponse.jsonBytes()`.
    package static func object(_ members: [String: any Sendable], status: HTTPResponse.Status) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return body(Array(data), newline, status: status)
    }

    private static let newline: [UInt8] = [0x0A]

    /// A body of `parts`, copied once, into the response's buffer (a
    /// lookup's JSON is not copied again to append its newline).
    private static func body(_ parts: [UInt8]..., status: HTTPResponse.Status) -> Response {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { buffer.writeBytes(part) }
        return Response(
            status: status, headers: [.contentType: contentType, .contentLength: String(buffer.readableBytes)],
            body: ResponseBody(byteBuffer: buffer))
    }

    /// The parameters Apple's error body lists, with its descriptions.
    private static let queryParameterHelp = [
        "output": "json",
        "callback": "A javascript function to handle your search results",
        "country": "ISO-2A country code",
        "limit": "The number of search results to return",
        "term": "A search string",
        "lang": "ISO-2A language code",
    ]
}

/// JSONP: a response as a call of the client's function.
package enum JSONP {
    /// `\n\nname({...});`, as Apple wraps it.
    package static func wrap(_ json: [UInt8], in name: String) -> [UInt8] {
        Array("\n\n\(name)(".utf8) + json + Array(");".utf8)
    }

    /// Whether `name` is safe to send back as a function name: letters,
    /// digits, `_`, `$` and `.`, not starting with a digit or `.`, at most
    /// `RequestLimits.maxCallbackBytes` bytes.
    package static func isSafeName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= RequestLimits.maxCallbackBytes else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
        }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        return isLetter(first) && bytes.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: ".") }
    }
}
