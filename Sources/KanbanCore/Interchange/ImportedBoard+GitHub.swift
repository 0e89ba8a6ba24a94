import Foundation

extension ImportedBoard {
    /// Reads the JSON that GitHub's `gh` CLI writes for issues or for a project's items, told apart by shape.
    ///
    /// **`gh issue list --json number,title,body,state,labels,assignees,milestone,url,createdAt,updatedAt,closedAt`**
    /// (also `gh pr list` and `gh search issues` with those fields): a list of issues. Only `number` and `title` are
    /// required; any other field may be left out of `--json`.
    ///
    /// | gh issue list | Imported |
    /// |---|---|
    /// | `state` `OPEN` | column `Open` |
    /// | `state` `CLOSED` or `MERGED` (or a `closedAt`) | column `Closed`, archived (`--map` renames columns) |
    /// | order in the list | order in the column (gh lists the newest first) |
    /// | `title` | title |
    /// | `body` | body |
    /// | `labels[].name`, `labels[].color` (`d73a4a`) | labels, colour `#d73a4a` |
    /// | `url` and `number` | sourceID `github:<owner>/<repo>#<number>` (`github:#<number>` without `url`) |
    /// | `url` | field `url` |
    /// | `assignees[].login` | field `assignees` (a list) |
    /// | `milestone.title` | field `milestone` |
    /// | `createdAt` | created |
    /// | `updatedAt` | modified |
    ///
    /// **`gh project item-list <number> --owner <owner> --format json`**: an object `{"items": [...], "totalCount": n}`.
    /// gh lists no archived items, so none is archived.
    ///
    /// | gh project item-list | Imported |
    /// |---|---|
    /// | `status` (the Status field) | column; `No Status` when an item has none; columns in the order first met, one named `Done` (in any case) last |
    /// | order in the list | order in the column |
    /// | `content.title` (else `title`) | title |
    /// | `content.body` | body |
    /// | `labels` (names) | labels, without colours |
    /// | `content.url` | sourceID `github:<owner>/<repo>#<number>`; a draft's: `github:project-item:<id>` |
    /// | `content.url` | field `url` |
    /// | `assignees` | field `assignees` (a list) |
    /// | `milestone.title` | field `milestone` |
    /// | any other field (`priority`, `estimate`, `sprint`...) | a field of its name in lowercase, each run of other signs one `-` (`Size (est.)` → `size-est`): text, a number, a list, or an iteration's `title` |
    ///
    /// - Parameters:
    ///   - bytes: The output's bytes.
    ///   - path: How errors name the file.
    /// - Throws: ``KanbanError/Code/invalidArgument`` at `path:line:column` for a file over ``CSVTable/largestFile``
    ///   bytes, not UTF-8, not JSON (`truncated JSON` when cut short), neither shape, an issue without `number` or
    ///   `title`, or a member of the wrong type (`issue 3's 'title' is a number, not text`).
    public init(github bytes: [UInt8], path: String) throws(KanbanError) {
        let json = try JSONDocument.parse(bytes, path: path, largestFile: ImportText.largestFile)
        let reader = ImportJSONReader(path: path)
        if let issues = json.items {
            self = try Self.githubIssues(issues, reader: reader)
        } else if json.members != nil, let items = json["items"], items.items != nil {
            self = try Self.githubProjectItems(try reader.list(json, "items", of: "the project"), reader: reader)
        } else {
            throw reader.failure("the file is neither `gh issue list --json` output (a list of issues) nor "
                                 + "`gh project item-list --format json` output (an object with 'items')", at: json)
        }
    }

