import Foundation

/// Where a PostgreSQL catalog lives: a `postgres://` or `postgresql://`
/// URL as libpq takes it, and the same URL with its password removed, which
/// is the only form ever shown in messages, errors or the journal.
///
/// Any part the URL leaves out (host, port, user, password, database) comes
/// from libpq's usual environment variables (`PGHOST`, `PGPORT`, `PGUSER`,
/// `PGPASSWORD`, `PGDATABASE`, `PGPASSFILE`, `PGSSLMODE`, ...) and
/// `~/.pgpass`: `postgres://` alone means "everything from the environment".
public struct PostgresTarget: Sendable, CustomStringConvertible {
    /// The URL handed to libpq (may hold a password: never print it).
    let conninfo: String
    /// The URL without its password, for people.
    public let redacted: String
    /// Secrets to scrub from any message libpq or the server writes: the
    /// URL's password (as written and percent-decoded) and `$PGPASSWORD`.
    let secrets: [String]

    /// Whether `text` names a PostgreSQL catalog rather than a SQLite file.
    package static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The catalog `url` names; `environment`'s `PGPASSWORD`, if any, is
    /// scrubbed from messages too.
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        conninfo = url
        var secrets: [String] = []
        let (redacted, passwords) = Self.redact(url)
        self.redacted = redacted
        for password in passwords where !password.isEmpty {
            secrets.append(password)
            if let decoded = password.removingPercentEncoding, decoded != password { secrets.append(decoded) }
        }
        if let fromEnvironment = environment["PGPASSWORD"], !fromEnvironment.isEmpty { secrets.append(fromEnvironment) }
        // Longest first, so a password holding another is scrubbed whole.
        self.secrets = secrets.sorted { $0.count > $1.count }
    }

    /// The URL without its password.
    public var description: String { redacted }

    /// `text` with every secret replaced by `***`.
    package func scrub(_ text: String) -> String {
        var text = text
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: "***") }
        return text
    }

    /// The URL without the password of its user part (`user:secret@` becomes
    /// `user@`) and with the value of any `password=` parameter replaced by
    /// `***`; also returns the passwords found.
    static func redact(_ url: String) -> (String, [String]) {
        guard let schemeEnd = url.range(of: "://") else { return (url, []) }
        let scheme = url[..<schemeEnd.upperBound]
        var rest = Substring(url[schemeEnd.upperBound...])
        var query = Substring("")
        if let question = rest.firstIndex(of: "?") {
            query = rest[question...]
            rest = rest[..<question]
        }
        // The authority ends at the first '/'; its user part at its last '@'.
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        var passwords: [String] = []
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                passwords.append(String(userInfo[userInfo.index(after: colon)...]))
                authority = userInfo[..<colon] + authority[at...]
            }
        }
        var redactedQuery = ""
        if !query.isEmpty {
            let parameters = query.dropFirst().split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
                guard let equals = parameter.firstIndex(of: "="),
                    parameter[..<equals].lowercased() == "password"
                else { return String(parameter) }
                passwords.append(String(parameter[parameter.index(after: equals)...]))
                return "password=***"
            }
            redactedQuery = "?" + parameters.joined(separator: "&")
        }
        return (scheme + authority + path + redactedQuery, passwords)
    }
}
