import Foundation
import NIOCore

/// Why the server could not start listening, in words a person can act
/// on: NIO says `bind(descriptor:ptr:bytes:): Address already in use)
/// (errno: 98)`, without the address or what to do.
package enum StartFailure {
    /// The message for `error`, thrown while starting to listen on
    /// `host:port`, or with `metrics` (`--metrics-port`) on either of the
    /// two (the error does not say which).
    package static func message(_ error: any Error, host: String, port: Int, metrics: (host: String, port: Int)? = nil) -> String {
        var address = "http://\(host):\(port)"
        var ports = "--port"
        if let metrics {
            address += " or on http://\(metrics.host):\(metrics.port) (--metrics-port)"
            ports = "--port or --metrics-port"
        }
        guard let error = error as? IOError else { return "cannot listen on \(address): \(error)" }
        switch error.errnoCode {
        case EADDRINUSE:
            return
                "cannot listen on \(address): the address is already in use (another program listens there); stop it, or give another \(ports) (0: a free one)"
        case EACCES:
            return "cannot listen on \(address): permission denied (ports below 1024 need privileges); give \(ports) 1024 or above"
        case EADDRNOTAVAIL:
            return
                "cannot listen on \(address): \(host) is not an address of this machine; give --host 127.0.0.1, 0.0.0.0 (every address) or one of its own"
        default:
            return "cannot listen on \(address): \(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))"
        }
    }
}
