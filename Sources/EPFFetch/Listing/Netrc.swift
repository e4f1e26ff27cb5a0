import Foundation

/// Reads `~/.netrc` text: `machine HOST login USER password PASSWORD`
/// entries (tokens separated by any white space, on one line or several),
/// a `default` entry for any other host, `macdef` macros passed over.
package enum Netrc {
    /// The credentials `text` gives for `host` (names compared without
    /// case), else those of its `default` entry; nil when neither.
    package static func credentials(in text: String, host: String) -> Credentials? {
        var tokens: [Substring] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if words.first == "macdef" {
                // A macro runs to the next empty line.
                while let next = lines.popFirst(), !next.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {}
                continue
            }
            if words.first?.hasPrefix("#") == true { continue }
            tokens.append(contentsOf: words)
        }
        var found: (login: String?, password: String?)?
        var fallback: (login: String?, password: String?)?
        var current: Int?  // 1: the host's entry, 2: default, 0: another
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let value = index + 1 < tokens.count ? String(tokens[index + 1]) : nil
            switch token {
            case "machine":
                current = value?.lowercased() == host.lowercased() && found == nil ? 1 : 0
                if current == 1 { found = (nil, nil) }
                index += 2
            case "default":
                current = fallback == nil ? 2 : 0
                if current == 2 { fallback = (nil, nil) }
                index += 1
            case "login", "password", "account":
                if token == "login" { if current == 1 { found?.login = value } else if current == 2 { fallback?.login = value } }
                if token == "password" { if current == 1 { found?.password = value } else if current == 2 { fallback?.password = value } }
                index += 2
            default:
                index += 1
            }
        }
        guard let entry = found ?? fallback, let login = entry.login else { return nil }
        return Credentials(user: login, password: entry.password ?? "")
    }
}

extension Credentials {
    /// What is wrong with the credentials `environment` gives: one of
    /// `EPF_USERNAME` and `EPF_PASSWORD` without the other; nil when fine.
    package static func problem(in environment: [String: String]) -> String? {
        guard (environment["EPF_USERNAME"] ?? "").isEmpty != (environment["EPF_PASSWORD"] ?? "").isEmpty else { return nil }
        return "Set both EPF_USERNAME and EPF_PASSWORD, or neither (then ~/.netrc is read)."
    }

    /// `EPF_USERNAME` and `EPF_PASSWORD` of `environment` (empty is unset),
    /// else the `~/.netrc` entry (under `HOME`) for `host`; nil when neither.
    package static func find(in environment: [String: String], host: String?) -> Credentials? {
        if let user = environment["EPF_USERNAME"], let password = environment["EPF_PASSWORD"], !user.isEmpty, !password.isEmpty {
            return Credentials(user: user, password: password)
        }
        guard let home = environment["HOME"], let host, let text = try? String(contentsOfFile: home + "/.netrc", encoding: .utf8)
        else { return nil }
        return Netrc.credentials(in: text, host: host)
    }
}
