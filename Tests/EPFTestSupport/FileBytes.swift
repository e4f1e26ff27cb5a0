import Foundation

/// The bytes of the file at `url`.
public func fileBytes(_ url: URL) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url))
}

/// The bytes of the file at `path`.
public func fileBytes(_ path: String) throws -> [UInt8] {
    try fileBytes(URL(fileURLWithPath: path))
}
