import KanbanTestSupport
import Testing

@testable import KanbanCore

@Suite struct FrontmatterFuzzTests {
    static let seeds: [String] = [
        FrontmatterDocumentTests.simpleKanbanCard,
        FrontmatterDocumentTests.board,
        FrontmatterDocumentTests.roundTripFixtures.last ?? "",
        "---\r\ntitle: \"a \\\"b\\\" \\u00e9\"\r\nlist: [x, {y: 'z'}]\r\nnotes: |+\r\n  text\r\n\r\n---\r\nbody",
    ]

    /// Bytes that tend to matter to the parser.
    static let interestingBytes: [UInt8] =
        Array("-:#'\"[]{},|>&*!?%@` \t\n\r\\~0aZ".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xE2, 0xEF, 0xFF]

    @Test func randomMutationsNeverTrap() {
        var generator = SeededGenerator(seed: 0xF022)
        var parsedCount = 0
        for round in 0..<4000 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                mutate(&bytes, using: &generator)
            }
            guard let file = try? FrontmatterDocument(bytes: bytes) else { continue }
            parsedCount += 1
            #expect(file.bytes() == bytes)
            _ = file.body
            var edited = file
            if let first = file.entries.first {
                edited.setValue(.string("edited: value"), forKey: first.key)
                edited.setValue(
                    .list([.string("x"), .map([YAMLMapEntry(key: "k", value: .string("v"))])]), forKey: "new")
                edited.removeValue(forKey: first.key)
            }
            edited.setBody("new body\n")
            #expect(reparsesToSameModel(edited), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
        #expect(parsedCount > 500)
    }

    @Test func randomBytesNeverTrap() {
        var generator = SeededGenerator(seed: 0xB17E5)
        for _ in 0..<3000 {
            var bytes = Array("---\n".utf8)
            for _ in 0..<Int.random(in: 0...80, using: &generator) {
                bytes.append(Self.interestingBytes[Int.random(in: 0..<Self.interestingBytes.count, using: &generator)])
            }
            bytes += Array("\n---\n".utf8)
            if let file = try? FrontmatterDocument(bytes: bytes) {
                #expect(file.bytes() == bytes)
            }
        }
    }

    private func mutate(_ bytes: inout [UInt8], using generator: inout SeededGenerator) {
        guard !bytes.isEmpty else {
            bytes.append(Self.interestingBytes[0])
            return
        }
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        let interesting = Self.interestingBytes[Int.random(in: 0..<Self.interestingBytes.count, using: &generator)]
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: bytes[position] = interesting
        case 1: bytes.insert(interesting, at: position)
        case 2: bytes.remove(at: position)
        case 3:
            let end = min(bytes.count, position + Int.random(in: 1...12, using: &generator))
            bytes.insert(
                contentsOf: Array(bytes[position..<end]), at: Int.random(in: 0...bytes.count, using: &generator))
        default: bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
        }
    }
}
