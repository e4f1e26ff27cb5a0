import EPFTestSupport
import Foundation
import Testing

/// Runs `script` with `/bin/sh -c` (the system's gzip, bzip2, tar, zip, as a
/// user's downloads are made) and returns its standard output; the test
/// fails when the script does.
@discardableResult
func shellOutput(_ script: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    let run = try runShell(script)
    #expect(run.status == 0, "\(script)", sourceLocation: sourceLocation)
    return run.output
}

/// The standard output of `command 'FILE'`, where FILE holds `bytes`
/// (`compressed(bytes, by: "gzip -c")`).
func output(of command: String, on bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    let input = try temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: input) }
    return try shellOutput("\(command) '\(input)'", sourceLocation: sourceLocation)
}
