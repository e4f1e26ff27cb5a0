import Foundation

/// The process's limit on open files, which bounds its connections: each
/// is a descriptor, and so is each catalog file and reader.
package enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as far as the system lets an
    /// unprivileged process (often 1,024 soft against far more hard), and
    /// returns the soft limit then.
    package static func raise() -> Int {
        #if canImport(Glibc)
        let files = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let files = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(files, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(files, &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is the largest value: clamped to Int.max.
        return Int(clamping: limit.rlim_cur)
    }
}
