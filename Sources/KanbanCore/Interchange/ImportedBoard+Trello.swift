import Foundation

extension ImportedBoard {
    /// Reads a Trello board's JSON export (Menu › Print, export and share › Export as JSON).
    ///
    /// | Trello | Imported |
    /// |---|---|
    /// | board `name` | ``ImportedBoard/title`` |
    /// | open `lists`, by `pos` | columns (two open lists of one name are one column) |
    /// | `cards`, by list then `pos` | cards |
    /// | card `name` | title |
    /// | card `closed`, or its list `closed` | ``ImportedCard/isArchived`` (in the first column when its list is closed) |
    /// | card `desc`, then each checklist (`checklists`, in the card's `idChecklists` order) | body: `### Name` then `- [ ] item` / `- [x] item` by `pos` |
    /// | card `idLabels` → `labels` `name` (`color` when it has none) | labels; `color` `green`…`black` → `#rrggbb` |
    /// | card `id` | sourceID `trello:<id>`; created from its first 8 hex digits (a Unix time) |
    /// | card `shortUrl` (else `url`) | field `url` |
    /// | card `due` | field `due`, as given |
    /// | card `dueComplete` when true | field `due-complete: true` |
    /// | card `idMembers` → `members` `username` | field `members` (a list) |
    /// | card `dateLastActivity` | modified |
    ///
    /// A card whose list is not in `lists` counts as one in a closed list. `actions`, comments and attachments are
    /// not read.
    /// - Parameters:
    ///   - bytes: The export's bytes.
    ///   - path: How errors name the file.
    /// - Throws: ``KanbanError/Code/invalidArgument`` at `path:line:column` for a file over ``CSVTable/largestFile``
    ///   bytes, not UTF-8, not JSON (`truncated JSON` when cut short), not a Trello export (no `lists`), or a member of
    ///   the wrong type (`card 3's 'name' is a number, not text`).
    public init(trello bytes: [UInt8], path: String) throws(KanbanError) {
        let json = try JSONDocument.parse(bytes, path: path, largestFile: ImportText.largestFile)
        let reader = ImportJSONReader(path: path)
        guard json.members != nil, let listsValue = json["lists"] else {
            let found = json.members == nil ? "it is \(json.kindName), not an object (gh issue list output is a list)" : "it has no 'lists'"
            throw reader.failure("the file is not a Trello board export: \(found)", at: json)
        }
        guard listsValue.items != nil else {
            throw reader.failure("the file is not a Trello board export: its 'lists' is \(listsValue.kindName), not a list", at: listsValue)
        }

        struct List {
            var id: String, name: String, isClosed: Bool, position: Double, index: Int
        }
        var lists: [List] = []
        for (index, value) in try reader.list(json, "lists", of: "the board").enumerated() {
            let owner = "list \(index + 1)"
            let list = try reader.object(value, owner)
            lists.append(List(id: try reader.requiredText(list, "id", of: owner), name: try reader.requiredText(list, "name", of: owner),
                              isClosed: try reader.bool(list, "closed", of: owner),
                              position: try reader.number(list, "pos", of: owner) ?? Double(index), index: index))
        }
        lists.sort { Self.trelloPrecedes(($0.position, $0.index), ($1.position, $1.index)) }
        var columnNames = ImportNames()
        for list in lists where !list.isClosed { columnNames.insert(list.name) }
        var openLists: [String: String] = [:]
        for list in lists where !list.isClosed { openLists[list.id] = list.name }

        var labelNames: [String: String] = [:]
        var labels: [ImportedLabel] = []
        var labelSeen = ImportNames()
        for (index, value) in try reader.list(json, "labels", of: "the board").enumerated() {
            let owner = "label \(index + 1)"
            let label = try reader.object(value, owner)
            let id = try reader.requiredText(label, "id", of: owner)
            let color = try reader.text(label, "color", of: owner)
            let written = try reader.text(label, "name", of: owner)?.trimmingCharacters(in: .whitespaces) ?? ""
            // Trello shows a label without a name as a bare colour; its colour is the only name it has.
            guard let name = written.isEmpty ? color : written, !name.isEmpty else { continue }
            labelNames[id] = name
            if labelSeen.insert(name) {
                labels.append(ImportedLabel(name: name, color: color.flatMap(Self.trelloColor)))
            }
        }

        var usernames: [String: String] = [:]
        for (index, value) in try reader.list(json, "members", of: "the board").enumerated() {
            let owner = "member \(index + 1)"
            let member = try reader.object(value, owner)
            let id = try reader.requiredText(member, "id", of: owner)
            let (username, fullName) = (try reader.text(member, "username", of: owner), try reader.text(member, "fullName", of: owner))
            usernames[id] = username ?? fullName ?? id
        }

        struct Checklist {
            var id: String, name: String, position: Double, index: Int, items: [(text: String, isDone: Bool, position: Double)]
        }
        var checklists: [String: [Checklist]] = [:]
        for (index, value) in try reader.list(json, "checklists", of: "the board").enumerated() {
            let owner = "checklist \(index + 1)"
            let object = try reader.object(value, owner)
            var items: [(text: String, isDone: Bool, position: Double)] = []
            for (itemIndex, itemValue) in try reader.list(object, "checkItems", of: owner).enumerated() {
                let itemOwner = "item \(itemIndex + 1) of \(owner)"
                let item = try reader.object(itemValue, itemOwner)
                items.append((try reader.requiredText(item, "name", of: itemOwner), try reader.text(item, "state", of: itemOwner) == "complete",
                              try reader.number(item, "pos", of: itemOwner) ?? Double(itemIndex)))
            }
            items = items.enumerated().sorted { Self.trelloPrecedes(($0.element.position, $0.offset), ($1.element.position, $1.offset)) }.map(\.element)
            let checklist = Checklist(id: try reader.requiredText(object, "id", of: owner), name: try reader.text(object, "name", of: owner) ?? "Checklist",
                                      position: try reader.number(object, "pos", of: owner) ?? Double(index), index: index, items: items)
            checklists[try reader.requiredText(object, "idCard", of: owner), default: []].append(checklist)
        }

        var cards: [(card: ImportedCard, column: Int, position: Double, index: Int)] = []
        for (index, value) in try reader.list(json, "cards", of: "the board").enumerated() {
            let owner = "card \(index + 1)"
            let object = try reader.object(value, owner)
            let id = try reader.requiredText(object, "id", of: owner)
            let listID = try reader.requiredText(object, "idList", of: owner)
            let openList = openLists[listID]
            let column = openList ?? columnNames.names.first ?? lists.first { $0.id == listID }?.name ?? "Archived"
            columnNames.insert(column)

            var body = try reader.text(object, "desc", of: owner) ?? ""
            let order = try reader.texts(object, "idChecklists", of: owner)
            let own = (checklists[id] ?? []).sorted { left, right in
                let (leftRank, rightRank) = (order.firstIndex(of: left.id) ?? order.count, order.firstIndex(of: right.id) ?? order.count)
                if leftRank != rightRank { return leftRank < rightRank }
                return Self.trelloPrecedes((left.position, left.index), (right.position, right.index))
            }
            for checklist in own {
                if !body.isEmpty { body += body.hasSuffix("\n") ? "\n" : "\n\n" }
                body += "### \(checklist.name)\n\n"
                body += checklist.items.map { "- [\($0.isDone ? "x" : " ")] \($0.text)\n" }.joined()
            }

            var fields: [YAMLMapEntry] = []
            let (shortURL, longURL) = (try reader.text(object, "shortUrl", of: owner), try reader.text(object, "url", of: owner))
            if let url = shortURL ?? longURL, !url.isEmpty {
                fields.append(YAMLMapEntry(key: "url", value: .string(url)))
            }
            if let due = try reader.text(object, "due", of: owner), !due.isEmpty {
                fields.append(YAMLMapEntry(key: "due", value: .unquoted(due)))
            }
            if try reader.bool(object, "dueComplete", of: owner) {
                fields.append(YAMLMapEntry(key: "due-complete", value: .unquoted("true")))
            }
            let members = try reader.texts(object, "idMembers", of: owner).map { usernames[$0] ?? $0 }
            if !members.isEmpty { fields.append(YAMLMapEntry(key: "members", value: .list(members.map { .string($0) }))) }

            var cardLabels = ImportNames()
            for labelID in try reader.texts(object, "idLabels", of: owner) {
                if let name = labelNames[labelID] { cardLabels.insert(name) }
            }
            let card = ImportedCard(
                sourceID: "trello:\(id)", title: try reader.requiredText(object, "name", of: owner), column: column,
                labels: cardLabels.names, body: body, fields: fields,
                isArchived: try reader.bool(object, "closed", of: owner) || openList == nil,
                created: Self.trelloCreation(id), modified: try reader.text(object, "dateLastActivity", of: owner).flatMap(ImportText.date))
            cards.append((card, columnNames.index(of: column) ?? 0, try reader.number(object, "pos", of: owner) ?? Double(index), index))
        }
        cards.sort { left, right in
            if left.column != right.column { return left.column < right.column }
            return Self.trelloPrecedes((left.position, left.index), (right.position, right.index))
        }
        self.init(format: .trello, title: try reader.text(json, "name", of: "the board"), columns: columnNames.names.map(ImportedColumn.init),
                  labels: labels, cards: cards.map(\.card))
    }

