import EPFTestSupport
import Foundation

/// Copies a sample feed folder into `folder` (keeping its name, so the copy
/// is still recognised as a feed) and returns the copy.
func copyFeed(_ name: String, into folder: URL) throws -> URL {
    let copy = folder.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.copyItem(at: SampleFeeds.url(name), to: copy)
    return copy
}

/// Writes a file with Foundation.
func write(_ bytes: [UInt8], to url: URL) throws {
    try Data(bytes).write(to: url)
}
