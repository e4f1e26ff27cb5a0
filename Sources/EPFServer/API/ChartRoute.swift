import EPFCatalogRead
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The App Store's top charts in the shape of Apple's RSS feed generator,
/// so that its clients change only the base URL:
/// `/api/v2/{country}/apps/{chart}/{limit}/apps.json` (the whole store's
/// chart) and `/api/v2/{country}/apps/{chart}/{limit}/genre/{genreId}.json`,
/// with `chart` `top-free` or `top-paid` and `limit` 10, 25, 50 or 100, as
/// Apple serves them. Made from the popularity feed (`Catalog.chart`): not
/// Apple's live charts; `updated` is the feed's day. Its two routes are in
/// `CatalogRoute.all`, answered by the router.
enum ChartRoute {
    /// A chart's JSON, or the error of a bad value (400), of a catalog
    /// without charts (404), or of a catalog that cannot be read (503).
    static func answer(_ request: Request, context: BasicRequestContext, genre genreText: String?, pool: ReaderPool) async
        -> APIAnswer
    {
        let country = context.parameters.get("country") ?? ""
        guard let kind = ChartKind(rawValue: context.parameters.get("chart") ?? "") else {
            return error(.badRequest, "chart", "The chart must be \(ChartKind.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        guard let text = context.parameters.get("limit"), text.allSatisfy(\.isASCIIDigit), let limit = Int(text),
            AppChart.lengths.contains(limit),
            !text.hasPrefix("0")
        else {
            return error(.badRequest, "limit", "The limit must be one of \(AppChart.lengths.map(String.init).joined(separator: ", "))")
        }
        let genre: Int64
        if let genreText {
            let digits = genreText.dropLast(5)
            guard genreText.hasSuffix(".json"), !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let id = Int64(digits), id > 0 else {
                return error(.badRequest, "genre", "The genre must be a genre ID, as genre/6014.json")
            }
            genre = id
        } else {
            genre = AppChart.overallGenre
        }
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
            return error(.badRequest, "country", "The country must be an ISO 3166 alpha-2 code, as us")
        }
        let feedURL = "http://\(request.head.authority ?? "localhost")\(request.uri.path)"
        do throws(ReadFailure) {
            let json = try await pool.read { reader throws(CatalogError) in
                try reader.chart(kind, inCountry: country, genre: genre, limit: limit, language: nil).jsonBytes(feedURL: feedURL)
            }
            var body = ByteBuffer()
            body.writeBytes(json)
            body.writeBytes([0x0A])
            return APIAnswer(status: .ok, body: body, contentType: contentType)
        } catch {
            switch error {
            case .catalog(let refusal) where refusal.refusesStorefront || refusal.kind == .usage:
                return Self.error(.badRequest, "country", refusal.detail)
            case .catalog(let refusal) where refusal.kind == .notFound:
                return Self.error(.notFound, "catalog", "\(refusal.detail): \(refusal.hint)")
            default:
                var answer = APIRead.unavailable(error, logger: context.logger)
                answer.contentType = contentType
                return answer
            }
        }
    }

    /// The charts' content type, as Apple's feed generator sends it.
    static let contentType = "application/json; charset=utf-8"

    /// `{"errors": [{"status", "code", "title", "detail", "source": {"parameter"}}]}`:
    /// the error shape of Apple's JSON APIs.
    static func error(_ status: HTTPResponse.Status, _ parameter: String, _ detail: String) -> APIAnswer {
        let member: [String: any Sendable] = [
            "status": String(status.code), "code": "\(status.code)00", "title": status.reasonPhrase, "detail": detail,
            "source": ["parameter": parameter],
        ]
        var answer = APIResponse.object(["errors": [member]], status: status)
        answer.contentType = contentType
        return answer
    }
}

extension Character {
    /// `0` to `9`, and nothing else (`Int("+10")` is 10).
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
