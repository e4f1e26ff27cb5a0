/*
 * search-token-tables: writes Sources/EPFTextSearch/Unicode61Tables.swift,
 * the tables of EPFTextSearch's Swift copy of SQLite's FTS5 tokenizer
 * `unicode61 remove_diacritics 2` (the one the SQLite catalog's search
 * index declares), read off the SQLite it is linked with: every Unicode
 * scalar is put through the tokenizer, between two letters and before
 * one, and what comes out says whether the scalar is part of a token and
 * what it folds to. Not part of the product.
 *
 *   cc -O2 -o search-token-tables scripts/search-token-tables.c -lsqlite3
 *   ./search-token-tables > Sources/EPFTextSearch/Unicode61Tables.swift
 *
 * It stops with a message when the tokenizer does something the Swift copy
 * cannot say: a character that continues a token but cannot start one and
 * folds to a character (unicode61's diacritics fold to nothing), or a
 * character cut into more than two tokens. The test "unicode61 in Swift is
 * SQLite's, for every scalar" (EPFCatalogTests) checks the tables against
 * the SQLite the tests link.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fts5_tokenizer module;
static Fts5Tokenizer *tokenizer;

/* The tokens of one call, as the index would hold them (empty ones and
 * colocated ones are not held). */
typedef struct {
    int count;
    unsigned char text[4][16];
    int length[4];
} Tokens;

static int take(void *context, int flags, const char *token, int length, int start, int end) {
    Tokens *tokens = context;
    (void)start;
    (void)end;
    if (length <= 0 || (flags & FTS5_TOKEN_COLOCATED)) return SQLITE_OK;
    if (tokens->count < 4 && length <= 16) {
        memcpy(tokens->text[tokens->count], token, length);
        tokens->length[tokens->count] = length;
    }
    tokens->count++;
    return SQLITE_OK;
}

static void cut(const unsigned char *text, int length, Tokens *tokens) {
    tokens->count = 0;
    module.xTokenize(tokenizer, tokens, FTS5_TOKENIZE_DOCUMENT, (const char *)text, length, take);
}

static int encode(unsigned scalar, unsigned char *out) {
    if (scalar < 0x80) { out[0] = scalar; return 1; }
    if (scalar < 0x800) { out[0] = 0xC0 | (scalar >> 6); out[1] = 0x80 | (scalar & 63); return 2; }
    if (scalar < 0x10000) {
        out[0] = 0xE0 | (scalar >> 12); out[1] = 0x80 | ((scalar >> 6) & 63); out[2] = 0x80 | (scalar & 63);
        return 3;
    }
    out[0] = 0xF0 | (scalar >> 18); out[1] = 0x80 | ((scalar >> 12) & 63);
    out[2] = 0x80 | ((scalar >> 6) & 63); out[3] = 0x80 | (scalar & 63);
    return 4;
}

/* The one scalar `bytes` (`length` of them) encode; -1 when they are not one. */
static long decode(const unsigned char *bytes, int length) {
    unsigned char first = bytes[0];
    int expected = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4;
    if (length != expected) return -1;
    switch (expected) {
    case 1: return first;
    case 2: return ((first & 31) << 6) | (bytes[1] & 63);
    case 3: return ((first & 15) << 12) | ((bytes[1] & 63) << 6) | (bytes[2] & 63);
    default: return ((first & 7) << 18) | ((bytes[1] & 63) << 12) | ((bytes[2] & 63) << 6) | (bytes[3] & 63);
    }
}

static void fail(unsigned scalar, const char *what) {
    fprintf(stderr, "search-token-tables: U+%04X %s: the Swift tokenizer cannot copy this SQLite's unicode61\n", scalar, what);
    exit(1);
}

static unsigned runs[1 << 16], foldKeys[1 << 16], foldValues[1 << 16];

static void list(const char *name, const unsigned *values, int count) {
    printf("    static let %s: [UInt32] = [", name);
    for (int index = 0; index < count; index++) {
        printf(index % 10 == 0 ? "\n        " : " ");
        printf("0x%04X,", values[index]);
    }
    printf("\n    ]\n");
}

int main(void) {
    sqlite3 *database;
    fts5_api *api = NULL;
    sqlite3_stmt *statement;
    void *context;
    const char *arguments[] = {"remove_diacritics", "2"};
    if (sqlite3_open(":memory:", &database) != SQLITE_OK) return 1;
    if (sqlite3_prepare_v2(database, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) return 1;
    sqlite3_bind_pointer(statement, 1, &api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (!api || api->xFindTokenizer(api, "unicode61", &context, &module) != SQLITE_OK) return 1;
    if (module.xCreate(context, arguments, 2, &tokenizer) != SQLITE_OK) return 1;

    int runCount = 0, foldCount = 0, previous = -1;
    for (unsigned scalar = 0; scalar <= 0x10FFFF; scalar++) {
        if (scalar >= 0xD800 && scalar <= 0xDFFF) continue;
        unsigned char text[8];
        Tokens between, before;
        /* Between two letters: one token (a, what it folds to, b), or two. */
        int length = 0;
        text[length++] = 'a';
        length += encode(scalar, text + length);
        text[length++] = 'b';
        cut(text, length, &between);
        int isToken;
        long folded = -1; /* -1: folds to nothing */
        if (between.count == 2) {
            isToken = 0;
        } else if (between.count == 1 && between.length[0] >= 2) {
            isToken = 1;
            int middle = between.length[0] - 2;
            if (middle > 0) {
                folded = decode(between.text[0] + 1, middle);
                if (folded < 0) fail(scalar, "folds to more than one character");
            }
        } else {
            fail(scalar, "is cut into more than two tokens between two letters");
        }
        /* Before a letter: a character that folds to something must start
         * a token (unicode61's diacritics only continue one). */
        if (isToken && folded >= 0) {
            length = encode(scalar, text);
            text[length++] = 'b';
            cut(text, length, &before);
            if (before.count != 1 || before.length[0] == 1) fail(scalar, "continues a token but cannot start one");
        }
        if (isToken != previous) {
            if (runCount == (1 << 16)) fail(scalar, "ends one run too many");
            runs[runCount++] = scalar;
            previous = isToken;
        }
        if (isToken && folded != (long)scalar) {
            if (foldCount == (1 << 16)) fail(scalar, "is one fold too many");
            foldKeys[foldCount] = scalar;
            foldValues[foldCount++] = folded < 0 ? 0 : (unsigned)folded;
        }
    }
    if (runs[0] != 0 || previous < 0) fail(0, "is part of a token");

    printf("// Generated by scripts/search-token-tables.c from the FTS5 tokenizer\n");
    printf("// `unicode61 remove_diacritics 2` of SQLite %s: do not edit.\n\n", sqlite3_libversion());
    printf("extension Unicode61 {\n");
    printf("    /// Where the runs of separators and of token characters start, in\n");
    printf("    /// turn: separators from U+0000, token characters from the second.\n");
    list("runStarts", runs, runCount);
    printf("\n    /// The token characters that fold to another (case, diacritics),\n");
    printf("    /// ascending, and (`foldValues`) what each folds to: 0 for nothing.\n");
    list("foldKeys", foldKeys, foldCount);
    printf("\n");
    list("foldValues", foldValues, foldCount);
    printf("}\n");
    module.xDelete(tokenizer);
    sqlite3_close(database);
    return 0;
}
