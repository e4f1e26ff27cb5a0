import EPFPostgres
import Testing

@Suite("PostgreSQL URLs and passwords")
struct PostgresTargetTests {
    @Test(
        "The password never appears in the URL shown, nor in messages",
        arguments: [
            ("postgres://epf:s3cret@db.example:5432/catalog", "postgres://epf@db.example:5432/catalog", ["s3cret"]),
            (
                "postgresql://epf:s3cret@db.example/catalog?sslmode=require", "postgresql://epf@db.example/catalog?sslmode=require",
                ["s3cret"]
            ),
            ("postgres://db.example/catalog?user=epf&password=s3cret", "postgres://db.example/catalog?user=epf&password=***", ["s3cret"]),
            ("postgres://epf:p%40ss@[::1]:5432/catalog", "postgres://epf@[::1]:5432/catalog", ["p%40ss", "p@ss"]),
            ("postgres://", "postgres://", []),
            ("postgres:///catalog", "postgres:///catalog", []),
        ])
    func redacted(url: String, shown: String, passwords: [String]) {
        let target = PostgresTarget(url: url, environment: [:])
        #expect(target.redacted == shown)
        #expect(target.description == shown)
        for password in passwords {
            #expect(target.scrub("error for \(url): \(password)!") == "error for \(target.scrub(url)): ***!")
            #expect(!target.scrub(url).contains(password))
        }
    }

    @Test("$PGPASSWORD is scrubbed from messages too")
    func environmentPassword() {
        let target = PostgresTarget(url: "postgres://db/catalog", environment: ["PGPASSWORD": "from-env"])
        #expect(target.scrub("password from-env refused") == "password *** refused")
    }

    @Test("postgres:// and postgresql:// name PostgreSQL; paths do not")
    func recognised() {
        #expect(PostgresTarget.isURL("postgres://x/y"))
        #expect(PostgresTarget.isURL("POSTGRESQL://x/y"))
        #expect(!PostgresTarget.isURL("catalog.sqlite"))
        #expect(!PostgresTarget.isURL("/tmp/postgres://x"))
    }
}
