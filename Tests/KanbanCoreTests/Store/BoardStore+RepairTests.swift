import Foundation
import Testing
@testable import KanbanCore

/// ``BoardStore/repair()``: fixing what is safe to fix, keeping the order people see.
@Suite struct BoardStoreRepairTests {
    private static let repairedCodes: Set<Diagnostic.Code> = [.staleColumn, .missingFrontmatter, .missingPosition,
                                                              .duplicatePosition, .overLongKey]

    @Test(arguments: [TemporaryBoard.Source.fixture("simplekanban"), .fixture("messy"), .sample])
    func repairKeepsTheOrderAndLeavesNothingItCouldFix(source: TemporaryBoard.Source) throws {
        try withTemporaryBoard(source) { board in
            let store = try board.store()
            let order = try store.load().cards.map(\.path)
            let before = try board.snapshot()
            let (repairs, change) = try store.repair()
            #expect(!repairs.isEmpty)
            #expect(TemporaryBoard.changedPaths(from: before, to: try board.snapshot()) == Set(change.paths))
            #expect(Set(repairs.map(\.path)).isSubset(of: Set(change.writtenPaths)))
            #expect(try store.load().cards.map(\.path) == order, "the order people see does not change")
            let left = try store.check().filter { Self.repairedCodes.contains($0.code) }
            #expect(left.isEmpty, "\(left.map(\.description))")
            for column in try store.load().columnIDs {
                let keys = try store.load().cards(inColumn: column).map(\.position)
                #expect(keys.allSatisfy { $0 != nil })
                let present = keys.compactMap { $0 }
                #expect(zip(present, present.dropFirst()).allSatisfy { $0.utf8Precedes($1) }, "\(column): \(present)")
            }
        }
    }

    @Test func repairingTwiceChangesNothingTheSecondTime() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            _ = try store.repair()
            let before = try board.snapshot()
            let (repairs, change) = try store.repair()
            #expect(repairs.isEmpty)
            #expect(change.paths.isEmpty)
            #expect(try board.snapshot() == before)
        }
    }

    @Test func repairFixesTheMessyBoardsCardsAndLeavesTheRestForAPerson() throws {
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            let untouched = ["cards/doing/unclosed.md", "cards/todo/dup.md", "cards/done/dup.md", "cards/someday/learn-rust.md",
                             "cards/doing/undeclared-label.md", "cards/done/ship-v1.md", "cards/todo/fix-login.md~",
                             "cards/todo/notes.txt", "board.md"]
            let kept = try untouched.map { try board.bytes($0) }
            let (repairs, _) = try store.repair()
            #expect(try untouched.map { try board.bytes($0) } == kept)
            let byPath = Dictionary(grouping: repairs, by: \.path)
            #expect(byPath["cards/done/moved-by-hand.md"]?.map(\.code) == [.staleColumn])
            #expect(byPath["cards/doing/call-the-plumber.md"]?.map(\.code) == [.missingFrontmatter])
            #expect(byPath["cards/done/write-changelog.md"]?.map(\.code) == [.duplicatePosition])

            let moved = try store.card("moved-by-hand")
            #expect(moved.columnField == "done")
            let plumber = try store.card("call-the-plumber")
            #expect(plumber.hasFrontmatter)
            #expect(plumber.title == "Call the plumber")
            #expect(plumber.columnField == "doing")
            #expect(plumber.created == fixedNow)
            #expect(plumber.body == "# Call the plumber\n\nThe kitchen tap drips.\n")
            #expect(try store.check().map(\.code).sorted { $0.rawValue < $1.rawValue }
                == [.duplicateSlug, .invalidFile, .undeclaredColumn, .undeclaredLabel])
        }
    }

    @Test func repairRewritesOnlyThePositionLineOfACardWithASharedPosition() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            let store = try board.store()
            let path = "cards/todo/update-pricing-page.md"
            let old = lines(of: try board.bytes(path))
            let (repairs, _) = try store.repair()
            #expect(Set(repairs.map(\.path)) == ["cards/todo/update-pricing-page.md", "cards/done/compress-hero-images.md",
                                                 "cards/done/set-up-staging-site.md"])
            #expect(repairs.allSatisfy { $0.code == .duplicatePosition })
            let new = lines(of: try board.bytes(path))
            #expect(new.count == old.count)
            #expect(Set(zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)) == [3])
            #expect(try board.text(path).hasSuffix("- [ ] Comparison table"), "no final newline is added")
        }
    }

    @Test func repairShortensAnOverLongKey() throws {
        try withTemporaryBoard(.fixture("simplekanban")) { board in
            try board.write(Fixtures.cardBytes("long-key.md"), to: "cards/todo/long-key.md")
            let store = try board.store()
            let (repairs, _) = try store.repair()
            #expect(repairs.first { $0.path == "cards/todo/long-key.md" }?.code == .overLongKey)
            let position = try #require(try store.card("long-key").position)
            #expect(!OrderKey.isOverLong(position))
            #expect(try store.load().slugs(inColumn: "todo").first == "long-key")
        }
    }
}

/// ``BoardStore/repair()`` and a card the merge driver kept inside another (two cards added under one name).
@Suite struct BoardStoreRepairKeptCardTests {
    private static func card(_ title: String, created: String, body: String) -> String {
        "---\ntitle: \(title)\ncolumn: todo\nposition: n\ncreated: \(created)\nmodified: \(created)\nlabels: []\n---\n\n\(body)"
    }

