import EPFFormat
import Testing

/// `TextRepair.needsRepair` on 16 bytes and more goes through the vector
/// check (`UTF8Blocks`); these tests hold it to Swift's own UTF-8
/// validation (`String(validating:as:)`) plus "no NUL", with the sequence
/// placed in each of its code paths: the first block (bytes 0-15), the
/// 64-byte loop (16-79), the 16-byte loop (80-95) and the last, padded
/// block, and across the boundaries between them.
@Suite("UTF-8 check in 16-byte blocks")
struct UTF8BlocksTests {
    static let length = 100
    static let positions = [0, 1, 13, 14, 15, 16, 17, 31, 46, 47, 62, 63, 77, 78, 79, 80, 93, 94, 95, 96, 97, 98, 99]

    static func expected(_ bytes: [UInt8]) -> Bool {
        bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil
    }

    static func checked(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { TextRepair.needsRepair($0.baseAddress!, $0.count) }
    }

    /// Puts `sequence` at `position` of `length` bytes of ASCII and checks
    /// the input cut right after it too (a sequence at the very end).
    static func agree(_ sequence: [UInt8], at position: Int) -> Bool {
        guard position + sequence.count <= length else { return true }
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        bytes.replaceSubrange(position..<(position + sequence.count), with: sequence)
        let cut = Array(bytes[..<max(16, position + sequence.count)])
        return checked(bytes) == expected(bytes) && checked(cut) == expected(cut)
    }

    @Test func everySequenceOfOneOrTwoBytesInEveryPath() {
        var disagreements: [String] = []
        for position in Self.positions {
            for first in 0...255 where !Self.agree([UInt8(first)], at: position) {
                disagreements.append("\(first) at \(position)")
            }
        }
        // After ASCII, a second byte is a first byte: its own check above.
        for position in [0, 14, 15, 47, 63, 78, 79, 94, 95, 98] {
            for first in [0] + Array(0x80...0xFF) {
                for second in 0...255 where !Self.agree([UInt8(first), UInt8(second)], at: position) {
                    disagreements.append("\(first) \(second) at \(position)")
                }
            }
        }
        #expect(disagreements.count == 0, "first: \(disagreements.prefix(10))")
    }

    @Test func threeAndFourByteSequencesAroundEveryBoundary() {
        // The leads with narrower second bytes, their neighbours, and an
        // invalid one; every second byte; third bytes at the range edges.
        let leads: [UInt8] = [0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5]
        let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xE0, 0xF0, 0xFF]
        var disagreements: [String] = []
        for position in [0, 14, 15, 62, 63, 79, 94, 97] {
            for lead in leads {
                for second in 0...255 {
                    for third in edges {
                        let sequence = [lead, UInt8(second), third]
                        if !Self.agree(sequence, at: position) { disagreements.append("\(sequence) at \(position)") }
                        if lead >= 0xF0, !Self.agree(sequence + [0x80], at: position) {
                            disagreements.append("\(sequence + [0x80]) at \(position)")
                        }
                    }
                }
            }
        }
        #expect(disagreements.count == 0, "first: \(disagreements.prefix(10))")
    }

    @Test func mixedTextWithOneByteDamagedAnywhere() {
        let text = Array("Beschreibung: 日本語のテキスト, café, 한국어 😀🚀 and ASCII to the end of the block".utf8)
        #expect(!Self.checked(text))
        var disagreements: [Int] = []
        for index in text.indices {
            for damage: UInt8 in [0x00, 0x80, 0xC0, 0xFF, 0x41] {
                var bytes = text
                bytes[index] = damage
                if Self.checked(bytes) != Self.expected(bytes) { disagreements.append(index) }
            }
        }
        #expect(disagreements.count == 0, "damaged at \(disagreements.prefix(10))")
    }
}
