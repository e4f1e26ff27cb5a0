import EPFCatalogRead
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A response of the API, before either path sends it: the router's
/// (`response`, a Hummingbird `Response`) or the event loop's
/// (`EventLoopReadHandler`, HTTP parts). Its body is in one buffer, so that
/// both send `Content-Length`, never chunks.
package struct APIAnswer: Sendable {
    package var status: HTTPResponse.Status
    package var body: ByteBuffer
    /// Headers beyond the content type and length (`Allow`, `Retry-After`).
    package var extraHeaders: HTTPFields = [:]
    /// The body's type: the Search API's (`APIResponse.contentType`), or
    /// JSON's for the charts.
    package var contentType = APIResponse.contentType

    package init(
        status: HTTPResponse.Status, body: ByteBuffer, extraHeaders: HTTPFields = [:], contentType: String = APIResponse.contentType
    ) {
        self.status = status
        self.body = body
        self.extraHeaders = extraHeaders
        self.contentType = contentType
    }

    /// The header fields: the content type, the length, the extras.
    package var headerFields: HTTPFields {
        var fields: HTTPFields = [.contentType: contentType, .contentLength: String(body.readableBytes)]
        fields.append(contentsOf: extraHeaders)
        return fields
    }

    /// As Hummingbird's router answers.
    package var response: Response {
        Response(status: status, headers: headerFields, body: ResponseBody(byteBuffer: body))
    }
}

/// The bodies the API answers with, all as Apple sends them:
/// `text/javascript; charset=utf-8`, JSON or JSONP alike.
package enum APIResponse {
    /// Apple's content type, for JSON too.
    package static let contentType = "text/javascript; charset=utf-8"

    /// A response's JSON, or JSONP when `callback` is given.
    package static func results(_ json: [UInt8], callback: String?) -> APIAnswer {
        if let callback { return answer(JSONP.wrap(json, in: callback), status: .ok) }
        return answer(json, newline, status: .ok)
    }

    /// `{"resultCount":0,"results":[]}`.
    package static func empty(callback: String?) -> APIAnswer {
        results(SearchResponse(results: []).jsonBytes(), callback: callback)
    }

    /// `{"errorMessage": ..., "queryParameters": {...}}` with the error's
    /// status. `queryParameters` is what Apple's errors carry: the API's
    /// parameters, each with what it takes.
    package static func error(_ error: APIError) -> APIAnswer {
        object(["errorMessage": error.message, "queryParameters": queryParameterHelp], status: HTTPResponse.Status(code: error.status))
    }

    /// A small JSON object (strings, nulls, objects), keys sorted, for
    /// `/health` and the errors; results are `SearchResponse.jsonBytes()`.
    package static func object(_ members: [String: any Sendable], status: HTTPResponse.Status) -> APIAnswer {
        let data =
            (try? JSONSerialization.data(withJSONObject: members, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return answer(Array(data), newline, status: status)
    }

    private static let newline: [UInt8] = [0x0A]

    /// A body of `parts`, copied once, into the response's buffer (a
    /// lookup's JSON is not copied again to append its newline).
    private static func answer(_ parts: [UInt8]..., status: HTTPResponse.Status) -> APIAnswer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { buffer.writeBytes(part) }
        return APIAnswer(status: status, body: buffer)
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
