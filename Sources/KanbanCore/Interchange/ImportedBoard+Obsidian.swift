import Foundation

extension ImportedBoard {
    /// Reads a board of the Obsidian Kanban plugin (github.com/mgmeyers/obsidian-kanban): one markdown file whose
    /// frontmatter has `kanban-plugin:`, a `## Column` heading for each column and a `- [ ] item` for each card.
    ///
    /// | Obsidian Kanban | Imported |
    /// |---|---|
    /// | `## Name` heading (a max-items suffix `## Name (5)` dropped) | column, in file order |
    /// | `- [ ] text` / `- [x] text` item under it | card, in file order |
    /// | the item's first line, without its tags, dates and block id (`^id`) | title (`[[links]]` kept) |
    /// | lines indented under the item (4 spaces or a tab) | body, that indent removed |
    /// | `#tag` on the first line | label `tag`, without a colour |
    /// | `@{2026-01-31}` (or `@[[2026-01-31]]`), `@@{10:30}` | field `due`: `2026-01-31`, `2026-01-31 10:30` with a time |
    /// | items under `***` and `## Archive` | archived, in the last column (the file does not say which) |
    /// | the title, ` (2)`, ` (3)`... after a repeated one | sourceID `obsidian:<title>` |
    ///
    /// `**Complete**` under a heading, the `%% kanban:settings %%` block and lines that are no item are ignored;
    /// `\#`, `\@`, `\^` and `\\` in a title are the characters themselves (as ``obsidianMarkdown(board:cards:)``
    /// writes them). Tags and dates in a body are left as they are.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - path: How errors name the file; its name without `.md` is the board's title.
    /// - Throws: ``KanbanError/Code/invalidArgument`` at `path:line:column` for a file over ``CSVTable/largestFile``
    ///   bytes, not UTF-8, frontmatter that is not closed or not YAML, or a file without `kanban-plugin` in its
    ///   frontmatter (`the file is not an Obsidian Kanban board`).
    public init(obsidian bytes: [UInt8], path: String) throws(KanbanError) {
        try ImportText.check(bytes, path: path, largestFile: ImportText.largestFile)
        let document: FrontmatterDocument
        do {
            document = try FrontmatterDocument(bytes: bytes)
        } catch {
            throw KanbanError(.invalidArgument, error.message, at: SourceLocation(path: path, line: error.line, column: error.column))
        }
        guard document.hasFrontmatter, document.value(forKey: "kanban-plugin") != nil else {
            throw KanbanError(.invalidArgument, "the file is not an Obsidian Kanban board: its frontmatter has no 'kanban-plugin'",
                              at: SourceLocation(path: path, line: 1, column: 1))
        }

        var columns = ImportNames()
        var items: [(column: String?, text: [Substring])] = []
        var isArchive = false
        var lines = document.body.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            if line.hasPrefix("%% kanban:settings") { break }
            if line.trimmingCharacters(in: .whitespaces) == "***" {
                isArchive = true
            } else if line.hasPrefix("## ") {
                guard !isArchive else { continue }
                let name = Self.obsidianColumnName(line.dropFirst(3))
                columns.insert(name)
            } else if let first = Self.obsidianItemText(line) {
                var text = [first]
                // An item goes on over the indented lines after it, and over blank lines that have one after them.
                var blank = 0
                while let next = lines.first {
                    if next.allSatisfy({ $0 == " " || $0 == "\t" }) {
                        blank += 1
                    } else if next.first == " " || next.first == "\t" {
                        text += Array(repeating: "", count: blank) + [Self.obsidianDedented(next)]
                        blank = 0
                    } else {
                        break
                    }
                    lines.removeFirst()
                }
                if !isArchive && columns.isEmpty { columns.insert("Untitled") }
                items.append((isArchive ? nil : columns.names.last, text))
            }
        }
        if columns.isEmpty && !items.isEmpty { columns.insert("Archive") }

