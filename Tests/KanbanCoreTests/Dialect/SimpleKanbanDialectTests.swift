import Foundation
import KanbanTestSupport
import Testing
@testable import KanbanCore

/// kanban's reading and writing of the values SimpleKanban owns, against the app's own (a port in
/// ``SimpleKanbanApp``), on generated titles, column names and label names, both ways (issue 14):
/// - what the app writes, kanban reads as the app reads it;
/// - what kanban writes, the app reads back unchanged, and so does kanban;
/// - what kanban writes, a YAML reader reads the same too, whenever one way of writing the value exists that all
///   three read alike (else `doctor` warns).
@Suite struct SimpleKanbanDialectTests {
    /// Titles from the issue and from real boards, each awkward for one reader or another.
    static let awkwardTitles = [
        "[manual QA] convert 'wigging' decaying cards to vibrating random movement", "[WIP]", "{braces} title",
        "&anchor thing", "*star thing", "!important fix", "| pipe start", "- dash start", "'quoted' start", "%percent",
        "@mention", "`backtick` start", "Path: C:\\temp\\x", "Fix bug #123", "~", "C:\\new folder", "Path: C:\\\\temp",
        "QA: \"final\"", "Lumen: 2.0", "#42 crash", "null", "true", "0x1F", "1e3", "? question", ": colon start",
        "trailing colon:", "a, b, c", "\"fully quoted\"", "\"", "\\", "\\\"", "key: value # comment", ">folded", "tab\there",
        "yes", "no", "2026-01-05", "Fix: login \"quoted\" bug", "It's done", "'It''s done'", "é accent", "emoji 🎉",
        "no\u{A0}break", "100%", "<<merge",
    ]

    /// The characters generated values are made of: letters, and every character one of the readers treats specially.
    private static let alphabet: [Character] = Array("abcXYZ019 :\"'#[]{}&*!|>-%@`,?~\\\t.é🎉\u{A0}\u{3000}\u{1}\u{7F}")

