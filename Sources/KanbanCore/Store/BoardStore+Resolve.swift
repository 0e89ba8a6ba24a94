import Foundation

extension BoardStore {
    /// The card file `reference` names: a path, an exact slug, or a unique slug prefix.
    func resolve(_ reference: String, in scope: CardScope, root: BoardRoot) throws(KanbanError) -> CardFile {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw KanbanError(.invalidArgument, "a card reference cannot be empty") }
        if trimmed.contains("/") || trimmed.hasSuffix(".md") {
            let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
            // `todo/fix-login` names a card by column and slug.
            if parts.count == 2, parts[0] != "cards", parts[0] != "archive", parts[0] != "..", Column.isValidID(String(parts[0])),
               Slug.isValid(String(parts[1])) {
                let name = parts[1].hasSuffix(".md") ? String(parts[1]) : parts[1] + ".md"
                return try resolvePath("cards/\(parts[0])/\(name)", root: root)
            }
            return try resolvePath(trimmed, root: root)
        }
        guard Slug.isValid(trimmed) else {
            throw KanbanError(.cardNotFound, "no card matches '\(trimmed)'")
        }
        // An exact slug is found without listing every card: one lstat per column, and the archive's names.
        let exact = try exactMatches(trimmed, in: scope, root: root)
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 {
            throw KanbanError(.ambiguousCard, "'\(trimmed)' names \(exact.count) cards; give a path",
                              candidates: exact.map(\.path).sorted())
        }
        let board = try readBoardFile(in: root).board
        let listing = try listCardFiles(scope, columns: nil, board: board, in: root)
        let files = listing.files
        let prefixed = files.filter { $0.slug.hasPrefix(trimmed) }
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            let slugs = Array(Set(prefixed.map(\.slug))).sorted { $0.utf8Precedes($1) }
            throw KanbanError(.ambiguousCard, "'\(trimmed)' matches \(prefixed.count) cards", candidates: slugs)
        }
        if let link = listing.diagnostics.first(where: { $0.code == .outsideBoard && ($0.location.path as NSString).lastPathComponent.hasPrefix(trimmed) }) {
            throw KanbanError(.outsideBoard, "'\(trimmed)' is a link that points outside the board directory; it is not followed",
                              at: link.location)
        }
        // Close matches: slugs containing what was typed, then slugs a typo or two away.
        var near = files.map(\.slug).filter { $0.contains(trimmed) }.sorted { $0.utf8Precedes($1) }
        let limit = max(1, min(4, trimmed.count / 4))
        let typos = files.map(\.slug).filter { !near.contains($0) && abs($0.count - trimmed.count) <= limit }
            .map { (slug: $0, distance: EditDistance.between($0, trimmed)) }
            .filter { $0.distance <= limit }
            .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.slug.utf8Precedes($1.slug) }
        near = typos.map(\.slug) + near
        let place = scope == .archived ? "in the archive" : scope == .all ? "on the board or in the archive" : "on the board"
        throw KanbanError(.cardNotFound, "no card \(place) matches '\(trimmed)'", candidates: Array(near.prefix(5)))
    }

    /// A path relative to the board, or absolute inside it, that names a card file.
    private func resolvePath(_ path: String, root: BoardRoot) throws(KanbanError) -> CardFile {
        var relative = path
        if path.hasPrefix("/") {
            let resolved = FileSystem.realPath((path as NSString).deletingLastPathComponent).map {
                $0 + "/" + (path as NSString).lastPathComponent
            } ?? path
            guard resolved.hasPrefix(directory + "/") else {
                throw KanbanError(.outsideBoard, "'\(path)' is outside the board directory '\(directory)'")
            }
            relative = String(resolved.dropFirst(directory.count + 1))
        }
        let components = relative.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        if components.contains("..") {
            throw KanbanError(.outsideBoard, "'\(path)' reaches outside the board directory")
        }
        let boardPath = components.joined(separator: "/")
        let name = components.last.map(String.init) ?? ""
        let file: CardFile
        if components.count == 3, components[0] == "cards", CardFile.isCardFileName(name) {
            file = CardFile.active(name: name, column: String(components[1]))
        } else if components.count == 2, components[0] == "archive", CardFile.isCardFileName(name) {
            file = CardFile.archived(name: name)
        } else {
            throw KanbanError(.cardNotFound, "'\(path)' is not a card: cards are 'cards/<column>/<slug>.md' or 'archive/<date>-<slug>.md'")
        }
        // Walked inside the board: a link on the way (a column, `cards`, the card) that leads out is refused.
        guard let place = try root.place(of: boardPath), let kind = place.directory.kind(of: place.name) else {
            throw KanbanError(.cardNotFound, "no card at '\(file.path)'")
        }
        guard kind == .file else { throw FileSystem.notRegularFile(file.path) }
        return file
    }

    /// The card files whose slug is exactly `slug`, found with one `lstat` per column directory and, for archived
    /// cards, the names in `archive/`; links that point outside the board, and special files, are left out, as the
    /// listing does.
    func exactMatches(_ slug: String, in scope: CardScope, root: BoardRoot) throws(KanbanError) -> [CardFile] {
        var matches: [CardFile] = []
        let name = slug + ".md"
        guard CardFile.isCardFileName(name) else { return [] }
        func isCard(_ file: CardFile) -> Bool {
            guard let place = try? root.place(of: file.path) else { return false }
            return place.directory.kind(of: place.name) == .file
        }
        if scope.contains(.active) {
            for column in columnDirectories(in: root).directories {
                let file = CardFile.active(name: name, column: column)
                if isCard(file) { matches.append(file) }
            }
        }
        if scope.contains(.archived), refusal(of: "archive", in: root) == nil {
            for entry in try root.entries(of: "archive") where entry.name.hasSuffix(name) && CardFile.isCardFileName(entry.name) {
                let file = CardFile.archived(name: entry.name)
                if file.slug == slug && isCard(file) { matches.append(file) }
            }
        }
        return matches
    }
}
