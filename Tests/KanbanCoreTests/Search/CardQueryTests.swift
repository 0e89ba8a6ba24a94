import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

@Suite struct CardQueryTests {
    /// A search that must read nearly every card's body leaves the index alone (it would only send each file to be
    /// read); one with a term the index can decide a card on uses it.
    @Test(arguments: [("criteria", true), ("acceptance criteria", true), ("criteria -draft", true), ("title:login", false),
                      ("title:login criteria", false), ("label:bug criteria", false), ("column:todo", false), ("-criteria", false),
                      ("-label:bug criteria", true)])
    func readsEveryBodyOnlyWhenNothingButTheBodyCanDecide(query: String, readsEveryBody: Bool) throws {
        #expect(try CardQuery(parsing: query).readsEveryBody == readsEveryBody, "\(query)")
        #expect(try CardQuery(regularExpression: "crit.ria").readsEveryBody)
    }

    private static func card(_ text: String, slug: String = "fix-login", column: String = "todo") throws -> (Card, [UInt8], Int) {
        let bytes = Array(text.utf8)
        let (card, document) = try CardReader.read(bytes, file: CardFile.active(name: slug + ".md", column: column), includeBody: true)
        return (card, bytes, document.bodyOffset)
    }

    @Test(arguments: [
        ("login", true), ("LOGIN safari", true), ("login -safari", false), ("\"login page\"", true), ("\"page login\"", false),
        ("label:bug", true), ("label:bu", false), ("-label:bug", false), ("column:todo", true), ("column:done", false),
        ("title:fix", true), ("title:safari", false), ("cafe", true), ("CAFÉ", true), ("bug", true),
    ])
    func matchesWordsPhrasesAndFilters(query: String, matches: Bool) throws {
        let (card, _, _) = try Self.card("---\ntitle: Fix login\nlabels: [bug]\n---\n\nThe login page breaks on Safari at the café.\n")
        let parsed = try CardQuery(parsing: query)
        #expect((parsed.match(card, body: card.body ?? "") != nil) == matches)
    }

    @Test func showsTheFirstLineHoldingAWordWithEveryMatchInIt() throws {
        let (card, _, _) = try Self.card("---\ntitle: Fix it\n---\n\nNothing here.\nLogin, then login again.\n")
        let match = try #require(try CardQuery(parsing: "login").match(card, body: card.body ?? ""))
        #expect(match.lineNumber == 2)
        #expect(match.ranges.map { String(match.line[$0]) } == ["Login", "login"])
    }

    // MARK: The byte-level paths agree with the string-level one

    private static let words = ["login", "Login", "LOGIN", "safari", "café", "cafe", "Straße", "strasse", "日本", "bug",
                                "page", "fix", "todo", "the", "a", "x1", "in-progress", "it's", "naïve", "naive", "ŁÓDŹ"]

