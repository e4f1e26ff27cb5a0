import Foundation

extension FileManager {
    /// Whether `path` is a folder (or a link to one).
    package func isFolder(atPath path: String) -> Bool {
        var isFolder: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
