import CSQLite

/// SQLite's own FTS5 tokenizer `unicode61 remove_diacritics 2` (the one the
/// SQLite catalog's search index declares), through FTS5's C API: what the
/// product's Swift copy of it (EPFTextSearch's `Unicode61`) is held to.
///
/// Not thread-safe (the tokenizer keeps a buffer): one per thread.
public final class SQLiteUnicode61 {
    private let connection: OpaquePointer
    private let module: fts5_tokenizer
    private let instance: OpaquePointer

    /// The tokenizer, from an in-memory database of its own.
    public init() throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw RawSQLiteError(description: "SQLite could not open an in-memory database for the tokenizer")
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
            throw RawSQLiteError(description: "this SQLite has no FTS5 unicode61 tokenizer")
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
            throw RawSQLiteError(description: "SQLite could not create the unicode61 tokenizer (code \(code))")
        }
        self.module = module
        instance = made
    }

    deinit {
        module.xDelete?(instance)
        sqlite3_close_v2(connection)
    }

    /// The tokens of `text`, as the index holds them: in order, whole,
    /// none empty.
    public func tokens(_ text: String) -> [String] {
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
                        sink.tokens.append(
                            token.withMemoryRebound(to: UInt8.self, capacity: Int(count)) {
                                String(decoding: UnsafeBufferPointer(start: $0, count: Int(count)), as: UTF8.self)
                            })
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
}
