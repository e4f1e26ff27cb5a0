import EPFFormat
import EPFTestSupport
import Testing

private func needsRepair(_ bytes: [UInt8]) -> Bool {
    let padded = bytes + [0]
    return padded.withUnsafeBufferPointer { TextRepair.needsRepair($0.baseAddress!, bytes.count) }
}

private func repair(_ bytes: [UInt8]) -> (bytes: [UInt8], outcome: TextRepair.Outcome) {
    let padded = bytes + [0]
    return padded.withUnsafeBufferPointer { input in
        let capacity = max(1, TextRepair.repairedCapacity(bytes.count))
        var out = [UInt8](repeating: 0xAA, count: capacity)
        let outcome = out.withUnsafeMutableBufferPointer {
            TextRepair.repair(input.baseAddress!, bytes.count, into: $0.baseAddress!)
        }
        return (Array(out[..<outcome.length]), outcome)
    }
}

private let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

@Suite("Text repair")
struct TextRepairTests {
    // MARK: Clean text

    @Test(arguments: [
        "", "a", "Deep Creek GC", "Plain ASCII text that is long enough to cross several words.\nWith lines\r\n",
        "日本語のテキスト", "Ελληνικά και русский", "café crème brûlée", "emoji 😀👍🏽🇯🇵 in text",
        "mixed: 中文 ASCII 😀 é 한국어 and more ASCII at the end of the string",
    ])
    func cleanTextNeedsNoRepair(text: String) {
        let bytes = Array(text.utf8)
        #expect(!needsRepair(bytes))
        let repaired = repair(bytes)
        #expect(repaired.bytes == bytes)
        #expect(repaired.outcome.length == bytes.count)
        #expect(repaired.outcome.invalidSequences == 0)
        #expect(repaired.outcome.nulBytes == 0)
    }

