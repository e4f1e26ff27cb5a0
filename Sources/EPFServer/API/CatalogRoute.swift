import Hummingbird

/// A route of the API: its path template and what answers it.
///
/// `CatalogRoute.all` is the one list of the API's routes. The router
/// (`CatalogServer.router`), the event loop's path
/// (`EventLoopReadHandler`), the `route` label of the metrics
/// (`ServerMetrics`) and the 404's text (`RequestLogMiddleware`) are made
/// from it, and docs/openapi.yaml describes each of its routes (the tests
/// check both ways). A new route is an entry there and its handler.
///
/// `/metrics` is not one: it is neither guarded, nor counted, nor named in
/// the 404, and it may be served on a port of its own
/// (`CatalogServer.metricsApplication`).
package struct CatalogRoute: Sendable {
    /// The path, as docs/openapi.yaml writes it; also the route's label in
    /// the metrics.
    package let template: RouteTemplate
    let answerer: Answerer

    /// What answers a route's requests.
    enum Answerer: Sendable {
        /// One of the API's reads (`APIRead`): answered on the event loop
        /// when `ServerSettings.readsOnEventLoops`, else by the router; the
        /// same answer either way.
        case read(APIRead.Kind)
        /// A handler of the router's, with the pool and the settings.
        case router(@Sendable (Request, BasicRequestContext, ReaderPool, ServerSettings) async -> Response)
    }

    /// A route of one of the API's reads: `Query` checks its parameters
    /// and holds the read (`APIQuery`). Its template has no parameter, as
    /// the read takes only the query string; the event loop's path
    /// compares a request's path with it whole.
    init<Query: APIQuery>(_ template: String, reads _: Query.Type) {
        self.template = RouteTemplate(template)
        answerer = .read(APIRead.Kind(Query.self))
        precondition(!self.template.hasParameters, "a read's route has no path parameter: \(template)")
    }

    /// A route the router answers with `handler`.
    init(_ template: String, handler: @escaping @Sendable (Request, BasicRequestContext, ReaderPool, ServerSettings) async -> Response) {
        self.template = RouteTemplate(template)
        answerer = .router(handler)
    }

    /// The routes, in the order the 404's text and the metrics list them.
    package static let all: [CatalogRoute] = [
        CatalogRoute("/lookup", reads: LookupRequest.self),
        CatalogRoute("/search", reads: SearchRequest.self),
        CatalogRoute("/health") { _, context, pool, settings in
            await CatalogServer.health(pool: pool, catalog: settings.location.displayName, context: context)
        },
        CatalogRoute("/api/v2/{country}/apps/{chart}/{limit}/apps.json") { request, context, pool, _ in
            await ChartRoute.answer(request, context: context, genre: nil, pool: pool).response
        },
        CatalogRoute("/api/v2/{country}/apps/{chart}/{limit}/genre/{genre}.json") { request, context, pool, _ in
            await ChartRoute.answer(request, context: context, genre: context.parameters.get("genre") ?? "", pool: pool).response
        },
    ]

    /// The route the router takes `path` for (the first that matches), nil
    /// for a path it answers 404: the route a request counts under in the
    /// metrics, whatever its method.
    static func matching(_ path: String) -> CatalogRoute? {
        all.first { $0.template.matches(path) }
    }

    /// The read route whose path is `path` exactly, nil for a path the
    /// event loop's path leaves to the router.
    static func eventLoopRead(_ path: String) -> (route: CatalogRoute, read: APIRead.Kind)? {
        for route in all {
            if case .read(let read) = route.answerer, route.template.text == path { return (route, read) }
        }
        return nil
    }

    /// The answer to `request`, on the router's path.
    func respond(to request: Request, context: BasicRequestContext, pool: ReaderPool, settings: ServerSettings) async -> Response {
        switch answerer {
        case .read(let read):
            switch APIRead.answer(read, query: request.uri.query, pool: pool, logger: context.logger) {
            case .answered(let answer): return answer.response
            case .reading(let ready): return await ready.awaitAnswer(pool: pool, logger: context.logger).response
            }
        case .router(let handler):
            return await handler(request, context, pool, settings)
        }
    }
}