    private static func githubIssues(_ issues: [JSONDocument], reader: ImportJSONReader) throws(KanbanError) -> ImportedBoard {
        var labels: [ImportedLabel] = []
        var labelSeen = ImportNames()
        var cards: [ImportedCard] = []
        for (index, value) in issues.enumerated() {
            let owner = "issue \(index + 1)"
            let issue = try reader.object(value, owner)
            guard let number = try reader.wholeNumber(issue, "number", of: owner) else { throw reader.failure("\(owner) has no 'number'", at: issue) }
            let title = try reader.requiredText(issue, "title", of: owner)
            let url = try reader.text(issue, "url", of: owner)
            let state = try reader.text(issue, "state", of: owner)?.uppercased()
            let closedAt = try reader.text(issue, "closedAt", of: owner)
            let isClosed = state == "CLOSED" || state == "MERGED" || (state == nil && closedAt != nil)

            var cardLabels = ImportNames()
            for (labelIndex, labelValue) in try reader.list(issue, "labels", of: owner).enumerated() {
                let labelOwner = "label \(labelIndex + 1) of \(owner)"
                let name: String
                var color: String?
                if let text = labelValue.text {
                    name = text
                } else {
                    let label = try reader.object(labelValue, labelOwner)
                    name = try reader.requiredText(label, "name", of: labelOwner)
                    color = try reader.text(label, "color", of: labelOwner).flatMap(githubColor)
                }
                guard !name.isEmpty else { continue }
                if labelSeen.insert(name) { labels.append(ImportedLabel(name: name, color: color)) }
                cardLabels.insert(name)
            }

            var fields: [YAMLMapEntry] = []
            if let url, !url.isEmpty { fields.append(YAMLMapEntry(key: "url", value: .string(url))) }
            var assignees: [String] = []
            for (assigneeIndex, assigneeValue) in try reader.list(issue, "assignees", of: owner).enumerated() {
                let assigneeOwner = "assignee \(assigneeIndex + 1) of \(owner)"
                if let login = assigneeValue.text {
                    assignees.append(login)
                } else {
                    assignees.append(try reader.requiredText(try reader.object(assigneeValue, assigneeOwner), "login", of: assigneeOwner))
                }
            }
            if !assignees.isEmpty { fields.append(YAMLMapEntry(key: "assignees", value: .list(assignees.map { .string($0) }))) }
            if let milestone = try reader.object(issue, "milestone", of: owner),
               let name = try reader.text(milestone, "title", of: "the milestone of \(owner)"), !name.isEmpty {
                fields.append(YAMLMapEntry(key: "milestone", value: .string(name)))
            }

            let repository = url.flatMap(githubRepository)
            cards.append(ImportedCard(
                sourceID: "github:\(repository ?? "")#\(number)", title: title, column: isClosed ? "Closed" : "Open", labels: cardLabels.names,
                body: try reader.text(issue, "body", of: owner) ?? "", fields: fields, isArchived: isClosed,
                created: try reader.text(issue, "createdAt", of: owner).flatMap(ImportText.date),
                modified: try reader.text(issue, "updatedAt", of: owner).flatMap(ImportText.date)))
        }
        var columns = [ImportedColumn(name: "Open")]
        if cards.contains(where: \.isArchived) { columns.append(ImportedColumn(name: "Closed")) }
        return ImportedBoard(format: .github, columns: columns, labels: labels, cards: cards)
    }

    /// The keys of a project item that are read into the card itself, not copied as fields.
    private static let projectItemKeys: Set<String> = ["id", "content", "title", "status", "labels", "assignees", "milestone", "repository"]

