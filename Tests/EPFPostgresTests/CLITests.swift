import EPFTestSupport
import Foundation
import Testing

/// `epf` run as a user runs it, against PostgreSQL.
@Suite("epf against PostgreSQL", .enabled(if: TestServer.available, TestServer.skipReason))
struct CLITests {
    @Test("import, import again, tables, history, dry run; the password is never printed")
    func commands() throws {
        let database = try TestDatabase()
        let password = "epf-test-password"
        #expect(database.url.contains(password))
        try withTemporaryFolder { folder in
            let feeds = SampleFeeds.pathsInOrder
            let first = try EPFRunner.run(["import", "--db", database.url, "--format", "json"] + feeds, in: folder)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout.contains("\"applied\" : 14"), "\(first.stdout)")
            let again = try EPFRunner.run(["import", "--db", database.url] + feeds, in: folder)
            #expect(again.status == 0)
            #expect(again.stderr.contains("nothing to import"))
            let dryRun = try EPFRunner.run(["import", "--dry-run", "--db", database.url, "--format", "csv"] + feeds, in: folder)
            #expect(dryRun.status == 0, "\(dryRun.stderr)")
            let tables = try EPFRunner.run(["tables", "--db", database.url, "--format", "csv"], in: folder)
            #expect(tables.status == 0, "\(tables.stderr)")
            #expect(tables.stdout.contains("application_price,175,FULL"), "\(tables.stdout)")
            #expect(tables.stdout.contains(",2026-11-01T00:00:00Z,"), "\(tables.stdout)")
            // Seconds to the millisecond, shown with two decimals, as on SQLite.
            let seconds = try EPFRunner.run(["history", "--db", database.url, "--format", "csv"], in: folder).stdout
                .split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[10] }
            #expect(seconds.count == 14 && seconds.allSatisfy { $0.wholeMatch(of: /[0-9]+\.[0-9]{2}/) != nil }, "\(seconds)")
            let history = try EPFRunner.run(["history", "--db", database.url, "--format", "json", "--table", "application"], in: folder)
            #expect(history.status == 0, "\(history.stderr)")
            #expect(
                history.stdout.contains("\"mode\":\"INCREMENTAL\"") || history.stdout.contains("\"mode\" : \"INCREMENTAL\""),
                "\(history.stdout)")
            let readers = try Self.queriesAnswerAsSQLite(database: database, feeds: feeds, in: folder)
            for result in [first, again, dryRun, tables, history] + readers {
                #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
            }
            #expect(first.stdout.contains("postgres://epf@"))
            // A server that is not there: said without the password.
            let refused = try EPFRunner.run(
                ["import", "--db", "postgres://epf:\(password)@127.0.0.1:1/none"] + [feeds[0]], in: folder)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("cannot connect to postgres://epf@127.0.0.1:1/none"), "\(refused.stderr)")
            #expect(!refused.stderr.contains(password))
            let unreachable = try EPFRunner.run(["search", "--db", "postgres://epf:\(password)@127.0.0.1:1/none", "chess"], in: folder)
            #expect(unreachable.status == 1)
            #expect(
                unreachable.stderr.contains("postgres://epf@127.0.0.1:1/none") && !unreachable.stderr.contains(password),
                "\(unreachable.stderr)")
        }
    }

    @Test("A catalog imported with --table-prefix answers lookup, search and tables as a SQLite catalog without it")
    func tablePrefix() throws {
        let prefixed = try TestDatabase()
        try withTemporaryFolder { folder in
            let feeds = SampleFeeds.pathsInOrder
            let sqlite = folder.appendingPathComponent("plain.sqlite").path
            #expect(try EPFRunner.run(["import", "--db", sqlite] + feeds, in: folder).status == 0)
            let imported = try EPFRunner.run(["import", "--table-prefix", "x_", "--db", prefixed.url] + feeds, in: folder)
            #expect(imported.status == 0, "\(imported.stderr)")
            let queries: [[String]] = [
                ["lookup", "553910284", "364709193", "id412039587", "1"],
                ["lookup", "364709193", "412039587", "--country", "JP", "--lang", "ja"],
                ["search", "chess"], ["search", "che", "--limit", "3", "--offset", "1"], ["search", "chess", "--entity", "iPadSoftware"],
            ]
            for query in queries {
                let expected = try EPFRunner.run(query + ["--db", sqlite], in: folder)
                for options in [[], ["--table-prefix", "x_"]] {
                    let answer = try EPFRunner.run(query + ["--db", prefixed.url] + options, in: folder)
                    #expect(answer.status == expected.status && answer.stdout == expected.stdout, "\(query + options): \(answer.stderr)")
                }
            }
            // The same tables, rows and files as SQLite's, under the prefix.
            func tables(_ catalog: String, _ options: [String] = []) throws -> [String] {
                let listed = try EPFRunner.run(["tables", "--db", catalog, "--format", "csv"] + options, in: folder)
                #expect(listed.status == 0, "\(listed.stderr)")
                // table,rows,last_mode,last_import,export_date,source: all but the import time.
                return listed.stdout.split(separator: "\n").dropFirst().map { line in
                    let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                    return (fields[0...2] + fields[4...]).joined(separator: ",")
                }
            }
            let fromSQLite = try tables(sqlite)
            #expect(fromSQLite.count == 11)
            #expect(try tables(prefixed.url).map { String($0.dropFirst(2)) } == fromSQLite)
            #expect(try tables(prefixed.url, ["--table-prefix", "x_"]).map { String($0.dropFirst(2)) } == fromSQLite)

            // A second prefix: readers ask which.
            #expect(try EPFRunner.run(["import", "--table-prefix", "y_", "--db", prefixed.url, feeds[0]], in: folder).status == 0)
            let asked = try EPFRunner.run(["lookup", "364709193", "--db", prefixed.url], in: folder)
            #expect(asked.status == 1 && asked.stderr.contains("several prefixes: x_application, y_application"), "\(asked.stderr)")
            let given = try EPFRunner.run(["search", "chess", "--db", prefixed.url, "--table-prefix", "y_"], in: folder)
            #expect(given.status == 0 && given.stdout.contains("\"trackId\":"), "\(given.stderr)")
        }
    }

    /// `epf lookup`, `search` and `sql` against the PostgreSQL catalog and a
    /// SQLite catalog of the same feeds: the same output and exit status.
    /// Returns the PostgreSQL runs.
    static func queriesAnswerAsSQLite(database: TestDatabase, feeds: [String], in folder: URL) throws -> [EPFRunner.Result] {
        let sqlite = folder.appendingPathComponent("same.sqlite").path
        let imported = try EPFRunner.run(["import", "--db", sqlite] + feeds, in: folder)
        #expect(imported.status == 0, "\(imported.stderr)")
        let commands: [[String]] = [
            ["lookup", "553910284", "364709193", "id412039587", "https://apps.apple.com/us/app/x/id530662175?mt=8", "1"],
            ["lookup", "364709193", "412039587", "--country", "JP", "--lang", "ja"],
            ["lookup", "364709193", "--country", "fr", "--lang", "fr_CA", "--format", "csv"],
            ["lookup", "364709193", "--country", "ZZ"],
            ["search", "chess"], ["search", "CHESS", "--country", "JPN", "--format", "table"], ["search", "che"],
            ["search", "cafe"], ["search", "Échecs"], ["search", "象棋", "--country", "CN"],
            ["search", "puzzle", "--limit", "2", "--offset", "3"],
            ["search", "p", "--limit", "3", "--offset", "4", "--lang", "ja", "--country", "JP"],
            ["search", "chess", "--entity", "macSoftware"],
            ["search", "chess", "--entity", "iPadSoftware"], ["search", "nothing-like-it"], ["search", "chess", "--country", "ZZ"],
            ["sql", "SELECT application_id, title, download_size FROM application ORDER BY application_id", "--format", "json"],
            ["sql", "SELECT storefront_id, country_code FROM storefront ORDER BY storefront_id", "--format", "csv"],
            ["sql", "SELECT count(*) AS n, sum(retail_price) > 0 AS priced FROM application_price", "--format", "json"],
            ["sql", "SELECT 1; SELECT 2"], ["sql", ""],
            ["sql", "DELETE FROM application"], ["sql", "INSERT INTO storefront (storefront_id) VALUES (1)"],
        ]
        var results: [EPFRunner.Result] = []
        for arguments in commands {
            let fromSQLite = try EPFRunner.run([arguments[0], "--db", sqlite] + arguments.dropFirst(), in: folder)
            let fromPostgres = try EPFRunner.run([arguments[0], "--db", database.url] + arguments.dropFirst(), in: folder)
            #expect(fromPostgres.stdout == fromSQLite.stdout, "\(arguments)")
            #expect(fromPostgres.status == fromSQLite.status, "\(arguments): \(fromPostgres.stderr)")
            results.append(fromPostgres)
        }
        #expect(results[0].stdout.contains("\"resultCount\":4"), "\(results[0].stdout)")
        #expect(results[3].status == 64 && results[3].stderr.contains("unknown country 'ZZ'"), "\(results[3].stderr)")
        #expect(results[9].stdout.contains("国际象棋游戏"))
        #expect(results[results.count - 2].status == 64 && results[results.count - 2].stderr.contains("epf sql only reads"))
        #expect(results[results.count - 4].status == 64 && results[results.count - 4].stderr.contains("exactly one"))
        // The write was refused: the rows are all there.
        let count = try EPFRunner.run(["sql", "--db", database.url, "SELECT count(*) FROM application", "--format", "csv"], in: folder)
        #expect(count.stdout == "count\n27\n", "\(count.stdout)")
        return results
    }
}
