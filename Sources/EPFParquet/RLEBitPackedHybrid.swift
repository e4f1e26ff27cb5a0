/// The RLE / bit-packing hybrid encoding (Encodings.md, `RLE = 3`), used for
/// definition levels and dictionary indices: runs of 8 or more equal values
/// become RLE runs (`varint(count << 1)`, then the value in
/// ceil(bitWidth / 8) bytes, little-endian); the values between them become
/// bit-packed runs (`varint(groups << 1 | 1)`, then groups of 8 values packed
/// from the least significant bit of each byte). A bit-packed run holds a
/// multiple of 8 values: only the last one is padded with zeros (a reader
/// knows how many values there are).
///
/// `appendDefinitionLevels` writes a data page v1's levels section: the
/// 4-byte length, then the levels so encoded.
package enum RLEBitPackedHybrid {
    /// Appends a data page v1's definition levels section for `levels`
    /// (0 or 1 each): their encoded length (4 bytes, little-endian), then
    /// their encoding at bit width 1.
    package static func appendDefinitionLevels(_ levels: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: [0, 0, 0, 0])
        encode(levels, bitWidth: 1, into: &output)
        let length = UInt32(output.count - start - 4)
        withUnsafeBytes(of: length.littleEndian) { output.replaceSubrange(start..<start + 4, with: $0) }
    }

    /// Appends the encoding of `values` to `output`; every value is below
    /// `1 << bitWidth`, and `bitWidth` is in 0...32.
    package static func encode<T: FixedWidthInteger & UnsignedInteger>(
        _ values: UnsafeBufferPointer<T>, bitWidth: Int, into output: inout [UInt8]
    ) {
        precondition(bitWidth >= 0 && bitWidth <= 32, "bit width \(bitWidth) outside 0...32")
        let count = values.count
        var literalStart = 0  // values[literalStart..<index] are waiting to be bit-packed
        var index = 0
        while index < count {
            let value = values[index]
            var end = index + 1
            while end < count && values[end] == value { end += 1 }
            // Complete the pending literals' last group of 8 from this run
            // first: a bit-packed run cannot end mid-group before the end.
            var runStart = index
            let pending = index - literalStart
            if pending % 8 != 0 { runStart = min(end, index + 8 - pending % 8) }
            if end - runStart >= 8 {
                bitPack(values, literalStart..<runStart, bitWidth: bitWidth, into: &output)
                writeRun(UInt32(truncatingIfNeeded: value), count: end - runStart, bitWidth: bitWidth, into: &output)
                literalStart = end
            }
            index = end
        }
        bitPack(values, literalStart..<count, bitWidth: bitWidth, into: &output)
    }

    /// Convenience for arrays.
    package static func encode<T: FixedWidthInteger & UnsignedInteger>(
        _ values: [T], bitWidth: Int, into output: inout [UInt8]
    ) {
        values.withUnsafeBufferPointer { encode($0, bitWidth: bitWidth, into: &output) }
    }

    /// The number of bits needed for values up to `maximum` (0 for 0).
    package static func bitWidth(forMaximum maximum: UInt32) -> Int {
        maximum == 0 ? 0 : UInt32.bitWidth - maximum.leadingZeroBitCount
    }

    private static func writeRun(_ value: UInt32, count: Int, bitWidth: Int, into output: inout [UInt8]) {
        writeVarint(UInt64(count) << 1, into: &output)
        var rest = value
        for _ in 0..<((bitWidth + 7) / 8) {
            output.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    /// A bit-packed run of `values[range]`, padded with zeros to a multiple of 8.
    private static func bitPack<T: FixedWidthInteger & UnsignedInteger>(
        _ values: UnsafeBufferPointer<T>, _ range: Range<Int>, bitWidth: Int, into output: inout [UInt8]
    ) {
        guard !range.isEmpty else { return }
        let groups = (range.count + 7) / 8
        writeVarint(UInt64(groups) << 1 | 1, into: &output)
        packBits(values, range, paddedTo: groups * 8, bitWidth: bitWidth, into: &output)
    }

    /// `values[range]` packed `bitWidth` bits each from the least significant
    /// bit of each byte, then zeros up to `paddedCount` values, then zero
    /// bits to the byte. The bit-packed runs' body, and BOOLEAN's PLAIN.
    package static func packBits<T: FixedWidthInteger & UnsignedInteger>(
        _ values: UnsafeBufferPointer<T>, _ range: Range<Int>, paddedTo paddedCount: Int, bitWidth: Int,
        into output: inout [UInt8]
    ) {
        guard bitWidth > 0 else { return }
        var buffer: UInt64 = 0
        var bits = 0
        let mask: UInt64 = bitWidth == 64 ? .max : (1 << UInt64(bitWidth)) - 1
        for index in range {
            buffer |= (UInt64(truncatingIfNeeded: values[index]) & mask) << UInt64(bits)
            bits += bitWidth
            while bits >= 8 {
                output.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                bits -= 8
            }
        }
        // Zero values add only zero bits: pad to whole bytes of the padded count.
        let totalBytes = (paddedCount * bitWidth + 7) / 8
        let written = (range.count * bitWidth) / 8
        if bits > 0 { output.append(UInt8(truncatingIfNeeded: buffer)) }
        let remaining = totalBytes - written - (bits > 0 ? 1 : 0)
        if remaining > 0 { output.append(contentsOf: repeatElement(0, count: remaining)) }
    }

    private static func writeVarint(_ value: UInt64, into output: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(rest))
    }
}