    @Test func everyValidScalarWidthAtEveryAlignment() {
        // Valid sequences straddling the 8-byte words of the fast skip.
        for sequence in ["é", "€", "日", "😀", "\u{10FFFF}", "\u{FFFD}", "\u{7F}"] {
            let encoded = Array(sequence.utf8)
            for position in 0..<40 {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 48)
                bytes.replaceSubrange(position..<(position + encoded.count), with: encoded)
                #expect(!needsRepair(bytes), "\(sequence) at \(position)")
            }
        }
    }

    // MARK: Invalid sequences

    @Test func strayContinuationByte() {
        let bytes = Array("abc".utf8) + [0x80] + Array("def".utf8)
        #expect(needsRepair(bytes))
        let repaired = repair(bytes)
        #expect(repaired.bytes == Array("abc\u{FFFD}def".utf8))
        #expect(repaired.outcome.invalidSequences == 1)
        #expect(repaired.outcome.nulBytes == 0)
        #expect(repaired.outcome.length == 9)
    }

    @Test func truncatedThreeByteSequenceAtTheEnd() {
        let bytes = Array("text ".utf8) + [0xE6, 0x97]
        #expect(needsRepair(bytes))
        let repaired = repair(bytes)
        #expect(repaired.bytes == Array("text ".utf8) + replacement)
        #expect(repaired.outcome.invalidSequences == 1)
    }

    @Test func truncatedFourByteSequenceBeforeASCII() {
        let bytes: [UInt8] = [0xF0, 0x9F, 0x98, 0x41]
        #expect(needsRepair(bytes))
        let repaired = repair(bytes)
        #expect(repaired.bytes == replacement + [0x41])
        #expect(repaired.outcome.invalidSequences == 1)
    }

    @Test func overlongEncoding() {
        for bytes: [UInt8] in [[0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xF0, 0x80, 0x80, 0x80]] {
            #expect(needsRepair(bytes), "\(bytes)")
            let repaired = repair(bytes)
            // No prefix of an overlong form is valid: one U+FFFD per byte.
            #expect(repaired.bytes == Array(repeating: replacement, count: bytes.count).flatMap { $0 }, "\(bytes)")
            #expect(repaired.outcome.invalidSequences == bytes.count, "\(bytes)")
        }
    }

    @Test func surrogates() {
        for bytes: [UInt8] in [[0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF]] {
            #expect(needsRepair(bytes))
            let repaired = repair(bytes)
            #expect(repaired.bytes == replacement + replacement + replacement)
            #expect(repaired.outcome.invalidSequences == 3)
        }
        // The last scalar before the surrogates is fine.
        #expect(!needsRepair([0xED, 0x9F, 0xBF]))
    }

    @Test func beyondUnicodeAndNeverValidBytes() {
        for bytes: [UInt8] in [[0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF, 0xFE, 0xFE, 0xFF]] {
            #expect(needsRepair(bytes))
            let repaired = repair(bytes)
            #expect(repaired.outcome.invalidSequences == 4, "\(bytes)")
            #expect(repaired.bytes.count == 12)
        }
    }

    @Test func maximalSubpartBecomesOneReplacement() {
        let repaired = repair([0xE1, 0x80, 0x41])
        #expect(repaired.bytes == replacement + [0x41])
        #expect(repaired.outcome.invalidSequences == 1)

        // Unicode's example: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 gives
        // a FFFD FFFD FFFD b FFFD c FFFD FFFD d.
        let example: [UInt8] = [0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64]
        let result = repair(example)
        #expect(String(decoding: result.bytes, as: UTF8.self) == "a\u{FFFD}\u{FFFD}\u{FFFD}b\u{FFFD}c\u{FFFD}\u{FFFD}d")
        #expect(result.outcome.invalidSequences == 6)
    }

    @Test func nulBytesAreRemovedAndCounted() {
        let bytes: [UInt8] = [0x00, 0x61, 0x00, 0x62, 0x00, 0x00, 0x63, 0x00]
        #expect(needsRepair(bytes))
        let repaired = repair(bytes)
        #expect(repaired.bytes == Array("abc".utf8))
        #expect(repaired.outcome.length == 3)
        #expect(repaired.outcome.invalidSequences == 0)
        #expect(repaired.outcome.nulBytes == 5)
    }

    @Test func nulBetweenLeadAndContinuation() {
        let repaired = repair([0xC3, 0x00, 0xA9])
        #expect(repaired.bytes == replacement + replacement)
        #expect(repaired.outcome.invalidSequences == 2)
        #expect(repaired.outcome.nulBytes == 1)
    }

    @Test func worstCaseFitsTheCapacity() {
        let bytes = [UInt8](repeating: 0x80, count: 100)
        let repaired = repair(bytes)
        #expect(TextRepair.repairedCapacity(100) == 300)
        #expect(repaired.outcome.length == 300)
        #expect(repaired.outcome.invalidSequences == 100)
    }

    // MARK: The fast skip

    @Test(arguments: [0, 15, 16, 31, 33])
    func badByteAtPositionInLongText(position: Int) {
        for length in [34, 40, 48, 65] {
            for bad: [UInt8] in [[0x80], [0x00], [0xC3], [0xE6, 0x97], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xFF]] {
                var bytes = Array(String(repeating: "abcdefghij", count: 7).utf8.prefix(length))
                let stop = min(position + bad.count, length)
                bytes.replaceSubrange(position..<stop, with: bad.prefix(stop - position))
                #expect(needsRepair(bytes), "\(bad) at \(position) of \(length)")
            }
        }
    }

    @Test(arguments: [0, 15, 16, 31, 33])
    func badByteAfterValidMultibyteText(position: Int) {
        // Non-ASCII text before the bad byte makes the scan resume after
        // each valid sequence.
        var bytes = Array("é日😀aé日😀bé日😀cé日😀d".utf8)
        while bytes.count < 48 { bytes.append(UInt8(ascii: "z")) }
        #expect(!needsRepair(bytes))
        // 0xFF is never valid, whatever surrounds it.
        bytes[position] = 0xFF
        #expect(needsRepair(bytes))
    }

    @Test func matchesSwiftsDecoderOnRandomBytes() {
        // Swift's UTF-8 decoding also follows the maximal-subpart practice:
        // repair must give the same text, minus NULs.
        var generator = SeededGenerator(seed: 0x5EED)
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0xA0, 0x90,
            0x8F,
        ]
        for round in 0..<5000 {
            let count = Int.random(in: 0...70, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator)
                    ? interesting.randomElement(using: &generator)!
                    : UInt8.random(in: 0x20...0x7E, using: &generator)
            }
            let decoded = String(decoding: bytes, as: UTF8.self)
            let expected = Array(decoded.utf8).filter { $0 != 0 }
            let valid = String(validating: bytes, as: UTF8.self) != nil && !bytes.contains(0)
            let repaired = repair(bytes)
            #expect(repaired.bytes == expected, "round \(round): \(bytes)")
            #expect(repaired.outcome.nulBytes == bytes.filter { $0 == 0 }.count)
            #expect(needsRepair(bytes) == !valid, "round \(round): \(bytes)")
            if repaired.bytes != expected || needsRepair(bytes) == valid { break }
        }
    }
}
