import Foundation

/// What loading one card file gave: the card and the check findings about it, or why it was skipped.
struct LoadedCard: Sendable {
    var card: Card?
    /// Problems that make the file unreadable (the card is nil) or that checks report (the card loaded).
    var diagnostics: [Diagnostic]
    /// Where the body starts in the file's bytes.
    var bodyOffset = 0
}

/// Reads many card files at once, on every core, parsing frontmatter and leaving bodies unread unless asked.
enum CardLoader {
    /// Loads `files` (paths relative to `root`), keeping their order in the result.
    /// - Parameter labels: The board's declared labels, to report undeclared ones where they stand; nil skips that check.
    static func load(_ files: [CardFile], root: String, includeBodies: Bool, labels: Set<String>? = nil) -> [LoadedCard] {
        ParallelMap.map(files, minimumChunk: 16) { loadOne($0, root: root, includeBodies: includeBodies, labels: labels) }
    }

    static func loadOne(_ file: CardFile, root: String, includeBodies: Bool, labels: Set<String>? = nil) -> LoadedCard {
        do {
            return loadOne(file, bytes: try FileSystem.readFile(root + "/" + file.path), includeBodies: includeBodies, labels: labels)
        } catch {
            return unreadable(file, error)
        }
    }

    /// What a file that could not be read loads as.
    static func unreadable(_ file: CardFile, _ error: KanbanError) -> LoadedCard {
        LoadedCard(card: nil, diagnostics: [Diagnostic(.error, .invalidFile, at: SourceLocation(path: file.path, line: 1, column: 1), error.message)])
    }

    /// The card in `bytes`, the contents of `file`, with what the checks notice about it.
    static func loadOne(_ file: CardFile, bytes: [UInt8], includeBodies: Bool, labels: Set<String>?) -> LoadedCard {
        bytes.withUnsafeBufferPointer { loadOne(file, bytes: $0, includeBodies: includeBodies, labels: labels) }
    }

    static func loadOne(_ file: CardFile, bytes: UnsafeBufferPointer<UInt8>, includeBodies: Bool, labels: Set<String>?) -> LoadedCard {
        let marks = marks(in: bytes)
        let markerLine = marks.conflictMarker
        // Most cards are plain and have nothing to report: read those without the YAML parser.
        if marks.isEmpty, let plain = CardReader.readPlain(bytes, file: file, includeBody: includeBodies),
           isUnremarkable(plain.card, file: file, labels: labels) {
            return LoadedCard(card: plain.card, diagnostics: [], bodyOffset: plain.bodyOffset)
        }
        do {
            let (card, document) = try CardReader.read(Array(bytes), file: file, includeBody: includeBodies)
            var diagnostics: [Diagnostic] = []
            if let markerLine {
                diagnostics.append(Diagnostic(.error, .conflictMarkers, at: SourceLocation(path: file.path, line: markerLine, column: 1),
                                              "git conflict markers left in the card"))
            }
            if let (line, kind) = marks.keptSection {
                let location = SourceLocation(path: file.path, line: line, column: 1)
                switch kind {
                case .conflict:
                    diagnostics.append(Diagnostic(.warning, .keptText, at: location,
                        "a merge kept the other side's text of an edit made at the same time here; merge it into the card and delete the section"))
                case .otherCard:
                    diagnostics.append(Diagnostic(.warning, .keptCard, at: location,
                        "a merge kept another card added under this name here; 'kanban doctor --fix' or 'kanban sync' makes it a card of its own"))
                }
            }
            if let labels {
                for label in card.labels where !labels.contains(label) {
                    let place = document.location(ofKey: "labels")
                    let location = SourceLocation(path: file.path, line: place?.line, column: place?.column)
                    if let id = AppDialect.unquotedLabel(label) {
                        diagnostics.append(Diagnostic(.warning, .quotedLabel, at: location,
                                                      "label '\(label)' is written in quotes, which SimpleKanban and kanban read as part of the id; 'kanban doctor --fix' writes it as \(id)"))
                    } else {
                        diagnostics.append(Diagnostic(.warning, .undeclaredLabel, at: location, "label '\(label)' is not declared in board.md"))
                    }
                }
            }
            if card.hasFrontmatter && document.value(forKey: "title") == nil {
                diagnostics.append(Diagnostic(.warning, .missingTitle, at: SourceLocation(path: file.path, line: 1, column: 1),
                                              "card has no 'title'; its title comes from \(CardReader.heading(in: document.body) == nil ? "the file name" : "its first heading")"))
            }
            if !card.hasFrontmatter {
                diagnostics.append(Diagnostic(.warning, .missingFrontmatter, at: SourceLocation(path: file.path, line: 1, column: 1),
                                              "card has no frontmatter; it is listed after the positioned cards"))
            } else if card.position == nil && !card.isArchived {
                diagnostics.append(Diagnostic(.warning, .missingPosition, at: SourceLocation(path: file.path, line: 1, column: 1),
                                              "card has no 'position'; it is listed after the positioned cards"))
            }
            if let field = card.columnField, let directory = file.directoryColumn, field != directory {
                let place = document.location(ofKey: "column")
                diagnostics.append(Diagnostic(.warning, .staleColumn, at: SourceLocation(path: file.path, line: place?.line, column: place?.column),
                                              "'column: \(field)' disagrees with the directory; the card is in '\(directory)'"))
            }
            for reading in document.appReadings {
                guard let message = AppDialect.disagreement(reading) else { continue }
                diagnostics.append(Diagnostic(.warning, .readsDifferently,
                                              at: SourceLocation(path: file.path, line: reading.line, column: reading.column), message))
            }
            if let position = card.position, OrderKey.isOverLong(position) {
                let place = document.location(ofKey: "position")
                diagnostics.append(Diagnostic(.warning, .overLongKey, at: SourceLocation(path: file.path, line: place?.line, column: place?.column),
                                              "position key is \(position.utf8.count) characters long; re-keying keeps them to \(OrderKey.maximumLength)"))
            }
            return LoadedCard(card: card, diagnostics: diagnostics, bodyOffset: document.bodyOffset)
        } catch {
            if let markerLine {
                return LoadedCard(card: nil, diagnostics: [Diagnostic(.error, .conflictMarkers,
                    at: SourceLocation(path: file.path, line: markerLine, column: 1),
                    "git conflict markers left in the card; resolve the conflict to load it")])
            }
            return LoadedCard(card: nil, diagnostics: [Diagnostic(.error, .invalidFile, at: error.location ?? SourceLocation(path: file.path), error.message)])
        }
    }

