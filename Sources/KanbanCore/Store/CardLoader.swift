import Foundation

/// What loading one card file gave: the card and the check findings about it, or why it was skipped.
struct LoadedCard: Sendable {
    var card: Card?
    /// Problems that make the file unreadable (the card is nil) or that checks report (the card loaded).
    var diagnostics: [Diagnostic]
}

/// Reads many card files at once, on every core, parsing frontmatter and leaving bodies unread unless asked.
enum CardLoader {
    /// Loads `files` (paths relative to `root`), keeping their order in the result.
    /// - Parameter labels: The board's declared labels, to report undeclared ones where they stand; nil skips that check.
    static func load(_ files: [CardFile], root: String, includeBodies: Bool, labels: Set<String>? = nil) -> [LoadedCard] {
        ParallelMap.map(files, minimumChunk: 16) { loadOne($0, root: root, includeBodies: includeBodies, labels: labels) }
    }

    static func loadOne(_ file: CardFile, root: String, includeBodies: Bool, labels: Set<String>? = nil) -> LoadedCard {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(root + "/" + file.path)
        } catch {
            return LoadedCard(card: nil, diagnostics: [Diagnostic(.error, .invalidFile, at: SourceLocation(path: file.path, line: 1, column: 1), error.message)])
        }
        let markerLine = conflictMarkerLine(in: bytes)
        do {
            let (card, document) = try CardReader.read(bytes, file: file, includeBody: includeBodies)
            var diagnostics: [Diagnostic] = []
            if let markerLine {
                diagnostics.append(Diagnostic(.error, .conflictMarkers, at: SourceLocation(path: file.path, line: markerLine, column: 1),
                                              "git conflict markers left in the card"))
            }
            if let labels {
                for label in card.labels where !labels.contains(label) {
                    let place = document.location(ofKey: "labels")
                    diagnostics.append(Diagnostic(.warning, .undeclaredLabel, at: SourceLocation(path: file.path, line: place?.line, column: place?.column),
                                                  "label '\(label)' is not declared in board.md"))
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
            if let position = card.position, OrderKey.isOverLong(position) {
                let place = document.location(ofKey: "position")
                diagnostics.append(Diagnostic(.warning, .overLongKey, at: SourceLocation(path: file.path, line: place?.line, column: place?.column),
                                              "position key is \(position.utf8.count) characters long; re-keying keeps them to \(OrderKey.maximumLength)"))
            }
            return LoadedCard(card: card, diagnostics: diagnostics)
        } catch {
            if let markerLine {
                return LoadedCard(card: nil, diagnostics: [Diagnostic(.error, .conflictMarkers,
                    at: SourceLocation(path: file.path, line: markerLine, column: 1),
                    "git conflict markers left in the card; resolve the conflict to load it")])
            }
            return LoadedCard(card: nil, diagnostics: [Diagnostic(.error, .invalidFile, at: error.location ?? SourceLocation(path: file.path), error.message)])
        }
    }

    /// The 1-based line of the first `<<<<<<< ` marker at the start of a line, if any.
    static func conflictMarkerLine(in bytes: [UInt8]) -> Int? {
        let marker = Array("<<<<<<<".utf8)
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            var line = 1
            var atLineStart = true
            var index = 0
            let count = buffer.count
            while index < count {
                let byte = buffer[index]
                if atLineStart && byte == UInt8(ascii: "<") && index + marker.count <= count {
                    var matches = true
                    for offset in 0..<marker.count where buffer[index + offset] != marker[offset] {
                        matches = false
                        break
                    }
                    if matches && (index + marker.count == count || buffer[index + marker.count] == 0x20
                                   || buffer[index + marker.count] == 0x0A || buffer[index + marker.count] == 0x0D) {
                        return line
                    }
                }
                atLineStart = byte == 0x0A
                if atLineStart { line += 1 }
                index += 1
            }
            return nil
        }
    }
}
