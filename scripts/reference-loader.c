/*
 * reference-loader: the minimal EPF loader that `epf import` is measured
 * against (see scripts/compare-loaders.sh). Not part of the product.
 *
 * It maps the file, splits rows on 0x02 0x0A and fields on 0x01 with memchr,
 * converts integer columns, binds text straight from the mapping, and
 * inserts through one prepared statement in one transaction. Then it builds
 * the same indexes the catalog builds: the unique key index and, with
 * --fts COLUMN, an FTS5 index over that column declared as the catalog's
 * (contentless, unicode61 remove_diacritics 2, rows with a value), without
 * the catalog's CJK spacing (a SQL function of epf's, part of what epf pays).
 *
 * Settings: 16 KB pages, 64 MB cache, rollback journal (crash-safe).
 *
 *   cc -O2 -o reference-loader reference-loader.c -lsqlite3
 *   reference-loader FILE DB [--fts title]
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_COLUMNS 512

static void die(sqlite3 *db, const char *what) {
    fprintf(stderr, "reference-loader: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
    exit(1);
}

static void exec(sqlite3 *db, const char *sql) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
        fprintf(stderr, "reference-loader: %s: %s\n", sql, message);
        exit(1);
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Splits `row` (without terminator) into at most MAX_COLUMNS fields. */
static int split(const char *row, size_t length, const char **starts, size_t *lengths) {
    int count = 0;
    const char *position = row, *end = row + length;
    for (;;) {
        const char *hit = memchr(position, 0x01, end - position);
        starts[count] = position;
        lengths[count] = (hit ? hit : end) - position;
        count++;
        if (!hit || count == MAX_COLUMNS) break;
        position = hit + 1;
    }
    return count;
}

static const char *next_row(const char *position, const char *end, const char **row_end) {
    while (position < end) {
        const char *hit = memchr(position, 0x02, end - position);
        if (!hit || hit + 1 >= end) return NULL;
        if (hit[1] == '\n') { *row_end = hit; return hit + 2; }
        position = hit + 1;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: reference-loader FILE DB [--fts COLUMN]\n"); return 64; }
    const char *fts = (argc >= 5 && strcmp(argv[3], "--fts") == 0) ? argv[4] : NULL;
    int fd = open(argv[1], O_RDONLY);
    struct stat status;
    if (fd < 0 || fstat(fd, &status) != 0) { perror(argv[1]); return 1; }
    const char *data = mmap(NULL, status.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) { perror("mmap"); return 1; }
    madvise((void *)data, status.st_size, MADV_SEQUENTIAL);
    const char *end = data + status.st_size, *position = data, *row_end;

    double start = now();
    const char *starts[MAX_COLUMNS];
    size_t lengths[MAX_COLUMNS];
    char columns[MAX_COLUMNS][128], types[MAX_COLUMNS][64], key[1024] = "";
    int column_count = 0, integer[MAX_COLUMNS] = {0};

    /* Header: the column row, then # rows until the first data row. */
    const char *next = next_row(position, end, &row_end);
    column_count = split(position + 1, row_end - position - 1, starts, lengths);
    for (int i = 0; i < column_count; i++) snprintf(columns[i], sizeof columns[i], "%.*s", (int)lengths[i], starts[i]);
    position = next;
    while (position < end && *position == '#') {
        next = next_row(position, end, &row_end);
        if (strncmp(position, "#dbTypes:", 9) == 0) {
            int n = split(position + 9, row_end - position - 9, starts, lengths);
            for (int i = 0; i < n && i < column_count; i++) {
                snprintf(types[i], sizeof types[i], "%.*s", (int)lengths[i], starts[i]);
                integer[i] = strstr(types[i], "INT") != NULL;
            }
        } else if (strncmp(position, "#primaryKey:", 12) == 0) {
            int n = split(position + 12, row_end - position - 12, starts, lengths);
            for (int i = 0; i < n && lengths[i] > 0; i++) {
                char part[160];
                snprintf(part, sizeof part, "%s\"%.*s\"", i ? ", " : "", (int)lengths[i], starts[i]);
                strcat(key, part);
            }
        } else if (strncmp(position, "#recordsWritten:", 16) == 0) {
            break;
        }
        position = next;
    }

    sqlite3 *db;
    if (sqlite3_open(argv[2], &db) != SQLITE_OK) die(db, "open");
    exec(db, "PRAGMA page_size = 16384; PRAGMA cache_size = -65536; PRAGMA journal_mode = DELETE;");
    char sql[65536] = "CREATE TABLE t (";
    for (int i = 0; i < column_count; i++) {
        strcat(sql, i ? ", \"" : "\"");
        strcat(sql, columns[i]);
        strcat(sql, integer[i] ? "\" INTEGER" : "\" TEXT");
    }
    strcat(sql, ")");
    exec(db, "BEGIN");
    exec(db, sql);
    strcpy(sql, "INSERT INTO t VALUES (");
    for (int i = 0; i < column_count; i++) strcat(sql, i ? ", ?" : "?");
    strcat(sql, ")");
    sqlite3_stmt *insert;
    if (sqlite3_prepare_v2(db, sql, -1, &insert, NULL) != SQLITE_OK) die(db, "prepare");

    long rows = 0;
    while (position < end && (next = next_row(position, end, &row_end)) != NULL) {
        if (*position == '#') { position = next; continue; }
        int n = split(position, row_end - position, starts, lengths);
        for (int i = 0; i < n && i < column_count; i++) {
            if (lengths[i] == 0) { sqlite3_bind_null(insert, i + 1); continue; }
            if (integer[i]) {
                char *stop;
                char digits[32];
                size_t len = lengths[i] < 31 ? lengths[i] : 31;
                memcpy(digits, starts[i], len);
                digits[len] = 0;
                long long value = strtoll(digits, &stop, 10);
                if (*stop == 0) { sqlite3_bind_int64(insert, i + 1, value); continue; }
            }
            sqlite3_bind_text(insert, i + 1, starts[i], (int)lengths[i], SQLITE_STATIC);
        }
        if (sqlite3_step(insert) != SQLITE_DONE) die(db, "insert");
        sqlite3_reset(insert);
        rows++;
        position = next;
    }
    sqlite3_finalize(insert);
    double loaded = now();
    if (key[0]) {
        snprintf(sql, sizeof sql, "CREATE UNIQUE INDEX t_key ON t (%s)", key);
        exec(db, sql);
    }
    if (fts) {
        snprintf(sql, sizeof sql,
                 "CREATE VIRTUAL TABLE t_fts USING fts5(\"%s\", content='', tokenize='unicode61 remove_diacritics 2');"
                 "INSERT INTO t_fts(rowid, \"%s\") SELECT rowid, \"%s\" FROM t WHERE \"%s\" IS NOT NULL;",
                 fts, fts, fts, fts);
        exec(db, sql);
    }
    exec(db, "COMMIT");
    sqlite3_close(db);
    double done = now();
    printf("rows=%ld load_s=%.3f index_s=%.3f total_s=%.3f\n", rows, loaded - start, done - loaded, done - start);
    return 0;
}