    private static func text(_ generator: inout SeededGenerator) -> (text: String, slug: String, column: String) {
        func pick<T>(_ items: [T]) -> T { items.randomElement(using: &generator)! }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
        func phrase() -> String { (0..<Int.random(in: 1...4, using: &generator)).map { _ in pick(words) }.joined(separator: " ") }
        var head = "---\n"
        if chance(85) {
            let title = phrase()
            head += pick(["title: \(title)\n", "title: \"\(title.replacingOccurrences(of: "é", with: "\\u00e9"))\"\n",
                          "title: '\(title.replacingOccurrences(of: "'", with: "''"))'\n", "title: \(title)\n  \(phrase())\n"])
        }
        if chance(60) { head += "labels: [\(pick(["bug", "ux", "in-progress", "café", "Todo"])), \(pick(["bug", "x1"]))]\n" }
        head += "position: a1\n---\n"
        var body = ""
        for _ in 0..<Int.random(in: 0...5, using: &generator) {
            body += pick(["", "# ", "- [ ] ", "  "]) + phrase() + pick(["\n", "\n", "\r\n", ""])
        }
        let text = chance(5) ? "# \(phrase())\n" + body : head + pick(["", "\n"]) + body
        return (text, pick(["fix-login", "safari-bug", "strasse", "x"]), pick(["todo", "done", "café"]))
    }

    private static func query(_ generator: inout SeededGenerator) -> String {
        func pick<T>(_ items: [T]) -> T { items.randomElement(using: &generator)! }
        func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
        return (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            var term = chance(15) ? "\"\(pick(words)) \(pick(words))\"" : pick(words)
            if chance(20) { term = pick(["label:", "column:", "title:"]) + pick(words + ["bug", "todo", "done"]) }
            return (chance(20) ? "-" : "") + term
        }.joined(separator: " ")
    }

    @Test(arguments: [1, 2, 3])
    func theByteLevelMatchTheQuickLookAndTheIndexedMatchAgreeWithTheStringMatch(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var matched = 0
        var decidedWithoutBody = 0
        var ruledOutByTitle = 0
        for _ in 0..<4_000 {
            let (text, slug, column) = Self.text(&generator)
            guard let (card, bytes, bodyOffset) = try? Self.card(text, slug: slug, column: column) else { continue }
            let query = try CardQuery(parsing: Self.query(&generator))
            let expected = query.match(card, body: card.body ?? "")
            var bodiless = card
            bodiless.body = nil
            let fromBytes = query.match(bodiless, bytes: bytes, bodyOffset: bodyOffset)
            #expect(fromBytes == expected, "\(query.terms.map(\.text)) on \(text.debugDescription)")
            // What a search taking the card from the index decides without the body is what the body gives.
            if case .some(let decided) = query.matchWithoutBody(bodiless) {
                decidedWithoutBody += 1
                #expect(decided == expected, "without the body: \(query.terms.map(\.text)) on \(text.debugDescription)")
            }
            var title = card.title
            if !title.withUTF8({ query.mightMatch(title: $0) }) {
                ruledOutByTitle += 1
                #expect(expected == nil, "the title's look ruled out a match: \(query.terms.map(\.text)) on \(text.debugDescription)")
            }
            if expected != nil {
                matched += 1
                #expect(query.mightMatch(CardFile.active(name: slug + ".md", column: column), bytes: bytes),
                        "\(query.terms.map(\.text)) ruled out \(text.debugDescription)")
            }
        }
        #expect(matched > 200)
        #expect(decidedWithoutBody > 500, "\(decidedWithoutBody)")
        #expect(ruledOutByTitle > 50, "\(ruledOutByTitle)")
    }

    @Test func theWordAtATimeASCIICheckAgreesWithAByteLoop() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in
                Int.random(in: 0..<10, using: &generator) == 0 ? [0x5C, 0x0D, 0x80, 0xC3, 0xFF, 0x5B, 0x1C].randomElement(using: &generator)!
                    : UInt8.random(in: 0x20..<0x7F, using: &generator)
            }
            for excluded: UInt8 in [0x5C, 0x0D] {
                let expected = !bytes.contains { $0 >= 0x80 || $0 == excluded }
                #expect(bytes.withUnsafeBufferPointer { ASCIIText.isASCII($0, without: excluded) } == expected, "\(bytes)")
            }
        }
    }

    @Test func theCaseInsensitiveSearchFindsEveryOccurrence() {
        let text = Array("Login, LOGIN and login; logi".utf8)
        var found: [Int] = []
        var start = 0
        while let range = text.withUnsafeBufferPointer({ ASCIIText.firstRange(of: Array("login".utf8), in: $0, from: start) }) {
            found.append(range.lowerBound)
            start = range.upperBound
        }
        #expect(found == [0, 7, 17])
        #expect(text.withUnsafeBufferPointer { ASCIIText.firstRange(of: Array("logins".utf8), in: $0, from: 0) } == nil)
    }

    @Test func theCaseInsensitiveSearchAgreesWithANaiveOne() {
        var generator = SeededGenerator(seed: 11)
        // Bytes one bit (0x20) apart from letters and from each other, which folding must keep apart; long enough
        // haystacks to be searched a word (eight bytes) at a time.
        let alphabet = Array("aAbB-1 @`[{".utf8) + [0xC1, 0xE1]
        for _ in 0..<20_000 {
            let haystack = (0..<Int.random(in: 0..<70, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let needle = (0..<Int.random(in: 1..<4, using: &generator)).map { _ in ASCIIText.lower(alphabet.randomElement(using: &generator)!) }
            let start = Int.random(in: 0...haystack.count, using: &generator)
            let naive = haystack.count - needle.count < start ? nil : (start...(haystack.count - needle.count)).first { index in
                (0..<needle.count).allSatisfy { ASCIIText.lower(haystack[index + $0]) == needle[$0] }
            }.map { $0..<($0 + needle.count) }
            let found = haystack.withUnsafeBufferPointer { ASCIIText.firstRange(of: needle, in: $0, from: start) }
            #expect(found == naive, "\(needle) in \(haystack) from \(start)")
        }
    }

    @Test func theQuickLookRulesOutFilesWithoutTheWord() throws {
        let bytes = Array("---\ntitle: Fix login\nlabels: [bug]\n---\n\nBody.\n".utf8)
        let file = CardFile.active(name: "fix-login.md", column: "todo")
        #expect(try !CardQuery(parsing: "safari").mightMatch(file, bytes: bytes))
        #expect(try !CardQuery(parsing: "label:ux").mightMatch(file, bytes: bytes))
        #expect(try !CardQuery(parsing: "column:done").mightMatch(file, bytes: bytes))
        #expect(try CardQuery(parsing: "-safari").mightMatch(file, bytes: bytes))
        #expect(try CardQuery(parsing: "LOGIN").mightMatch(file, bytes: bytes))
        // Not judged: an escape could spell the word, and a card without a title takes it from its file name.
        #expect(try CardQuery(parsing: "cafe").mightMatch(file, bytes: Array("---\ntitle: \"Caf\\u00e9\"\n---\n".utf8)))
        #expect(try CardQuery(parsing: "login").mightMatch(file, bytes: Array("---\nposition: a1\n---\n".utf8)))
    }

    // MARK: Labels the board has not

    @Test(arguments: ["label:nosuch", "-label:nosuch", "login label:nosuch", "label:bug label:bgu"])
    func aLabelTheBoardHasNotIsRefusedAsListRefusesIt(query: String) throws {
        // Issue 20: `label:nosuch` matched nothing and said nothing, as `list --label nosuch` did.
        try withTemporaryBoard(.fixture("messy")) { board in
            let store = try board.store()
            let error = expectKanbanError(.labelNotFound) { try store.search(try CardQuery(parsing: query)) }
            #expect(error?.message.hasPrefix("no label '") == true, "\(String(describing: error))")
            #expect(error?.candidates == ["bug", "ui"])
        }
    }

    @Test(arguments: ["label:bug", "label:BUG", "-label:ui", "label:urgent", "-label:urgent", "nothing-matches label:bug"])
    func aLabelDeclaredOrCarriedByACardIsSearchedFor(query: String) throws {
        // `urgent` is not declared in board.md, but a card carries it (and doctor reports that).
        try withTemporaryBoard(.fixture("messy")) { board in
            _ = try board.store().search(try CardQuery(parsing: query))
        }
    }
}

