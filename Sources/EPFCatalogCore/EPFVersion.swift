/// The version of epf: what `epf --version` and `epf-server --version`
/// print, and what `epf fetch` and `epf sync` name themselves with
/// (`User-Agent: epf/0.1.0`). One place, so that they never disagree.
package enum EPFVersion {
    /// `0.1.0`.
    package static let current = "0.1.0"
    /// The `User-Agent` of epf's requests.
    package static let userAgent = "epf/\(current)"
}