    /// Trello's order: by `pos`, ties (and a `pos` that is not a number, NaN) by place in the file.
    private static func trelloPrecedes(_ left: (Double, Int), _ right: (Double, Int)) -> Bool {
        let (leftPosition, rightPosition) = (left.0.isNaN ? .infinity : left.0, right.0.isNaN ? .infinity : right.0)
        if leftPosition != rightPosition { return leftPosition < rightPosition }
        return left.1 < right.1
    }

    /// When a Trello object was made: its id is a MongoDB ObjectId, whose first 8 hex digits are the Unix time.
    static func trelloCreation(_ id: String) -> Date? {
        let prefix = id.utf8.prefix(8)
        guard prefix.count == 8, let seconds = UInt32(String(decoding: prefix, as: UTF8.self), radix: 16) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The `#rrggbb` Trello shows for a colour name (`green`, and the newer `green_dark`, `green_light` as `green`).
    static func trelloColor(_ name: String) -> String? {
        let base = name.split(separator: "_").first.map(String.init) ?? name
        return trelloColors[base]
    }

    private static let trelloColors = [
        "green": "#61bd4f", "yellow": "#f2d600", "orange": "#ff9f1a", "red": "#eb5a46", "purple": "#c377e0",
        "blue": "#0079bf", "sky": "#00c2e0", "lime": "#51e898", "pink": "#ff78cb", "black": "#344563",
    ]
}
