import EPFCatalogRead

/// A request the API refuses, in Apple's words.
package struct APIError: Error, Sendable, Equatable {
    /// The HTTP status.
    package var status: Int
    /// `errorMessage` of the JSON body.
    package var message: String

    package init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    /// Apple's 400 for bad values: `Invalid value(s) for key(s): [country]`,
    /// naming the key as Apple's error does (`mediaType` for `media`,
    /// `resultEntity` for `entity`, `language` for `lang`).
    package static func invalid(_ key: String) -> APIError {
        APIError(status: 400, message: "Invalid value(s) for key(s): [\(key)]")
    }
}

/// A request of the API, its parameters checked, and the read that
/// answers it.
package protocol APIQuery: Sendable {
    /// Checks the parameters; throws Apple's 400 for the first bad one.
    init(_ query: QueryParameters) throws(APIError)
    /// `country`, nil for the United States.
    var country: String? { get }
    /// `callback`: a JSONP function name.
    var callback: String? { get }
    /// The key a 400 names when the read itself refuses the request.
    static var readKey: String { get }
    /// The answer in the storefront of `country`, read with `reader` (one
    /// connection, this thread only). A refused storefront throws an error
    /// that says so (`CatalogError.refusesStorefront`).
    func read(from reader: any CatalogReader) throws(CatalogError) -> SearchResponse
}

/// A `/lookup` request, its parameters checked.
package struct LookupRequest: APIQuery, Equatable {
    /// The Apple IDs asked for, in order: `id`, then the one of `url`.
    package var ids: [Int64] = []
    /// `bundleId`: EPF has no bundle identifier column, so these find
    /// nothing.
    package var bundleIDs: [String] = []
    /// `country`, or the storefront of the `url` (`/jp/`), or nil (US).
    package var country: String?
    package var language: Language?
    /// `callback`: a JSONP function name.
    package var callback: String?

    package init(_ query: QueryParameters) throws(APIError) {
        if let text = query["id"] {
            for part in text.split(separator: ",", omittingEmptySubsequences: true) {
                guard let id = Int64(String(part).trimmingWhitespace), id > 0 else { throw .invalid("id") }
                ids.append(id)
            }
        }
        if let text = query["bundleId"] {
            bundleIDs = text.split(separator: ",", omittingEmptySubsequences: true).map { String($0).trimmingWhitespace }
        }
        country = query["country"]
        if let link = query["url"] {
            guard let id = try? ProductLink.appleID(from: link) else { throw .invalid("url") }
            ids.append(id)
            if country == nil { country = Self.storefront(of: link) }
        }
        guard !ids.isEmpty || !bundleIDs.isEmpty else { throw .invalid("id") }
        guard ids.count + bundleIDs.count <= RequestLimits.maxIDs else { throw .invalid("id") }
        language = try parseLanguage(query)
        // Checked as Apple checks them; a lookup by ID answers every ID.
        if query["limit"] != nil { _ = try parseLimit(query) }
        try checkEntity(query)
        callback = try parseCallback(query)
    }

    package static let readKey = "id"

    /// The storefront's row is read with the applications' (one round
    /// trip on PostgreSQL). Bundle IDs alone find nothing (EPF has no
    /// bundle identifier), once the country is known.
    package func read(from reader: any CatalogReader) throws(CatalogError) -> SearchResponse {
        try reader.lookup(ids: ids, inCountry: country, language: language)
    }

    /// The storefront a product link names: `jp` in
    /// `https://apps.apple.com/jp/app/name/id364709193`.
    static func storefront(of link: String) -> String? {
        guard let host = link.range(of: "apple.com/") else { return nil }
        let segment = link[host.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard segment.count == 2, segment.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return String(segment)
    }
}

/// A `/search` request, its parameters checked.
package struct SearchRequest: APIQuery, Equatable {
    package var term: String
    package var country: String?
    package var language: Language?
    /// `media`: false for a medium that is not software (an empty answer).
    package var findsSoftware: Bool
    package var entity: SoftwareEntity?
    package var limit: Int
    package var offset: Int
    package var callback: String?

    package init(_ query: QueryParameters) throws(APIError) {
        guard let term = query["term"], !term.allSatisfy(\.isWhitespace), term.utf8.count <= RequestLimits.maxTermBytes,
            term.split(whereSeparator: \.isWhitespace).count <= RequestLimits.maxTermWords
        else { throw .invalid("term") }
        self.term = term
        country = query["country"]
        language = try parseLanguage(query)
        let media = query["media"] ?? "all"
        guard AppleMedia.all.contains(media) else { throw .invalid("mediaType") }
        findsSoftware = AppleMedia.findsSoftware(media)
        entity = try checkEntity(query)
        limit = try parseLimit(query)
        if let text = query["offset"] {
            guard let offset = Int(text), offset >= 0 else { throw .invalid("offset") }
            self.offset = offset
        } else {
            offset = 0
        }
        if let explicit = query["explicit"] {
            // Apple's Yes/No; EPF holds no explicitness to filter by.
            guard ["yes", "no"].contains(explicit.lowercased()) else { throw .invalid("explicit") }
        }
        callback = try parseCallback(query)
    }

    package static let readKey = "term"

    /// The storefront is found by the page itself and its row read with
    /// the results' (a round trip less on PostgreSQL). Media other than
    /// software find nothing, once the country is known.
    package func read(from reader: any CatalogReader) throws(CatalogError) -> SearchResponse {
        guard findsSoftware else {
            _ = try reader.storefront(for: country)
            return SearchResponse(results: [])
        }
        return try reader.search(term: term, inCountry: country, language: language, entity: entity, limit: limit, offset: offset)
    }
}

/// `lang`: Apple's language code (`en_us`, `ja_jp`).
private func parseLanguage(_ query: QueryParameters) throws(APIError) -> Language? {
    guard let text = query["lang"] else { return nil }
    guard let language = try? Language(text) else { throw .invalid("language") }
    return language
}

/// `limit`: 1 or more; more than Apple's 200 is lowered to 200.
private func parseLimit(_ query: QueryParameters) throws(APIError) -> Int {
    guard let text = query["limit"] else { return RequestLimits.defaultLimit }
    guard let limit = Int(text), limit > 0 else { throw .invalid("limit") }
    return min(limit, RequestLimits.maxLimit)
}

/// `entity`: one of the software entities (`software`, `iPadSoftware`,
/// `macSoftware`), case-insensitively.
@discardableResult
private func checkEntity(_ query: QueryParameters) throws(APIError) -> SoftwareEntity? {
    guard let text = query["entity"] else { return nil }
    guard let entity = SoftwareEntity(apiName: text) else { throw .invalid("resultEntity") }
    return entity
}

/// `callback`: a JavaScript name, dotted parts allowed
/// (`jQuery123_456`, `app.handle`).
private func parseCallback(_ query: QueryParameters) throws(APIError) -> String? {
    guard let name = query["callback"] else { return nil }
    guard JSONP.isSafeName(name) else { throw .invalid("callback") }
    return name
}
