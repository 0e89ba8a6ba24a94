import Foundation

extension ImportedBoard {
    /// Reads a Backlog.md project (github.com/MrLesk/Backlog.md): its `backlog` folder of task files, each YAML
    /// frontmatter and a markdown body.
    ///
    /// `files` are the folder's files with paths relative to `folder`, which may be the project (paths
    /// `backlog/config.yml`, `backlog/tasks/…`) or its `backlog` folder itself (`config.yml`, `tasks/…`). Of them it
    /// reads `config.yml`, `tasks/*.md`, `completed/*.md` and `archive/tasks/*.md`; drafts, docs, decisions, a
    /// `readme.md` and a `.md` without frontmatter are no tasks and are passed over, so the caller may hand it every
    /// file of the folder.
    ///
    /// | Backlog.md | Imported |
    /// |---|---|
    /// | `config.yml` `project_name` | ``ImportedBoard/title`` |
    /// | `config.yml` `statuses` | columns in that order, then any other `status` in the order first met (by path) |
    /// | `status` | column (none: `default_status`, else the first column) |
    /// | `ordinal`, then the id's number (`task-12.1` after `task-12`) | order in the column; tasks without `ordinal` after those with one |
    /// | `title` (else the file name after ` - `) | title |
    /// | the file's body (`## Description`, `## Acceptance Criteria` with `- [ ] #1 …`, …) | body, as it is |
    /// | `labels` | labels, without colours |
    /// | `id` (else the file name before ` - `) | sourceID `backlog:<id>` |
    /// | `assignee` (`@name`, quoted or not; one or a list) | field `assignee` (a list) |
    /// | `reporter` | field `reporter` |
    /// | `priority` | field `priority` |
    /// | `dependencies` | field `dependencies` (a list) |
    /// | `milestone` | field `milestone` |
    /// | `due_date` | field `due` |
    /// | `created_date`, `updated_date` (`2026-01-05 10:00`, taken as UTC) | created, modified |
    /// | a task in `completed/` | active, in its status's column (Backlog.md's Done; the last column without a status) |
    /// | a task in `archive/tasks/` | archived, in its status's column |
    ///
    /// - Parameters:
    ///   - files: The folder's files, as read by the caller.
    ///   - folder: How errors name the folder when no one file is to blame.
    /// - Throws: ``KanbanError/Code/invalidArgument`` at the file's ``ImportFile/shownPath`` (and `line:column`) for
    ///   a file over ``CSVTable/largestFile`` bytes, not UTF-8, frontmatter that is not closed or not YAML, a value of
    ///   the wrong type (`'title' is a list, not text`), `statuses` that are no list of text; at `folder` when there
    ///   is neither a `config.yml` nor a task.
    public init(backlog files: [ImportFile], folder: String) throws(KanbanError) {
        let isProject = !files.contains { Self.backlogRole(of: $0.path) != nil } && files.contains { $0.path.hasPrefix("backlog/") }
        var config: ImportFile?
        var tasks: [(file: ImportFile, place: BacklogPlace)] = []
        for file in files.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
            let path = isProject ? String(file.path.dropFirst("backlog/".count)) : file.path
            guard !isProject || file.path.hasPrefix("backlog/"), let role = Self.backlogRole(of: path) else { continue }
            switch role {
            case .config: config = file
            case .task(let place): tasks.append((file, place))
            }
        }
        guard config != nil || !tasks.isEmpty else {
            throw KanbanError(.invalidArgument, "the folder is not a Backlog.md project: it has no backlog/config.yml and no backlog/tasks/*.md",
                              at: SourceLocation(path: folder))
        }

        var columns = ImportNames()
        var defaultStatus: String?
        var projectName: String?
        if let config {
            let entries = try Self.backlogConfig(config)
            func entry(_ key: String) -> YAMLMapEntry? { entries.first { $0.key == key } }
            if let statuses = entry("statuses") {
                guard let items = statuses.value.list, items.allSatisfy({ $0.string != nil }) else {
                    throw KanbanError(.invalidArgument, "'statuses' is not a list of names", at: SourceLocation(path: config.shownPath))
                }
                for name in items.compactMap(\.string) where !name.isEmpty { columns.insert(name) }
            }
            defaultStatus = entry("default_status")?.value.string.flatMap { $0.isEmpty ? nil : $0 }
            projectName = entry("project_name")?.value.string.flatMap { $0.isEmpty ? nil : $0 }
        }