    /// Whether the checks below would find nothing to say about `card`, read from plain frontmatter (which has a
    /// title key). Anything they would report is left to the full reader, which knows where each key is.
    private static let nullTexts: Set<String> = ["~", "null", "Null", "NULL"]

    private static func isUnremarkable(_ card: Card, file: CardFile, labels: Set<String>?) -> Bool {
        if let labels, !card.labels.allSatisfy(labels.contains) { return false }
        if card.position == nil && !card.isArchived { return false }
        if let field = card.columnField, let directory = file.directoryColumn, field != directory { return false }
        if let position = card.position, OrderKey.isOverLong(position) { return false }
        // `title: ~` and `labels: [null]` are the text `~` and the label `null` to SimpleKanban, and null to YAML: a
        // warning the full reader gives.
        let nulls = nullTexts
        if nulls.contains(card.title) || card.columnField.map(nulls.contains) == true || card.position.map(nulls.contains) == true
            || card.labels.contains(where: nulls.contains) {
            return false
        }
        return true
    }

    /// The 1-based line of the first `<<<<<<< ` marker at the start of a line, if any.
    static func conflictMarkerLine(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { marks(in: $0).conflictMarker }
    }

    /// Lines of a card file that need a person: the first git conflict marker, and the first section a merge kept.
    struct Marks {
        /// The 1-based line of the first `<<<<<<<` marker.
        var conflictMarker: Int?
        /// The 1-based line and kind of the first ``KeptText`` section.
        var keptSection: (line: Int, kind: KeptText.Kind)?

        var isEmpty: Bool { conflictMarker == nil && keptSection == nil }
    }

    static func marks(in buffer: UnsafeBufferPointer<UInt8>) -> Marks {
        var marks = Marks()
        guard let base = buffer.baseAddress else { return marks }
        let count = buffer.count
        var index = 0
        // Jump from one `<` to the next with memchr; only a `<` at the start of a line can open a marker or a section.
        while index < count, let found = memchr(base + index, Int32(UInt8(ascii: "<")), count - index) {
            let start = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if start == 0 || base[start - 1] == 0x0A {
                func line() -> Int { 1 + UnsafeBufferPointer(rebasing: buffer[0..<start]).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
                if isMarker(buffer, at: start) {
                    marks.conflictMarker = line()
                    return marks
                }
                if marks.keptSection == nil, let kind = keptSection(buffer, at: start) {
                    marks.keptSection = (line(), kind)
                }
            }
            index = start + 1
        }
        return marks
    }

    /// The kind of ``KeptText`` section whose start line begins at `start`, if one does.
    private static func keptSection(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> KeptText.Kind? {
        for kind in KeptText.Kind.allCases {
            let marker = kind.startLine.utf8
            let end = start + marker.count
            guard end <= buffer.count, buffer[start..<end].elementsEqual(marker) else { continue }
            if end == buffer.count || buffer[end] == 0x0A || buffer[end] == 0x0D { return kind }
        }
        return nil
    }

    /// Whether seven `<` start at `start`, followed by a space, a line end or the end of the file.
    private static func isMarker(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let end = start + 7
        guard end <= buffer.count else { return false }
        for index in start..<end where buffer[index] != UInt8(ascii: "<") { return false }
        return end == buffer.count || buffer[end] == 0x20 || buffer[end] == 0x0A || buffer[end] == 0x0D
    }
}
