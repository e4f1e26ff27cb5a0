import EPFTestSupport
import Foundation
import Testing

/// Catalogs imported with `epf import --table-prefix P` answer `lookup`,
/// `search`, `tables` and `sql` as a catalog imported without it, with the
/// prefix found in the catalog or given with `--table-prefix`.
@Suite("Catalogs imported with --table-prefix")
struct TablePrefixTests {
    /// The questions asked of both catalogs.
    static let queries: [[String]] = [
        ["lookup", "553910284", "364709193", "id412039587", "1"],
        ["lookup", "364709193", "412039587", "--country", "JP", "--lang", "ja"],
        ["search", "chess"], ["search", "che", "--limit", "3", "--offset", "1"], ["search", "chess", "--entity", "iPadSoftware"],
        ["search", "puzzle", "--country", "ZZ"],
        ["tables", "--format", "json"],
    ]

    /// `epf tables --format json` output made comparable across catalogs:
    /// the prefix taken off the names, without the import times.
    static func comparableTables(_ json: String, prefix: String) -> [[String: String]] {
        let rows = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [[String: Any]] ?? []
        return rows.map { row in
            var fields: [String: String] = [:]
            for (key, value) in row where key != "last_import" { fields[key] = "\(value)" }
            if let name = fields["table"], name.hasPrefix(prefix) { fields["table"] = String(name.dropFirst(prefix.count)) }
            return fields
        }
    }

    @Test("lookup, search and tables answer as from an unprefixed import, the prefix found or given")
    func prefixedCatalogsAnswerAsUnprefixed() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let plain = try cli.importedCatalog()
        // epf_: the prefix the import's help suggests, beside the importer's own tables.
        for prefix in ["x_", "epf_"] {
            let prefixed = cli.path("prefixed-\(prefix).sqlite")
            let imported = try cli.run(["import", "--table-prefix", prefix, "--db", prefixed] + SampleFeeds.pathsInOrder)
            #expect(imported.status == 0, "\(imported.stderr)")
            for query in Self.queries {
                let expected = try cli.run(query + ["--db", plain])
                for options in [[], ["--table-prefix", prefix]] {
                    let answer = try cli.run(query + ["--db", prefixed] + options)
                    let what = "\(prefix): \(query + options)"
                    #expect(answer.status == expected.status, "\(what): \(answer.stderr)")
                    if query[0] == "tables" {
                        let tables = Self.comparableTables(answer.stdout, prefix: prefix)
                        #expect(
                            tables.count == 11 && tables == Self.comparableTables(expected.stdout, prefix: ""), "\(what): \(answer.stdout)")
                    } else {
                        #expect(answer.stdout == expected.stdout, "\(what)")
                        #expect(answer.stderr == expected.stderr, "\(what)")
                    }
                }
            }
            let count = try cli.run(["sql", "--db", prefixed, "SELECT count(*) FROM \(prefix)application", "--format", "csv"])
            #expect(count.status == 0 && count.stdout == "count(*)\n27\n", "\(count.stdout) \(count.stderr)")
        }
    }

    @Test("A catalog with several prefixes asks for --table-prefix; a bad prefix is a usage error")
    func severalPrefixes() throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let catalog = cli.path("two.sqlite")
        for prefix in ["x_", "y_"] {
            let imported = try cli.run(["import", "--table-prefix", prefix, "--db", catalog, SampleFeeds.path("itunes20261101")])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        for query in [["lookup", "364709193"], ["search", "chess"]] {
            let asked = try cli.run(query + ["--db", catalog])
            #expect(asked.status == 1 && asked.stdout.isEmpty)
            #expect(
                asked.stderr.contains("holds application tables under several prefixes: x_application, y_application")
                    && asked.stderr.contains("--table-prefix (x_, y_)"), "\(asked.stderr)")
            let given = try cli.run(query + ["--db", catalog, "--table-prefix", "y_"])
            #expect(given.status == 0 && given.stdout.contains("\"trackId\":364709193"), "\(given.stderr)")
        }
        let all = try cli.run(["tables", "--db", catalog, "--format", "csv"])
        #expect(all.status == 0 && all.stdout.contains("\nx_application,") && all.stdout.contains("\ny_application,"), "\(all.stdout)")
        let some = try cli.run(["tables", "--db", catalog, "--format", "csv", "--table-prefix", "y_"])
        #expect(some.status == 0 && some.stdout.contains("\ny_application,") && !some.stdout.contains("x_"), "\(some.stdout)")
        let none = try cli.run(["lookup", "364709193", "--db", catalog, "--table-prefix", "z_"])
        #expect(none.status == 1 && none.stderr.contains("has no z_application table"), "\(none.stderr)")
        let bad = try cli.run(["lookup", "364709193", "--db", catalog, "--table-prefix", "x-"])
        #expect(bad.status == 64 && bad.stderr.contains("--table-prefix may hold only letters, digits and '_'"), "\(bad.stderr)")
    }
}