        struct Task {
            var card: ImportedCard
            var ordinal: Double?
            var number: [Int]
            var path: String
        }
        var read: [Task] = []
        for (file, place) in tasks {
            guard let task = try Self.backlogTask(file) else { continue }
            var card = task.card
            if card.column.isEmpty {
                card.column = place == .completed ? (columns.names.last ?? "Done") : (defaultStatus ?? columns.names.first ?? "To Do")
            }
            card.isArchived = place == .archived
            columns.insert(card.column)
            read.append(Task(card: card, ordinal: task.ordinal, number: task.number, path: file.path))
        }
        read.sort { left, right in
            let (leftColumn, rightColumn) = (columns.index(of: left.card.column) ?? 0, columns.index(of: right.card.column) ?? 0)
            if leftColumn != rightColumn { return leftColumn < rightColumn }
            switch (left.ordinal, right.ordinal) {
            case let (leftOrdinal?, rightOrdinal?) where leftOrdinal != rightOrdinal: return leftOrdinal < rightOrdinal
            case (.some, nil): return true
            case (nil, .some): return false
            default: break
            }
            if left.number != right.number { return left.number.lexicographicallyPrecedes(right.number) }
            return left.path.utf8.lexicographicallyPrecedes(right.path.utf8)
        }
        var labels = ImportNames()
        for task in read {
            for name in task.card.labels { labels.insert(name) }
        }
        self.init(format: .backlog, title: projectName, columns: columns.names.map(ImportedColumn.init), labels: labels.names.map { ImportedLabel(name: $0) },
                  cards: read.map(\.card))
    }

    private enum BacklogPlace { case active, completed, archived }
    private enum BacklogRole { case config, task(BacklogPlace) }

    /// What the file at `path` (relative to the `backlog` folder) is to the import, or nil for a file it passes over.
    private static func backlogRole(of path: String) -> BacklogRole? {
        if path == "config.yml" { return .config }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = parts.last, name.hasSuffix(".md"), !name.hasPrefix("."), name.lowercased() != "readme.md" else { return nil }
        switch parts.dropLast().joined(separator: "/") {
        case "tasks": return .task(.active)
        case "completed": return .task(.completed)
        case "archive/tasks": return .task(.archived)
        default: return nil
        }
    }

    private static func backlogConfig(_ file: ImportFile) throws(KanbanError) -> [YAMLMapEntry] {
        try ImportText.check(file.bytes, path: file.shownPath, largestFile: ImportText.largestFile)
        do {
            return try file.bytes.withUnsafeBufferPointer { (buffer) throws(FrontmatterError) -> [YAMLMapEntry] in
                var parser = try YAMLParser(text: buffer, start: 0, end: buffer.count, firstLineNumber: 1)
                return try parser.parseTopLevel().entries.map { YAMLMapEntry(key: $0.key, value: $0.value) }
            }
        } catch {
            throw KanbanError(.invalidArgument, error.message, at: SourceLocation(path: file.shownPath, line: error.line, column: error.column))
        }
    }

    /// One task file as a card, the column empty when it has no `status`; nil for a file without frontmatter.
    private static func backlogTask(_ file: ImportFile) throws(KanbanError) -> (card: ImportedCard, ordinal: Double?, number: [Int])? {
        try ImportText.check(file.bytes, path: file.shownPath, largestFile: ImportText.largestFile)
        let document: FrontmatterDocument
        do {
            document = try FrontmatterDocument(bytes: backlogQuotingUsers(file.bytes))
        } catch {
            throw KanbanError(.invalidArgument, error.message, at: SourceLocation(path: file.shownPath, line: error.line, column: error.column))
        }
        guard document.hasFrontmatter else { return nil }
        func failure(_ key: String, _ message: String) -> KanbanError {
            let place = document.location(ofKey: key)
            return KanbanError(.invalidArgument, message, at: SourceLocation(path: file.shownPath, line: place?.line, column: place?.column))
        }
        func text(_ key: String) throws(KanbanError) -> String? {
            guard let value = document.value(forKey: key), !value.isNull else { return nil }
            guard let text = value.string else { throw failure(key, "'\(key)' is \(value.list != nil ? "a list" : "a map"), not text") }
            return text.isEmpty ? nil : text
        }
        func texts(_ key: String) throws(KanbanError) -> [String] {
            guard let value = document.value(forKey: key), !value.isNull else { return [] }
            if let text = value.string { return [text] }
            guard let items = value.list, items.allSatisfy({ $0.string != nil }) else { throw failure(key, "'\(key)' is not a list of names") }
            return items.compactMap(\.string).filter { !$0.isEmpty }
        }

        // `task-1 - Fix the login.md`: the id, then the title.
        let name = String((file.path.split(separator: "/").last ?? "").dropLast(3))
        let nameParts = name.components(separatedBy: " - ")
        let id = try text("id") ?? nameParts[0]
        let title = try text("title") ?? (nameParts.count > 1 ? nameParts.dropFirst().joined(separator: " - ") : name)
        var ordinal: Double?
        if let written = try text("ordinal") {
            guard let number = Double(written), number.isFinite else { throw failure("ordinal", "'ordinal' is '\(written)', not a number") }
            ordinal = number
        }

        var fields: [YAMLMapEntry] = []
        func list(_ key: String, _ values: [String]) {
            if !values.isEmpty { fields.append(YAMLMapEntry(key: key, value: .list(values.map { .string($0) }))) }
        }
        func scalar(_ key: String, _ value: String?) {
            if let value { fields.append(YAMLMapEntry(key: key, value: .string(value))) }
        }
        list("assignee", try texts("assignee"))
        scalar("reporter", try text("reporter"))
        scalar("priority", try text("priority"))
        list("dependencies", try texts("dependencies"))
        scalar("milestone", try text("milestone"))
        if let due = try text("due_date") { fields.append(YAMLMapEntry(key: "due", value: .unquoted(due))) }

        let card = ImportedCard(
            sourceID: "backlog:\(id)", title: title, column: try text("status") ?? "", labels: try texts("labels"), body: document.body,
            fields: fields, created: try text("created_date").flatMap(ImportText.date), modified: try text("updated_date").flatMap(ImportText.date))
        return (card, ordinal, backlogNumber(id))
    }

    /// The numbers of a task id for ordering: `task-12.1` is `[12, 1]`; an id without them is `[]`, first.
    private static func backlogNumber(_ id: String) -> [Int] {
        let digits = id.split(separator: "-").last ?? ""
        return digits.split(separator: ".").map { part in
            // A number too long for an Int still sorts after every shorter one.
            part.allSatisfy { $0.isASCII && $0.isNumber } ? Int(part) ?? Int.max : Int.max
        }
    }

    /// The file with `@name` values of `assignee` and `reporter` quoted, as Backlog.md's own reader does: it writes
    /// `assignee: @ana` and `[@ana, @jo]`, which YAML reserves (`@` cannot start a plain scalar). Lines keep their
    /// number, so errors point at the file's own lines.
    private static func backlogQuotingUsers(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "@")) else { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" || lines.first?.hasPrefix("\u{FEFF}---") == true else { return bytes }
        var key = ""
        for index in lines.indices.dropFirst() {
            let line = lines[index]
            if line.hasPrefix("---") { break }
            func quoted(_ value: Substring) -> String {
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("@") else { return String(value) }
                return " \"" + trimmed.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
            if !line.hasPrefix(" "), !line.hasPrefix("\t"), let colon = line.firstIndex(of: ":") {
                key = String(line[..<colon])
                guard key == "assignee" || key == "reporter" else { continue }
                let value = line[line.index(after: colon)...]
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                    let items = trimmed.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
                    lines[index] = "\(key): [" + items.map { quoted($0).trimmingCharacters(in: .whitespaces) }.joined(separator: ", ") + "]"
                } else {
                    lines[index] = "\(key):" + quoted(value)
                }
            } else if key == "assignee", let dash = line.firstIndex(of: "-"), line[..<dash].allSatisfy({ $0 == " " }) {
                lines[index] = String(line[...dash]) + quoted(line[line.index(after: dash)...])
            }
        }
        return Array(lines.joined(separator: "\n").utf8)
    }
}