        var labels = ImportNames()
        var cards: [ImportedCard] = []
        var seen: [String: Int] = [:]
        for item in items {
            let line = Self.obsidianParse(item.text[0])
            for tag in line.tags { labels.insert(tag) }
            let count = (seen[line.title] ?? 0) + 1
            seen[line.title] = count
            var fields: [YAMLMapEntry] = []
            if let due = line.due { fields.append(YAMLMapEntry(key: "due", value: .unquoted(due))) }
            cards.append(ImportedCard(
                sourceID: "obsidian:\(line.title)" + (count > 1 ? " (\(count))" : ""), title: line.title,
                column: item.column ?? columns.names[columns.names.count - 1], labels: line.tags,
                body: item.text.dropFirst().joined(separator: "\n"), fields: fields, isArchived: item.column == nil))
        }
        let name = path.split(separator: "/").last.map { $0.hasSuffix(".md") ? String($0.dropLast(3)) : String($0) }
        self.init(format: .obsidian, title: name, columns: columns.names.map(ImportedColumn.init),
                  labels: labels.names.map { ImportedLabel(name: $0) }, cards: cards)
    }

    /// A column heading's name without the plugin's max-items suffix (`Doing (3)`).
    private static func obsidianColumnName(_ heading: Substring) -> String {
        var name = heading.trimmingCharacters(in: .whitespaces)
        if name.hasSuffix(")"), let open = name.lastIndex(of: "("), open > name.startIndex,
           name[name.index(before: open)] == " ",
           name[name.index(after: open)..<name.index(before: name.endIndex)].allSatisfy({ $0.isASCII && $0.isNumber }),
           name.index(after: open) < name.index(before: name.endIndex) {
            name = String(name[..<name.index(before: open)]).trimmingCharacters(in: .whitespaces)
        }
        return name.isEmpty ? "Untitled" : name
    }

    /// The text after `- [ ] ` (any one character in the box) when `line` is an item.
    private static func obsidianItemText(_ line: Substring) -> Substring? {
        let scalars = line.unicodeScalars
        guard line.hasPrefix("- ["), scalars.count >= 5 else { return nil }
        let close = scalars.index(scalars.startIndex, offsetBy: 4)
        guard scalars[close] == "]" else { return nil }
        let rest = Substring(scalars[scalars.index(after: close)...])
        guard rest.isEmpty || rest.first == " " else { return nil }
        return rest.drop { $0 == " " }
    }

    private static func obsidianDedented(_ line: Substring) -> Substring {
        if line.first == "\t" { return line.dropFirst() }
        return line.dropFirst(min(4, line.prefix { $0 == " " }.count))
    }

    /// The characters a tag is made of, after its `#`: the plugin's, plus `.` and `+` inside one (label ids hold them).
    private static func isTagCharacter(_ character: Character) -> Bool {
        guard !character.isWhitespace else { return false }
        if let scalar = character.unicodeScalars.first, (0x2000...0x206F).contains(scalar.value) || (0x2E00...0x2E7F).contains(scalar.value) {
            return false
        }
        return !"'!\"#$%&()*,:;<=>?@^`{|}~[]\\".contains(character)
    }

    /// An item's first line read into its title, tags and date.
    static func obsidianParse(_ text: Substring) -> (title: String, tags: [String], due: String?) {
        let characters = Array(text)
        var title = ""
        var tags = ImportNames()
        var date: String?
        var time: String?
        var index = 0
        func startsToken(_ index: Int) -> Bool { index == 0 || characters[index - 1].isWhitespace }
        // Where a search for a closing marker found none: no later one can, so a line of many `@{` stays linear.
        var unclosed: [String: Int] = [:]
        func closing(_ marker: String, from start: Int) -> Int? {
            if let failed = unclosed[marker], start >= failed { return nil }
            var end = start
            while end < characters.count {
                if matches(marker, at: end) { return end }
                end += 1
            }
            unclosed[marker] = start
            return nil
        }
        func matches(_ prefix: String, at index: Int) -> Bool {
            var offset = index
            for character in prefix {
                guard offset < characters.count, characters[offset] == character else { return false }
                offset += 1
            }
            return true
        }
        /// `@{date}`, `@[[date]]` or `@@{time}` at `index`: where it ends, what it holds, and whether it is a time.
        func dateToken(at index: Int) -> (end: Int, value: String, isTime: Bool)? {
            for (open, close, isTime) in [("@@{", "}", true), ("@{", "}", false), ("@[[", "]]", false)] where matches(open, at: index) {
                guard let end = closing(close, from: index + open.count) else { return nil }
                let value = String(characters[(index + open.count)..<end]).trimmingCharacters(in: .whitespaces)
                return (end + close.count, value, isTime)
            }
            return nil
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count, "\\#@^".contains(characters[index + 1]) {
                title.append(characters[index + 1])
                index += 2
                continue
            }
            if character == "#", startsToken(index) {
                var end = index + 1
                while end < characters.count, isTagCharacter(characters[end]) { end += 1 }
                while end > index + 1, characters[end - 1] == "." || characters[end - 1] == "+" { end -= 1 }
                let tag = String(characters[(index + 1)..<end])
                if !tag.isEmpty, !tag.allSatisfy(\.isNumber) {
                    tags.insert(tag)
                    index = end
                    continue
                }
            }
            if character == "@", startsToken(index), let (end, value, isTime) = dateToken(at: index) {
                if isTime { time = time ?? value } else { date = date ?? value }
                index = end
                continue
            }
            if character == "^", index > 0, characters[index - 1] == " ",
               characters[(index + 1)...].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }), index + 1 < characters.count {
                break
            }
            title.append(character)
            index += 1
        }
        let words = title.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var clean = words.joined(separator: " ")
        if clean.isEmpty { clean = text.trimmingCharacters(in: .whitespaces) }
        let due = date.map { day in time.map { "\(day) \($0)" } ?? day }
        return (clean, tags.names, due)
    }

    /// A board as an Obsidian Kanban plugin file, which ``init(obsidian:path:)`` reads back to the same columns, titles,
    /// labels and order.
    ///
    /// Frontmatter `kanban-plugin: basic`; a `## Name` heading for each column (`## Name (5)` for a WIP limit, the
    /// plugin's max items) with its active cards in board order as `- [ ] Title #label`, `- [x]` and a
    /// `**Complete**` marker in the last column; a body indented four spaces under its item; archived cards under
    /// `***` and `## Archive`; then the plugin's settings block. Cards of a column `board.md` does not declare follow
    /// under a heading of their column id. A `#`, `@`, `^` or `\` in a title that the plugin would read as a tag,
    /// a date or a block id is written with a `\` before it.
    /// - Parameters:
    ///   - board: The board's columns and labels.
    ///   - cards: Its cards, active and archived, with their bodies when they should be written.
    /// - Returns: The file's text.
    public static func obsidianMarkdown(board: Board, cards: [Card]) -> String {
        var text = "---\n\nkanban-plugin: basic\n\n---\n\n"
        let active = cards.filter { !$0.isArchived }.sorted(by: Card.precedes)
        var columns = board.columns.map { (id: $0.id, heading: $0.name, limit: $0.wipLimit) }
        for card in active where !columns.contains(where: { $0.id == card.column }) { columns.append((card.column, card.column, nil)) }
        for (offset, column) in columns.enumerated() {
            let isLast = offset == columns.count - 1
            let heading = column.heading.replacingOccurrences(of: "\n", with: " ")
            text += "## \(heading)\(column.limit.map { " (\($0))" } ?? "")\n\n"
            if isLast { text += "**Complete**\n" }
            for card in active where card.column == column.id { text += obsidianItem(card, isDone: isLast) }
            text += "\n\n\n"
        }
        let archived = cards.filter(\.isArchived)
        if !archived.isEmpty {
            text += "***\n\n## Archive\n\n"
            for card in archived { text += obsidianItem(card, isDone: true) }
        }
        text += "\n\n%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\"}\n```\n%%\n"
        return text
    }

    private static func obsidianItem(_ card: Card, isDone: Bool) -> String {
        var line = "- [\(isDone ? "x" : " ")] \(obsidianEscaped(card.title))"
        for label in card.labels { line += " #\(label)" }
        line += "\n"
        let body = (card.body ?? "").trimmingBlankLines()
        guard !body.isEmpty else { return line }
        for bodyLine in body.split(separator: "\n", omittingEmptySubsequences: false) {
            line += bodyLine.allSatisfy { $0 == " " || $0 == "\t" } ? "\n" : "    \(bodyLine)\n"
        }
        return line
    }

    /// A title with a `\` before what ``obsidianParse(_:)`` would otherwise read as a tag, a date, a block id or an
    /// escape; one line.
    private static func obsidianEscaped(_ title: String) -> String {
        let characters = Array(title.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " "))
        var text = ""
        for (index, character) in characters.enumerated() {
            let startsToken = index == 0 || characters[index - 1].isWhitespace
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            switch character {
            case "\\" where next.map({ "\\#@^".contains($0) }) ?? false:
                text += "\\\\"
            case "#" where startsToken, "@" where startsToken, "^" where index > 0 && characters[index - 1] == " ":
                text += "\\\(character)"
            default:
                text.append(character)
            }
        }
        return text
    }
}
