import EPFCatalogRead

/// The search index of a PostgreSQL catalog: what `epf search` reads there,
/// built and kept by the store as it loads `application`.
///
/// The index of `application` is the table `epf_search_application`:
///
/// ```sql
/// CREATE TABLE epf_search_application (
///     application_id BIGINT NOT NULL,   -- the key (unique)
///     seq BIGINT NOT NULL,              -- the row's place in the table
///     sort_key BIGINT NOT NULL,         -- SearchOrder.key(title)
///     words tsvector);                  -- the title's tokens, NULL without one
/// -- GIN (words), btree (sort_key, seq), unique (application_id)
/// COMMENT ON TABLE epf_search_application IS 'epf search v1';
/// ```
///
/// Choices, and why:
/// - The tokens are cut in Swift by the rules of SQLite's own tokenizer
///   (`SearchTokenizer`: `SearchText` spacing, then `unicode61
///   remove_diacritics 2`), written as a `tsvector` literal with positions
///   (`'chess':1 'pro':2`), and queried with a `tsquery` built the same
///   way (`'chess':* & 'pro':*`; a CJK word is a phrase, `'象' <-> '棋'`).
///   Neither side goes through PostgreSQL's text-search parser or a
///   dictionary, so the tokens are exactly the SQLite index's: case and
///   diacritics folded the same way (`Café` is `cafe`), `2.0` two tokens,
///   whatever the database's locale, with no extension. (`unaccent` ships
///   with Debian's postgresql-15 and is a trusted extension a database
///   owner may create, but its folding is not `remove_diacritics 2`'s,
///   and `to_tsvector('simple', ...)` lower-cases and cuts by the locale;
///   `pg_trgm` matches substrings, not words and their beginnings.)
/// - Order: `sort_key` is the key the SQLite index orders by (fewer words,
///   then fewer bytes: `SearchOrder`), `seq` the row's place as SQLite's
///   rowid gives it (a FULL file's record number; an INCREMENTAL file's new
///   rows after every row there, in file order; an updated row keeps its
///   place), so ties come out in the same order as in SQLite. A search asks
///   `ORDER BY sort_key, seq LIMIT n`: for a word in many titles the planner
///   walks the btree in order and stops after `n` matches; for a rare word
///   it takes the GIN matches and sorts only them. No match is scored.
/// - A table of its own, not columns of `application`: a FULL load builds
///   it from the staging table (beside the key, before `epf_record` is
///   dropped) and the swap renames it into place with its table; an
///   INCREMENTAL apply re-indexes only the rows the file names. `epf_`
///   tables are the importer's, so `epf tables` does not list it.
/// - The declaration's version is the table's comment: a reader refuses an
///   index of another version, and the next apply of `application`
///   rebuilds it.
///
/// Here is what readers use (the version, the `tsquery`); building and
/// keeping the index is the store's (EPFPostgres,
/// `PostgresSearchIndex+Build.swift`).
package enum PostgresSearchIndex {
    /// Raise when the tokens, the order or the table change.
    static let version = 1
    package static let marker = "epf search v\(version)"

    /// Whether the search table `name` exists and is of this version.
    package static func isCurrent(_ name: String, on connection: PostgresConnection) throws(PostgresError) -> Bool {
        try connection.scalar("SELECT obj_description(to_regclass($1), 'pg_class')", [quoteIdentifier(name)]) == marker
    }

    // MARK: Text

    /// The `tsquery` of a search's words (`SearchTokenizer.queryWords`):
    /// every word, each a phrase of its tokens, the last token of each a
    /// prefix when `prefix`.
    static func query(_ words: [[String]], prefix: Bool) -> String {
        words.map { tokens in
            "("
                + tokens.enumerated().map { index, token in
                    lexeme(token) + (prefix && index == tokens.count - 1 ? ":*" : "")
                }.joined(separator: " <-> ") + ")"
        }.joined(separator: " & ")
    }

    /// A quoted lexeme of `tsvector`/`tsquery` input: `'` doubled, `\`
    /// escaped.
    package static func lexeme(_ token: String) -> String {
        var quoted = "'"
        for character in token {
            if character == "'" { quoted += "''" } else if character == "\\" { quoted += "\\\\" } else { quoted.append(character) }
        }
        return quoted + "'"
    }
}
