import Foundation

/// New, empty folders of a test's own under the system's temporary
/// directory (or under `root`), named `prefix-UUID`.
public enum TemporaryFolder {
    /// Creates a new, empty folder and returns it; the caller removes it.
    public static func create(_ prefix: String = "epf-test", in root: URL = FileManager.default.temporaryDirectory) throws -> URL {
        let folder = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// Runs `body` with a new, empty folder of its own under the system's
/// temporary directory, and removes the folder afterwards.
public func withTemporaryFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let folder = try TemporaryFolder.create()
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
