/// Why a listing or a download failed. Messages name URLs without
/// credentials (the client never puts them in a URL) and never quote a
/// request header.
package struct FetchError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// HTTP 401 or 403: the credentials are missing or refused. Nothing
        /// more is tried.
        case unauthorized
        /// HTTP 404.
        case notFound
        /// Another HTTP status.
        case status(Int)
        /// No answer: connection refused or reset, a timeout, a name that
        /// does not resolve.
        case transport
        /// The downloaded file's md5 is not the one its `.md5` gives.
        case md5Mismatch
        /// A local file could not be written or read.
        case file
        /// A listing or an `.md5` that cannot be read as one.
        case malformed
    }

    package var kind: Kind
    package var detail: String

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    package var description: String { detail }
}