    private static func githubProjectItems(_ items: [JSONDocument], reader: ImportJSONReader) throws(KanbanError) -> ImportedBoard {
        var statuses = ImportNames()
        var labels = ImportNames()
        var cards: [ImportedCard] = []
        for (index, value) in items.enumerated() {
            let owner = "item \(index + 1)"
            let item = try reader.object(value, owner)
            let id = try reader.requiredText(item, "id", of: owner)
            let content = try reader.object(item, "content", of: owner)
            let contentOwner = "the content of \(owner)"
            let contentTitle = try content.flatMap { (content) throws(KanbanError) in try reader.text(content, "title", of: contentOwner) }
            let itemTitle = try reader.text(item, "title", of: owner)
            guard let title = contentTitle ?? itemTitle else { throw reader.failure("\(owner) has no 'title'", at: item) }
            let status = try reader.text(item, "status", of: owner).flatMap { $0.isEmpty ? nil : $0 } ?? "No Status"
            statuses.insert(status)

            let cardLabels = try reader.texts(item, "labels", of: owner).filter { !$0.isEmpty }
            for name in cardLabels { labels.insert(name) }

            var fields: [YAMLMapEntry] = []
            let url = try content.flatMap { (content) throws(KanbanError) in try reader.text(content, "url", of: contentOwner) }
            if let url, !url.isEmpty { fields.append(YAMLMapEntry(key: "url", value: .string(url))) }
            let assignees = try reader.texts(item, "assignees", of: owner)
            if !assignees.isEmpty { fields.append(YAMLMapEntry(key: "assignees", value: .list(assignees.map { .string($0) }))) }
            if let milestone = try reader.object(item, "milestone", of: owner),
               let name = try reader.text(milestone, "title", of: "the milestone of \(owner)"), !name.isEmpty {
                fields.append(YAMLMapEntry(key: "milestone", value: .string(name)))
            }
            for member in item.members ?? [] where !projectItemKeys.contains(member.key) {
                let key = ImportText.key(fromName: member.key)
                guard !key.isEmpty, !Card.knownKeys.contains(key), key != ImportedCard.sourceKey, !fields.contains(where: { $0.key == key }),
                      let value = githubFieldValue(member.value) else { continue }
                fields.append(YAMLMapEntry(key: key, value: value))
            }

            let sourceID: String
            if let url, let repository = githubRepository(url), let number = url.split(separator: "/").last {
                sourceID = "github:\(repository)#\(number)"
            } else {
                sourceID = "github:project-item:\(id)"
            }
            cards.append(ImportedCard(
                sourceID: sourceID, title: title, column: status, labels: cardLabels,
                body: try content.flatMap { (content) throws(KanbanError) in try reader.text(content, "body", of: contentOwner) } ?? "",
                fields: fields))
        }
        var columns = statuses.names
        if let done = columns.firstIndex(where: { $0.lowercased() == "done" }) { columns.append(columns.remove(at: done)) }
        // Cards keep their order within a column; the board lists them column by column.
        let byColumn = Dictionary(grouping: cards, by: \.column)
        let ordered = columns.flatMap { byColumn[$0] ?? [] }
        return ImportedBoard(format: .github, columns: columns.map(ImportedColumn.init), labels: labels.names.map { ImportedLabel(name: $0) },
                             cards: ordered)
    }

    /// A project field's value as a card field: text, a number, true or false, a list of those, or an object's `title`
    /// (an iteration, a milestone); nil for anything else or nothing.
    private static func githubFieldValue(_ value: JSONDocument) -> YAMLValue? {
        switch value.kind {
        case .string(let text): return text.isEmpty ? nil : .string(text)
        case .number(let text): return .unquoted(text)
        case .bool(let flag): return .unquoted(flag ? "true" : "false")
        case .array(let items):
            let values = items.compactMap { item -> YAMLValue? in
                if case .array = item.kind { return nil }
                return githubFieldValue(item)
            }
            return values.isEmpty ? nil : .list(values)
        case .object: return value["title"]?.text.map { .string($0) }
        case .null: return nil
        }
    }

    /// `owner/repo` from an issue or pull request URL (`https://github.com/owner/repo/issues/12`, and the same on a
    /// GitHub Enterprise host); nil for anything else.
    static func githubRepository(_ url: String) -> String? {
        let parts = url.split(separator: "/", omittingEmptySubsequences: false)
        // "https:", "", host, owner, repo, "issues"|"pull", number
        guard parts.count == 7, parts[0].hasPrefix("http"), parts[1].isEmpty, ["issues", "pull"].contains(parts[5]),
              !parts[3].isEmpty, !parts[4].isEmpty, !parts[6].isEmpty, parts[6].allSatisfy(\.isASCIIDigit) else { return nil }
        return "\(parts[3])/\(parts[4])"
    }

    /// `#d73a4a` for GitHub's `d73a4a`; nil for anything that is not six hex digits.
    static func githubColor(_ text: String) -> String? {
        let color = "#" + text.lowercased()
        return color.utf8.count == 7 && Label.isValidColor(color) ? color : nil
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
