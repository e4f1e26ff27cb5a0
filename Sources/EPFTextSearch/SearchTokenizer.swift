import CSQLite
import EPFCatalog

/// The tokens the search index holds for a text, cut by SQLite's own FTS5
/// tokenizer (`unicode61 remove_diacritics 2`, the one `SearchIndex`
/// declares) through FTS5's C API, after `SearchText` spacing.
///
/// Why SQLite's tokenizer and not PostgreSQL's parser: a store that keeps
/// its search index elsewhere (the PostgreSQL store's `tsvector` column)
/// must cut and fold words exactly as the SQLite index does, or the two
/// catalogs answer a search differently. PostgreSQL's text-search parser
/// makes one token of `2.0`, `foo-bar` (and its parts), e-mail addresses
/// and paths; its `lower()` and its notion of a letter follow the
/// database's locale (in the C locale, `É` stays `É` and every non-ASCII
/// character is a letter); and folding diacritics needs the `unaccent`
/// extension, whose rules are not `remove_diacritics 2`'s. Cutting in
/// Swift with the same C code as the SQLite index gives the same tokens
/// for the same text, whatever the server's locale or extensions.
///
/// Not thread-safe (the tokenizer keeps a buffer): one per thread.
package final class SearchTokenizer {
    private let connection: OpaquePointer
    private let module: fts5_tokenizer
    private let instance: OpaquePointer

    /// The longest token kept, in bytes: PostgreSQL's limit for a
    /// `tsvector` lexeme is 2047 bytes. Longer tokens (a run of 2048
    /// letters without a space) are cut at a character boundary, on the
    /// indexed side and the query side alike.
    package static let maximumTokenBytes = 2047

    package init() throws(CatalogError) {
        var handle: OpaquePointer?
        SQLiteLibrary.configured
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw CatalogError(.failed, detail: "SQLite could not open an in-memory database for the search tokenizer", hint: "")
        }
        connection = handle
        var api: UnsafeMutablePointer<fts5_api>?
        var statement: OpaquePointer?
        if sqlite3_prepare_v2(handle, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK {
            withUnsafeMutablePointer(to: &api) { pointer in
                sqlite3_bind_pointer(statement, 1, pointer, "fts5_api_ptr", nil)
                _ = sqlite3_step(statement)
            }
        }
        sqlite3_finalize(statement)
        var module = fts5_tokenizer()
        var context: UnsafeMutableRawPointer?
        guard let api, api.pointee.xFindTokenizer(api, "unicode61", &context, &module) == SQLITE_OK, let create = module.xCreate else {
            sqlite3_close_v2(handle)
            throw CatalogError(.incompatible, detail: "this SQLite has no FTS5 unicode61 tokenizer", hint: "Use a SQLite built with FTS5")
        }
        var made: OpaquePointer?
        let code = "remove_diacritics".withCString { name in
            "2".withCString { value in
                var arguments: [UnsafePointer<CChar>?] = [name, value]
                return arguments.withUnsafeMutableBufferPointer { create(context, $0.baseAddress, Int32($0.count), &made) }
            }
        }
        guard code == SQLITE_OK, let made else {
            sqlite3_close_v2(handle)
            throw CatalogError(.failed, detail: "SQLite could not create the unicode61 tokenizer (code \(code))", hint: "")
        }
        self.module = module
        instance = made
    }

    deinit {
        module.xDelete?(instance)
        sqlite3_close_v2(connection)
    }

    /// The tokens of `text` as the index holds them: spaced by `SearchText`,
    /// cut and folded by `unicode61 remove_diacritics 2`, in order (a word
    /// repeated is repeated).
    package func tokens(_ text: String) -> [String] {
        tokenize(SearchText.prepare(text))
    }

    /// The words of a search, each as its tokens (`象棋` is `["象", "棋"]`,
    /// `foo-bar` is `["foo", "bar"]`: a phrase), the same words
    /// `SearchQuery.matchExpression` quotes for FTS5. Nil when the search
    /// finds nothing: no word to search for, or a word FTS5 would make an
    /// empty phrase of (which matches nothing).
    package func queryWords(_ text: String) -> [[String]]? {
        var words: [[String]] = []
        for word in text.split(whereSeparator: \.isWhitespace) {
            let prepared = SearchText.prepare(String(word))
            guard prepared.unicodeScalars.contains(where: SearchQuery.isTokenCharacter) else { continue }
            let tokens = tokenize(prepared)
            guard !tokens.isEmpty else { return nil }
            words.append(tokens)
        }
        return words.isEmpty ? nil : words
    }

    /// `text` (already spaced) cut into tokens.
    private func tokenize(_ text: String) -> [String] {
        guard let tokenize = module.xTokenize else { return [] }
        let sink = TokenSink()
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                _ = tokenize(
                    instance, Unmanaged.passUnretained(sink).toOpaque(), FTS5_TOKENIZE_DOCUMENT, characters, Int32(bytes.count),
                    { context, flags, token, count, _, _ in
                        guard let context, let token, count > 0, flags & FTS5_TOKEN_COLOCATED == 0 else { return SQLITE_OK }
                        let sink = Unmanaged<TokenSink>.fromOpaque(context).takeUnretainedValue()
                        sink.append(token, Int(count))
                        return SQLITE_OK
                    })
            }
        }
        return sink.tokens
    }
}

/// Collects the tokens the tokenizer's callback reports.
private final class TokenSink {
    var tokens: [String] = []

    func append(_ token: UnsafePointer<CChar>, _ count: Int) {
        token.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            var length = min(count, SearchTokenizer.maximumTokenBytes)
            // Cut before a continuation byte, never inside a character.
            while length < count && length > 0 && bytes[length] & 0xC0 == 0x80 { length -= 1 }
            tokens.append(String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self))
        }
    }
}
