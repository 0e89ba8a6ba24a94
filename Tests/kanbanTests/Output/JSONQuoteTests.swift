import Foundation
import KanbanTestSupport
import Testing

@testable import KanbanServer
@testable import kanban

/// `JSON.quote` copies a string whole when `JSON.isPlain` says nothing in it needs escaping; the look goes eight
/// bytes at a time, so it is held here to a byte-by-byte reading of the same rule.
@Suite struct JSONQuoteTests {
    /// The rule, a byte at a time: no C0 control, `"`, `\`, DEL, and no `C2` (a C1 control's first byte) or `E2`
    /// (U+2028 and U+2029's).
    private static func isPlainByteByByte(_ bytes: [UInt8]) -> Bool {
        !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
    }

    @Test(arguments: [1, 2, 3])
    func theWordLookAgreesWithTheByteLook(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        // Mostly plain bytes, with now and then one of those the rule names or one next to them.
        let unusual: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC1, 0xC2, 0xC3,
                                0xE1, 0xE2, 0xE3, 0xFF]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &random)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x23...0x5B, using: &random) }
            for _ in 0..<Int.random(in: 0...2, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = unusual.randomElement(using: &random)!
            }
            let word = bytes.withUnsafeBufferPointer(JSON.isPlain)
            #expect(word == Self.isPlainByteByByte(bytes), "\(bytes)")
            if word != Self.isPlainByteByByte(bytes) { return }
        }
    }

    /// What is escaped: C0 controls, DEL and the C1 controls as `\u00XX` (so that the JSON is safe on a terminal as it
    /// is), U+2028 and U+2029; other text, `©` and U+00A0 included, as it is.
    @Test func escapesEveryControlAndKeepsTheRest() {
        var output = ""
        JSON.quote("a\"\\\n\r\t\u{0}\u{1B}\u{7F}\u{80}\u{85}\u{9B}\u{9F}\u{A0}©é\u{2028}\u{2029}日本", into: &output)
        #expect(output == #""a\"\\\n\r\t\u0000\u001b\u007f\u0080\u0085\u009b\u009f\#u{A0}©é\u2028\u2029日本""#)
        var bytes = ByteWriter(capacity: 4)  // grown as it is written
        Array("ok © and more than four bytes".utf8).withUnsafeBytes { JSON.quote($0, into: &bytes) }
        JSON.quote("\u{9B}", into: &bytes)
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == #""ok © and more than four bytes""\u009b""#)
    }
}
