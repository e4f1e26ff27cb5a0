/// PLAIN encoding (Encodings.md, `PLAIN = 0`) of single values, appended to
/// reusable byte buffers: INT32 and INT64 little-endian, BYTE_ARRAY as a
/// 4-byte little-endian length then the bytes, FIXED_LEN_BYTE_ARRAY as the
/// bytes. (BOOLEAN is bit-packed, one bit a value: `RLEBitPackedHybrid.packBits`.)
package enum PlainEncoder {
    @inline(__always)
    package static func append(_ value: Int64, to output: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
    }

    @inline(__always)
    package static func append(_ value: Int32, to output: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { output.append(contentsOf: $0) }
    }

    @inline(__always)
    package static func appendByteArray(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        append(Int32(truncatingIfNeeded: bytes.count), to: &output)
        output.append(contentsOf: bytes)
    }

    /// A decimal's unscaled value as FIXED_LEN_BYTE_ARRAY: `width` bytes of
    /// big-endian two's complement (sign-extended past 8 bytes).
    @inline(__always)
    package static func appendBigEndian(_ value: Int64, width: Int, to output: inout [UInt8]) {
        let sign: UInt8 = value < 0 ? 0xFF : 0x00
        if width > 8 { output.append(contentsOf: repeatElement(sign, count: width - 8)) }
        var shift = (min(width, 8) - 1) * 8
        while shift >= 0 {
            output.append(UInt8(truncatingIfNeeded: value >> Int64(shift)))
            shift -= 8
        }
    }

    /// The little-endian bytes of an INT64 (statistics, the PLAIN form of one value).
    package static func bytes(_ value: Int64) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output)
        return output
    }

    /// The little-endian bytes of an INT32.
    package static func bytes(_ value: Int32) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output)
        return output
    }
}