    @Test(arguments: ["\n", "\r\n"])
    func splitsAKeptCardIntoACardOfItsOwn(newline: String) throws {
        try withTemporaryBoard(.team) { board in
            let mine = Self.card("Write docs", created: "2026-01-01T09:00:00Z", body: "Ana's plan\n")
            let other = Self.card("Write docs", created: "2026-01-01T09:05:00Z", body: "Ben's plan\n")
            let host = CardMerge.keeping(Array(other.utf8), in: Array(mine.utf8))
            let text = String(decoding: host, as: UTF8.self).replacingOccurrences(of: "\n", with: newline)
            try board.write(text, to: "cards/todo/write-docs.md")
            try board.write(Self.card("Write docs", created: "2026-01-01T08:00:00Z", body: "Done\n")
                .replacingOccurrences(of: "column: todo", with: "column: done"), to: "cards/done/write-docs-2.md")  // -2 is taken
            let store = try board.store()
            #expect(try store.check().contains { $0.code == .keptCard && $0.location.path == "cards/todo/write-docs.md" })

            let (repairs, change) = try store.repair()
            #expect(repairs.map(\.code) == [.keptCard])
            let renamed = "cards/todo/write-docs-" + String(UInt64(try #require(ISO8601.date(from: "2026-01-01T09:05:00Z")).timeIntervalSince1970), radix: 36) + ".md"
            #expect(repairs.map(\.path) == [renamed])
            #expect(Set(change.writtenPaths) == ["cards/todo/write-docs.md", renamed])
            let crlf = newline == "\r\n"
            let expectedHost = crlf ? mine.replacingOccurrences(of: "\n", with: "\r\n") : mine
            #expect(String(decoding: try store.contents(atPath: "cards/todo/write-docs.md"), as: UTF8.self) == expectedHost)
            let split = String(decoding: try store.contents(atPath: renamed), as: UTF8.self)
            #expect(split == (crlf ? other.replacingOccurrences(of: "\n", with: "\r\n") : other))
            #expect(!(try store.check()).contains { $0.code == .keptCard })
        }
    }
}

/// ``BoardStore/repair()`` and labels written in quotes, which SimpleKanban reads as part of the id (issue 20).
@Suite struct BoardStoreRepairQuotedLabelTests {
    /// `["2024"]` quoted once more, as earlier versions of kanban did on every edit, `times` times.
    private static func damaged(_ id: String, times: Int) -> String {
        (0..<times).reduce(id) { text, _ in YAMLScalarWriter.doubleQuoted(text) }
    }

    @Test(arguments: [("\"2024\"", "2024"), ("'on'", "on"), (#""\"2024\"""#, "2024"), ("\"~\"", "~"), ("'\"yes\"'", "yes")])
    func aLabelInQuotesStandsForTheIDInside(written: String, id: String) {
        #expect(AppDialect.unquotedLabel(written) == id)
    }

    @Test(arguments: ["2024", "ui", "\"", "\"\"", "\"a b\"", "\"a, b\"", "\"x", "'x\""])
    func aLabelNotInQuotesOrWithNoValidIDInsideIsLeftAlone(written: String) {
        #expect(AppDialect.unquotedLabel(written) == nil)
    }

    @Test(arguments: 1...6)
    func everyNestingOfEscapedQuotesCollapsesToTheID(times: Int) {
        #expect(AppDialect.unquotedLabel(Self.damaged("2024", times: times)) == "2024")
    }

    @Test func doctorReportsQuotedLabelsAndRepairWritesTheIDs() throws {
        try withTemporaryBoard(.team) { board in
            let store = try board.store()
            try store.addLabel(id: "2024")
            let card = { (labels: String) in
                "---\ntitle: A card\ncolumn: todo\nposition: n\ncreated: 2026-01-05T10:00:00Z\nmodified: 2026-01-05T10:00:00Z\nlabels: \(labels)\n---\n\nBody"
            }
            try board.write(card(#"["\"2024\"", ui]"#), to: "cards/todo/once.md")
            try board.write(card("[\(Self.damaged("2024", times: 4)), ui, 2024]").replacingOccurrences(of: "position: n", with: "position: t"),
                            to: "cards/todo/deeper.md")
            try board.write(card(#"["\"2024\"", ui]"#).replacingOccurrences(of: "title: A card", with: "title: Old"), to: "archive/2026-01-06-old.md")
            let found = try store.check().filter { $0.code == .quotedLabel }
            #expect(found.map(\.location.path) == ["archive/2026-01-06-old.md", "cards/todo/deeper.md", "cards/todo/once.md"])
            #expect(found.allSatisfy { $0.severity == .warning && $0.location.line == 7 && $0.message.contains("writes it as 2024") },
                    "\(found.map(\.description))")
            #expect(try store.check().filter { $0.code == .undeclaredLabel }.isEmpty)

            let (repairs, _) = try store.repair()
            #expect(repairs.filter { $0.code == .quotedLabel }.map(\.path).sorted() == ["archive/2026-01-06-old.md", "cards/todo/deeper.md", "cards/todo/once.md"])
            #expect(try board.text("cards/todo/once.md") == card("[2024, ui]"))
            #expect(try board.text("cards/todo/deeper.md") == card("[2024, ui]").replacingOccurrences(of: "position: n", with: "position: t"))
            #expect(try board.text("archive/2026-01-06-old.md") == card("[2024, ui]").replacingOccurrences(of: "title: A card", with: "title: Old"))
            let left = try store.check().filter { $0.location.path != "board.md" }
            #expect(left.isEmpty, "\(left.map(\.description))")
            #expect(try store.repair().repairs.isEmpty)
        }
    }
}
