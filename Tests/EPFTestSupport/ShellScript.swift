import Foundation

/// What a shell script did: its exit status and its standard output (with
/// its standard error, when asked for).
public struct ShellRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output (and standard error, when asked for).
    public var output: [UInt8]
}

/// Runs `script` with `/bin/sh -c` (the system's tar, gzip, bzip2, zip,
/// md5sum: files made as a user's downloads are) in `folder`, or in the
/// test's own folder when nil, and waits for it. Standard error joins
/// standard output when `withStandardError`; otherwise it goes where the
/// test's goes.
public func runShell(_ script: String, in folder: URL? = nil, withStandardError: Bool = false) throws -> ShellRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    if let folder { process.currentDirectoryURL = folder }
    let pipe = Pipe()
    process.standardOutput = pipe
    if withStandardError { process.standardError = pipe }
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ShellRun(status: process.terminationStatus, output: Array(output))
}
