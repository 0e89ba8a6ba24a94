import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// The loader reads plain frontmatter without the YAML parser. Wherever it does, it must see what the parser sees:
/// these tests generate files that are plain, nearly plain and not plain at all, and compare.
@Suite struct PlainFrontmatterTests {
    private static let keys = ["title", "column", "position", "created", "modified", "labels", "due", "assignee",
                               "x-y", "_k", "K2", "-bad", "a b", "", "tïtle", "title "]
    private static let values = [
        "Fix login", "Fix: login", "Fix:login", "a #b", "a#b", "#x", "-x", "- x", "x:", "x: ", "'q'", "\"q\"", "q'", "a\"b",
        "[a, b]", "[a,b]", "[ a ]", "[]", "[a, [b]]", "[a, b,]", "[a,  b]", "[a, -b]", "[.a]", "[a.b, c/d]", "[a b]",
        "[a: b]", "[a#b]", "[café, 日本]", "[null, ~]", "[a\u{A0}, b]", "[\u{3000}x]", "x]", "[x", "{a: 1}", "{}", "null", "~", "true", "NULL",
        "2026-01-05T10:00:00Z", "2026-01-05T10:00:00.5+02:00", "2026-13-45", "yesterday", "café", "日本語", "x\u{85}y",
        "x\u{2028}y", "\u{FEFF}x", "tab\there", "trailing ", "trailing:", "|", ">", "|-", "&a", "*a", "!t", "%x", "@x",
        "`x", "a, b", "…", "ctrl\u{1}x", "", " lead", "a: b: c", "a1", "c15o", "Zz", "n0", "---", "...", "? x",
    ]
    private static let oddLines = ["# comment", "", "  indented: x", "  - item", "- item", "---", "...", "--- ",
                                   "<<<<<<< HEAD", "=======", ">>>>>>> main", "key", "key:", "key:\t1", "\t: x"]
    private static let bodies = ["", "\n", "\nBody\n", "Body", "\n# Heading\ntext", "\n\n# H\n", "\n<<<<<<< HEAD\n",
                                 "\r\nCRLF body\r\n", "\nx\u{0}y"]

    private static func document(_ generator: inout SeededGenerator) -> [UInt8] {
        func pick<T>(_ items: [T]) -> T { items.randomElement(using: &generator)! }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
        var text = chance(94) ? "---\n" : pick(["\u{FEFF}---\n", "--- \n", "---\r\n", "", "---"])
        var keys = Self.keys.prefix(chance(60) ? 6 : 16)
        for _ in 0..<Int.random(in: 0...8, using: &generator) {
            if chance(8) {
                text += pick(Self.oddLines) + "\n"
                continue
            }
            let key = chance(85) && !keys.isEmpty ? pick(Array(keys)) : pick(Self.keys)
            if chance(80) { keys.removeAll { $0 == key } }
            let separator = chance(94) ? ": " : pick([":", ":  ", ": \t", " : ", ":\t"])
            var value = chance(50) ? pick(Array(Self.values.prefix(24))) : pick(Self.values)
            if chance(10) { value += pick(Self.values) }
            if chance(10) { value = randomTrickyString(using: &generator, maximumPieces: 3) }
            text += key + separator + value + (chance(97) ? "\n" : "\r\n")
        }
        text += chance(92) ? "---" : pick(["--- ", "----", "", "---\t"])
        text += chance(90) ? "\n" : pick(["", "\r\n"])
        text += pick(Self.bodies)
        var bytes = Array(text.utf8)
        if chance(2), !bytes.isEmpty { bytes.insert(0xFF, at: Int.random(in: 0..<bytes.count, using: &generator)) }
        return bytes
    }

    @Test(arguments: [1, 2, 3, 4])
    func whereThePlainReaderAnswersItAgreesWithTheParser(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var answered = 0
        let file = CardFile.active(name: "card.md", column: "todo")
        for _ in 0..<25_000 {
            let bytes = Self.document(&generator)
            guard let plain = bytes.withUnsafeBufferPointer({ PlainFrontmatter.read($0) }) else { continue }
            answered += 1
            let shown = String(decoding: bytes, as: UTF8.self).debugDescription
            let document = try #require(try? FrontmatterDocument(bytes: bytes), "the parser rejects \(shown)")
            #expect(plain.entries == document.entries, "\(shown)")
            let body = bytes.withUnsafeBufferPointer { FrontmatterDocument.body(UnsafeBufferPointer(rebasing: $0[plain.bodyStart...]), usesCRLF: false) }
            #expect(body == document.body, "\(shown)")
            let full = try? CardReader.read(bytes, file: file, includeBody: true).0
            if let card = CardReader.readPlain(bytes, file: file, includeBody: true)?.card {
                #expect(card == full, "\(shown)")
            }
        }
        #expect(answered > 2_000, "the generator should make many plain files")
    }

    @Test func readsWhatSimpleKanbanWrites() throws {
        let text = "---\ntitle: Add album sharing\ncolumn: todo\nposition: c15o\ncreated: 2026-01-08T15:23:00Z\n"
            + "modified: 2026-01-09T09:44:00Z\nlabels: [infra, feature]\ndue: 2026-01-25\n---\n\n## Description\n\nText."
        let plain = try #require(Array(text.utf8).withUnsafeBufferPointer { PlainFrontmatter.read($0) })
        #expect(plain.entries.map(\.key) == ["title", "column", "position", "created", "modified", "labels", "due"])
        #expect(plain.entries[5].value == .list([.string("infra"), .string("feature")]))
        #expect(String(decoding: Array(text.utf8)[plain.bodyStart...], as: UTF8.self) == "## Description\n\nText.")
    }

    @Test(arguments: [
        "---\ntitle: x\n",  // never closed
        "---\ntitle: 'x'\n---\n",  // quoted
        "---\ntitle: x # note\n---\n",  // comment
        "---\ntitle: x\n  more\n---\n",  // continuation line
        "---\r\ntitle: x\r\n---\r\n",  // CRLF
        "\u{FEFF}---\ntitle: x\n---\n",  // byte order mark
        "---\ntitle: x\ntitle: y\n---\n",  // duplicate key
        "---\nlabels: [a,b]\n---\n",  // list not in SimpleKanban's spacing
        "---\nlabels: [a\u{A0}, b]\n---\n",  // a label SimpleKanban trims and YAML does not
        "# Just markdown\n",  // no frontmatter
    ])
    func leavesAnythingLessPlainToTheParser(text: String) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { PlainFrontmatter.read($0) } == nil)
    }

    @Test func theFixtureCardsAndTheSampleBoardLoadTheSameEitherWay() throws {
        let directories = [Fixtures.board("simplekanban").path, Fixtures.board("messy").path,
                           Fixtures.packageRoot.appendingPathComponent("SampleBoards/product-launch").path]
        var plainCount = 0
        for directory in directories {
            let store = try BoardStore(directory: directory)
            for card in try store.load(.all, includeBodies: true).cards {
                let bytes = try store.contents(of: card)
                let file = card.isArchived ? CardFile.archived(name: String(card.path.dropFirst("archive/".count)))
                    : CardFile.active(name: card.slug + ".md", column: card.column)
                if let plain = CardReader.readPlain(bytes, file: file, includeBody: true)?.card {
                    plainCount += 1
                    #expect(plain == card, "\(card.path)")
                }
            }
        }
        #expect(plainCount > 20, "most sample cards are plain")
    }
}
