import EPFInput

/// Everything left in `stream`, read `size` bytes at a time.
func readAll(_ stream: any ByteStream, size: Int = 1000) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: size)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
        if count == 0 { return bytes }
        bytes += buffer[0..<count]
    }
}
