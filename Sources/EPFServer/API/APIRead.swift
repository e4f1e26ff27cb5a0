import EPFCatalogRead
import Logging
import NIOCore

/// How a read of the API (`/lookup`, `/search`) is answered, whichever
/// path takes it: the router's (`CatalogServer.router`, a Swift task) or
/// the event loop's (`EventLoopReadHandler`). One function, `answer`, from
/// the request's query to its `APIAnswer`, so that a change to what the
/// API answers is made once; the paths differ only in how they wait for a
/// read on the pool's threads.
enum APIRead {
    /// One of the API's reads, as the route table holds it
    /// (`CatalogRoute.init(_:reads:)`): its request type, which checks a
    /// query's parameters and holds the read (`APIQuery`).
    struct Kind: Sendable {
        /// The query's read, or its 400; made where the request type is
        /// known, so that it is specialized for it.
        fileprivate let prepare: @Sendable (_ query: String?) -> Answering

        init<Query: APIQuery>(_: Query.Type) {
            prepare = { APIRead.prepare(Query.self, query: $0) }
        }
    }

    /// The read of a request whose parameters are good, and its callback.
    struct Ready: Sendable {
        let read: @Sendable (any CatalogReader) throws(CatalogError) -> Result<[UInt8], APIError>
        let callback: String?

        /// The answer to the read's outcome.
        func answer(_ outcome: Result<Result<[UInt8], APIError>, ReadFailure>, logger: Logger) -> APIAnswer {
            switch outcome {
            case .success(.success(let json)): APIResponse.results(json, callback: callback)
            case .success(.failure(let refusal)): APIResponse.error(refusal)
            case .failure(let failure): unavailable(failure, logger: logger)
            }
        }

        /// The answer once the read is done on the pool's threads, awaited:
        /// the router's path.
        func awaitAnswer(pool: ReaderPool, logger: Logger) async -> APIAnswer {
            do throws(ReadFailure) {
                return answer(.success(try await pool.read(read)), logger: logger)
            } catch {
                return answer(.failure(error), logger: logger)
            }
        }

        /// The answer once the read is done on the pool's threads, on
        /// `eventLoop`: the event loop's path, which serves its other
        /// connections meanwhile.
        func futureAnswer(pool: ReaderPool, logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<APIAnswer> {
            pool.read(on: eventLoop, read).map { answer($0, logger: logger) }
        }
    }

    /// A request's answer, or the read it waits for.
    enum Answering {
        /// Answered already: a bad parameter's 400, or a read done in
        /// place (SQLite).
        case answered(APIAnswer)
        /// A read for the pool's threads (PostgreSQL), which each path
        /// waits for its own way (`Ready.awaitAnswer`,
        /// `Ready.futureAnswer`).
        case reading(Ready)
    }

    /// The answer to a request for `kind` with `query`, for both paths: a
    /// 400 for a bad parameter; else the answer of a read here, on this
    /// thread, when the pool reads in place (SQLite: a task's thread or the
    /// event loop; a read is a few tens of microseconds of CPU), or the
    /// read to run on the pool's threads (PostgreSQL, which waits on the
    /// network).
    static func answer(_ kind: Kind, query: String?, pool: ReaderPool, logger: Logger) -> Answering {
        let answering = kind.prepare(query)
        guard case .reading(let ready) = answering, pool.readsInPlace else { return answering }
        do throws(ReadFailure) {
            return .answered(ready.answer(.success(try pool.readHere(ready.read)), logger: logger))
        } catch {
            return .answered(ready.answer(.failure(error), logger: logger))
        }
    }

    /// The request's read, or its answer already (a 400 for a bad
    /// parameter).
    private static func prepare<Query: APIQuery>(_: Query.Type, query text: String?) -> Answering {
        let query: Query
        do throws(APIError) {
            query = try Query(try parameters(text))
        } catch {
            return .answered(APIResponse.error(error))
        }
        return .reading(Ready(read: reading(query), callback: query.callback))
    }

    /// The read of `query`: its answer's JSON; Apple's 400 `[country]` when
    /// the catalog has no such storefront (a 400 that says so when the
    /// catalog was imported without it), or the 400 of a value the read
    /// refuses.
    private static func reading<Query: APIQuery>(_ query: Query)
        -> @Sendable (any CatalogReader) throws(CatalogError) -> Result<[UInt8], APIError>
    {
        { reader throws(CatalogError) in
            do throws(CatalogError) {
                return .success(try query.read(from: reader).jsonBytes())
            } catch let error where error.refusesStorefront {
                return .failure(error.kind == .usage ? .invalid("country") : APIError(status: 400, message: error.detail))
            } catch let error where error.kind == .usage {
                return .failure(.invalid(Query.readKey))
            }
        }
    }

    /// 503: the catalog could not answer (or the server is stopping); the
    /// cause goes to the log, not to the client.
    static func unavailable(_ failure: ReadFailure, logger: Logger) -> APIAnswer {
        let message: String
        switch failure {
        case .catalog(let error):
            logger.error("the catalog cannot be read", metadata: ["error": "\(error)"])
            message = "The catalog cannot be read (\(error.kind.rawValue)); try again later"
        case .stopped:
            message = "The server is shutting down"
        }
        return APIResponse.object(["errorMessage": message], status: .serviceUnavailable)
    }

    /// The parameters of a request's query; 400 for a parameter that is
    /// not well percent-encoded.
    private static func parameters(_ query: String?) throws(APIError) -> QueryParameters {
        do {
            return try QueryParameters(query: query)
        } catch {
            throw .invalid(error.name)
        }
    }
}
