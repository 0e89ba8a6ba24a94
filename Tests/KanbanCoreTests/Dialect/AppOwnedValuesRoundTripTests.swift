import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// Every value of every key SimpleKanban owns in a card (`title`, `column`, `position`, `created`, `modified`,
/// `labels`) survives kanban's own writing and reading (issue 20): written, read back and written again, it is the
/// same value and the same bytes, whichever reader reads it (the plain fast path or the YAML parser), and writing
/// what was read onto the file changes nothing, however often that is repeated.
@Suite struct AppOwnedValuesRoundTripTests {
    /// The keys SimpleKanban owns in a card.
    enum OwnedKey: String, CaseIterable {
        case title, column, position, created, modified, labels
    }

    /// Label ids a YAML reader takes for something other than text, or that look like quoted text.
    static let yamlWords = ["2024", "1.0", "on", "true", "null", "yes", "Yes", "y", "~", "0x1F", "NULL", "off", "no", "n",
                            "1e3", ".inf", "-1", "+1", "0o17", "1:20", "2026-01-05", "<<", "=", "'q'", "\"q\"", "\\\"x\\\""]

    /// One line of text made of the pieces YAML treats specially (`: `, ` #`, quotes, brackets, YAML 1.1 words,
    /// numbers, dates, spaces at either end, control characters, unicode), without a line break: a card's owned
    /// values are one line each.
    private static func randomLine(_ generator: inout SeededGenerator) -> String {
        var text = ""
        while text.isEmpty {
            text = randomTrickyString(using: &generator, maximumPieces: 5).filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
        }
        return text
    }

    /// A label: a YAML word or number as it is, or a random line with or without commas and spaces (not empty,
    /// since an empty label is no label).
    private static func randomLabel(_ generator: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return yamlWords.randomElement(using: &generator)!
        case 1:
            let word = randomLine(&generator).filter { !$0.isWhitespace && $0 != "," }
            return word.isEmpty ? "x" : word
        default: return randomLine(&generator)
        }
    }

    /// A random value for `key`, as the store gives it to the document.
    private static func randomValue(for key: OwnedKey, _ generator: inout SeededGenerator) -> YAMLValue {
        switch key {
        case .title, .column, .position:
            return .string(randomLine(&generator))
        case .created, .modified:
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800, using: &generator)))
            return .unquoted(ISO8601.string(from: date))
        case .labels:
            return .list((0..<Int.random(in: 0...4, using: &generator)).map { _ in .string(randomLabel(&generator)) })
        }
    }

    private static let file = CardFile.active(name: "a-card.md", column: "todo")

    /// A card as `kanban add` writes it, with `value` at `key`.
    private static func newCard(_ value: YAMLValue, at key: OwnedKey) -> [UInt8] {
        var entries: [YAMLMapEntry] = [
            YAMLMapEntry(key: "title", value: .string("A card")), YAMLMapEntry(key: "column", value: .string("todo")),
            YAMLMapEntry(key: "position", value: .string("n")), YAMLMapEntry(key: "created", value: .unquoted("2026-01-05T10:00:00Z")),
            YAMLMapEntry(key: "modified", value: .unquoted("2026-01-05T10:00:00Z")), YAMLMapEntry(key: "labels", value: .list([])),
        ]
        entries[OwnedKey.allCases.firstIndex(of: key)!].value = value
        return FrontmatterDocument(entries: entries, body: "Body", dialect: .card).bytes()
    }

    /// A card the app wrote, edited by kanban (as `kanban set`, `move` and `sync` do) to have `value` at `key`.
    private static func editedCard(_ value: YAMLValue, at key: OwnedKey) throws -> [UInt8] {
        let text = SimpleKanbanApp.cardFile(title: "A card", column: "todo", position: "n", labels: ["bug"], body: "Body")
        var document = try CardReader.read(Array(text.utf8), file: file, includeBody: true).1
        document.setValue(value, forKey: key.rawValue)
        return document.bytes()
    }

    /// The value of `key` kanban reads from `bytes`, in the form the store writes it; the fast reader, where it
    /// answers, must read the same card as the parser.
    private static func read(_ key: OwnedKey, from bytes: [UInt8]) throws -> YAMLValue {
        let card = try CardReader.read(bytes, file: file, includeBody: true).0
        if let plain = CardReader.readPlain(bytes, file: file, includeBody: true)?.card {
            #expect(plain == card, "the fast reader reads \(String(decoding: bytes, as: UTF8.self).debugDescription) otherwise")
        }
        switch key {
        case .title: return .string(card.title)
        case .column: return .string(card.columnField ?? "")
        case .position: return .string(card.position ?? "")
        case .created: return .unquoted(card.created.map(ISO8601.string(from:)) ?? "")
        case .modified: return .unquoted(card.modified.map(ISO8601.string(from:)) ?? "")
        case .labels: return .list(card.labels.map { .string($0) })
        }
    }

    /// What goes wrong when `value` is written at `key` (new, and into the app's card), read, and written again.
    static func roundTrip(_ value: YAMLValue, at key: OwnedKey) -> String? {
        do {
            for (how, write) in [("new", { newCard($0, at: key) }), ("edited", { try editedCard($0, at: key) })] as [(String, (YAMLValue) throws -> [UInt8])] {
                let first = try write(value)
                let shown = String(decoding: first, as: UTF8.self).debugDescription
                let read = try Self.read(key, from: first)
                guard read == value else { return "\(how): reads back as \(read) from \(shown)" }
                let second = try write(read)
                guard second == first else { return "\(how): written again as \(String(decoding: second, as: UTF8.self).debugDescription), first \(shown)" }
                // What `kanban set` does to a card it read: the same value set again changes nothing, every time.
                var document = try CardReader.read(first, file: file, includeBody: true).1
                for _ in 0..<3 { document.setValue(read, forKey: key.rawValue) }
                guard document.bytes() == first else {
                    return "\(how): set again on the file gives \(String(decoding: document.bytes(), as: UTF8.self).debugDescription), first \(shown)"
                }
            }
            return nil
        } catch {
            return "cannot be read back: \(error)"
        }
    }

    @Test(arguments: AppOwnedValuesRoundTripTests.yamlWords)
    func aLabelThatLooksLikeANumberOrAYAMLWordIsWrittenAsTheAppReadsIt(id: String) throws {
        #expect(Self.roundTrip(.list([.string(id), .string("ui")]), at: .labels) == nil)
        let text = String(decoding: Self.newCard(.list([.string(id), .string("ui")]), at: .labels), as: UTF8.self)
        #expect(text.contains("\nlabels: [\(id), ui]\n"), "\(text)")
        #expect(SimpleKanbanApp.labels(SimpleKanbanApp.cardValues(text)?["labels"]) == [id, "ui"])
    }

    @Test(arguments: OwnedKey.allCases)
    func everyGeneratedValueWrittenReadAndWrittenAgainGivesTheSameBytes(key: OwnedKey) {
        var generator = SeededGenerator(seed: 20 + UInt64(OwnedKey.allCases.firstIndex(of: key)!))
        var failures: [String] = []
        let cases = 2_000
        for _ in 0..<cases {
            let value = Self.randomValue(for: key, &generator)
            if let failure = Self.roundTrip(value, at: key) { failures.append("\(value): \(failure)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases): \(failures.prefix(8).joined(separator: "\n"))")
    }
}