    /// A random value of 1 to 12 characters.
    private static func randomValue(_ random: inout SeededGenerator) -> String {
        String((0..<Int.random(in: 1...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    /// What a card file's owned values are to kanban.
    private func kanbanCard(_ text: String) throws -> Card {
        try CardReader.read(Array(text.utf8), file: CardFile.active(name: "a-card.md", column: "todo"), includeBody: true).0
    }

    // MARK: The app writes, kanban reads

    /// A card the app wrote, for title, column and labels; whether kanban reads each owned value as the app does.
    private func agreesOnAppCard(title: String, column: String, labels: [String]) -> String? {
        let text = SimpleKanbanApp.cardFile(title: title, column: column, position: "n", labels: labels, body: "Body")
        guard let app = SimpleKanbanApp.cardValues(text) else { return "the app reads no frontmatter" }
        let card: Card
        do {
            card = try kanbanCard(text)
        } catch {
            return "kanban cannot read it: \(error)"
        }
        if let appTitle = app["title"], !appTitle.isEmpty, card.title != appTitle {
            return "title: app \(appTitle.debugDescription), kanban \(card.title.debugDescription)"
        }
        if let appColumn = app["column"], !appColumn.isEmpty, card.columnField != appColumn {
            return "column: app \(appColumn.debugDescription), kanban \(String(describing: card.columnField).debugDescription)"
        }
        if card.labels != SimpleKanbanApp.labels(app["labels"]) {
            return "labels: app \(SimpleKanbanApp.labels(app["labels"])), kanban \(card.labels)"
        }
        return card.position == "n" ? nil : "position: \(String(describing: card.position))"
    }

    @Test(arguments: SimpleKanbanDialectTests.awkwardTitles)
    func anAwkwardTitleTheAppWroteReadsAsTheAppReadsIt(title: String) {
        #expect(agreesOnAppCard(title: title, column: title, labels: []) == nil)
    }

    @Test func generatedCardsTheAppWroteReadAsTheAppReadsThem() {
        var random = SeededGenerator(seed: 14)
        var failures: [String] = []
        let cases = 20_000
        for _ in 0..<cases {
            let title = Self.randomValue(&random)
            let column = Self.randomValue(&random)
            // Labels as the app writes them: its reader splits at commas, so they hold none.
            let labels = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Self.randomValue(&random).replacingOccurrences(of: ",", with: "")
            }
            if let failure = agreesOnAppCard(title: title, column: column, labels: labels) {
                failures.append("\(title.debugDescription) / \(column.debugDescription) / \(labels): \(failure)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases): \(failures.prefix(10).joined(separator: "\n"))")
    }

    // MARK: kanban writes, the app (and YAML) read

    /// Whether one way of writing `value` exists that the app, kanban and a YAML reader all read as `value`: plain,
    /// when both the app and YAML read it plain; or in double quotes, which the app unescapes only `\"` in, when it
    /// holds no `\` (and no control character, which YAML wants escaped).
    private static func hasCommonForm(_ value: String, quotesEscaped: Bool) -> Bool {
        let plain = AppDialect.readsPlain(value, rule: quotesEscaped ? .cardValue : .boardItemValue) && AppDialect.isPlainYAML(value)
        let controls = value.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
        return plain || (!value.contains("\\") && !controls && (quotesEscaped || !value.contains("\"")))
    }

    /// What a YAML reader reads as text at `path` in the frontmatter of `text`; nil when it reads no text there.
    private func yamlText(_ text: String, _ path: (FrontmatterDocument) -> YAMLValue?) -> String? {
        guard let document = try? FrontmatterDocument(bytes: Array(text.utf8)), case .scalar(let scalar)? = path(document) else { return nil }
        if scalar.style == .plain, YAMLScalarWriter.isTypedInYAML12(scalar.value) { return nil }
        return scalar.value
    }

    /// A card kanban wrote with `title` (as `kanban add` does, and as `kanban set` does to an app's card): what
    /// goes wrong, if anything.
    private func agreesOnKanbanCard(title: String) -> String? {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { return nil }
        let created = FrontmatterDocument(entries: [YAMLMapEntry(key: "title", value: .string(title)),
                                                    YAMLMapEntry(key: "column", value: .string("todo")),
                                                    YAMLMapEntry(key: "position", value: .string("n")),
                                                    YAMLMapEntry(key: "labels", value: .list([]))],
                                          body: "Body", dialect: .card)
        var edited: FrontmatterDocument
        do {
            edited = try CardReader.read(Array(SimpleKanbanApp.cardFile(title: "Old", column: "todo", position: "n", labels: ["bug"], body: "Body").utf8),
                                         file: CardFile.active(name: "a-card.md", column: "todo"), includeBody: true).1
        } catch {
            return "cannot read the app's card: \(error)"
        }
        edited.setValue(.string(title), forKey: "title")
        for (how, document) in [("created", created), ("edited", edited)] {
            let text = String(decoding: document.bytes(), as: UTF8.self)
            guard let app = SimpleKanbanApp.cardValues(text), app["title"] == title else {
                return "\(how): the app reads \(SimpleKanbanApp.cardValues(text)?["title"]?.debugDescription ?? "nothing") from \(text.debugDescription)"
            }
            guard let card = try? kanbanCard(text), card.title == title else {
                return "\(how): kanban does not read it back from \(text.debugDescription)"
            }
            if Self.hasCommonForm(title, quotesEscaped: true), yamlText(text, { $0.value(forKey: "title") }) != title {
                return "\(how): YAML reads \(yamlText(text, { $0.value(forKey: "title") })?.debugDescription ?? "no text") from \(text.debugDescription)"
            }
        }
        return nil
    }

    @Test(arguments: SimpleKanbanDialectTests.awkwardTitles)
    func anAwkwardTitleKanbanWritesReadsTheSameEverywhere(title: String) {
        #expect(agreesOnKanbanCard(title: title) == nil)
    }

    @Test func generatedTitlesKanbanWritesReadTheSameEverywhere() {
        var random = SeededGenerator(seed: 41)
        var failures: [String] = []
        let cases = 20_000
        for _ in 0..<cases {
            let title = Self.randomValue(&random)
            if let failure = agreesOnKanbanCard(title: title) { failures.append("\(title.debugDescription): \(failure)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases): \(failures.prefix(10).joined(separator: "\n"))")
    }

    /// A board kanban wrote with these names (new, and edited from the app's board): what goes wrong, if anything.
    private func agreesOnKanbanBoard(title: String, columnName: String, labelName: String) -> String? {
        var ignored = 0
        return agreesOnKanbanBoard(title: title, columnName: columnName, labelName: labelName, yamlChecked: &ignored)
    }

    /// - Parameter yamlChecked: Incremented when the board could be checked with a YAML reader too.
    private func agreesOnKanbanBoard(title: String, columnName: String, labelName: String, yamlChecked: inout Int) -> String? {
        let names = [title, columnName, labelName].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard names.allSatisfy({ !$0.isEmpty }) else { return nil }
        let board = Board(title: names[0], columns: [Column(id: "todo", name: names[1]), Column(id: "done", name: "Done")],
                          labels: [Label(id: "bug", name: names[2], color: "#e74c3c")])
        let created = BoardFile(board: board)
        var edited: BoardFile
        do {
            edited = try BoardFile(bytes: Array("---\ntitle: Old\ncolumns:\n  - id: todo\n    name: To Do\n  - id: done\n    name: Done\nlabels:\n  - id: bug\n    name: Bug\n    color: \"#e74c3c\"\n---\n".utf8))
        } catch {
            return "cannot read the app's board: \(error)"
        }
        edited.setTitle(names[0])
        edited.setColumns(board.columns)
        edited.setLabels(board.labels)
        for (how, file) in [("created", created), ("edited", edited)] {
            let text = String(decoding: file.bytes(), as: UTF8.self)
            guard let app = SimpleKanbanApp.board(text) else { return "\(how): the app reads no board from \(text.debugDescription)" }
            let expected = SimpleKanbanApp.Board(title: names[0], columns: [("todo", names[1], false), ("done", "Done", false)],
                                                 labels: [("bug", names[2], "#e74c3c")])
            guard app == expected else { return "\(how): the app reads \(app) from \(text.debugDescription)" }
            guard let read = try? BoardFile(bytes: Array(text.utf8)).board,
                  read.title == names[0], read.columns.map(\.name) == [names[1], "Done"], read.labels.map(\.name) == [names[2]]
            else { return "\(how): kanban does not read it back from \(text.debugDescription)" }
            func item(_ key: String, _ document: FrontmatterDocument) -> YAMLValue? { document.value(forKey: key)?.list?.first?["name"] }
            // The app never unquotes a board's title, so one that YAML needs quoted makes board.md unreadable to YAML
            // (doctor warns); the names can only be checked in a board whose title YAML reads.
            // And a name without a common form makes the whole file unreadable to YAML.
            guard AppDialect.isPlainYAML(names[0]), Self.hasCommonForm(names[1], quotesEscaped: false),
                  Self.hasCommonForm(names[2], quotesEscaped: false) else { continue }
            if how == "created" { yamlChecked += 1 }
            if yamlText(text, { item("columns", $0) }) != names[1] {
                return "\(how): YAML reads the column's name as \(yamlText(text, { item("columns", $0) })?.debugDescription ?? "no text") from \(text.debugDescription)"
            }
            if yamlText(text, { item("labels", $0) }) != names[2] {
                return "\(how): YAML reads the label's name as \(yamlText(text, { item("labels", $0) })?.debugDescription ?? "no text") from \(text.debugDescription)"
            }
        }
        return nil
    }

    @Test(arguments: SimpleKanbanDialectTests.awkwardTitles)
    func anAwkwardNameKanbanWritesInABoardReadsTheSameInTheApp(name: String) {
        #expect(agreesOnKanbanBoard(title: name, columnName: name, labelName: name) == nil)
        #expect(agreesOnKanbanBoard(title: "Board", columnName: name, labelName: name) == nil)
    }

    @Test func generatedBoardsKanbanWritesReadTheSameInTheApp() {
        var random = SeededGenerator(seed: 1414)
        var failures: [String] = []
        var yamlChecked = 0
        let cases = 10_000
        for _ in 0..<cases {
            var names = (0..<3).map { _ in Self.randomValue(&random) }
            // Half the boards keep to names YAML can read, so that the YAML check runs on many.
            if Bool.random(using: &random) {
                names[0] = "Board"
                for index in 1...2 where !Self.hasCommonForm(names[index], quotesEscaped: false) {
                    names[index] = names[index].filter { $0 != "\\" && $0 != "\"" && $0 != "\u{1}" && $0 != "\u{7F}" }
                }
            }
            if let failure = agreesOnKanbanBoard(title: names[0], columnName: names[1], labelName: names[2], yamlChecked: &yamlChecked) {
                failures.append("\(names): \(failure)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases): \(failures.prefix(10).joined(separator: "\n"))")
        #expect(yamlChecked > cases / 3, "only \(yamlChecked) boards could be read with YAML")
    }
}
