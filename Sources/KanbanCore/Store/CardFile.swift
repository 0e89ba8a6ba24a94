import Foundation

/// Where a card file is on the board, known from its path alone before the file is read.
package struct CardFile: Sendable, Hashable {
    /// Path relative to the board directory.
    package var path: String
    /// The card's identity: the file name without `.md` (and without the archive date prefix).
    package var slug: String
    /// The column directory for active cards; nil for archived ones.
    package var directoryColumn: String?
    /// `YYYY-MM-DD` for archived cards named that way.
    package var archivedOn: String?

    package var isArchived: Bool { directoryColumn == nil }

    /// Whether a directory entry named `name` is a card rather than editor litter: it ends in `.md` and is not
    /// hidden (`.x.md.swp`, `.#x.md`), a backup (`x.md~`) or an autosave (`#x.md#`). Vim's `4913` probe and
    /// anything else not ending in `.md` is not a card either.
    package static func isCardFileName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(isCardFileName)
    }

    /// The same for a name given as its bytes.
    package static func isCardFileName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count > 3, bytes[count - 3] == UInt8(ascii: "."), bytes[count - 2] == UInt8(ascii: "m"),
              bytes[count - 1] == UInt8(ascii: "d"), bytes[0] != UInt8(ascii: "."), bytes[0] != UInt8(ascii: "#")
        else { return false }
        // JetBrains' safe-write files (`x.md___jb_tmp___`) end otherwise, but say so anywhere.
        let marker = "___jb_".utf8
        guard count >= marker.count else { return true }
        return !(0...(count - marker.count)).contains { start in
            bytes[start] == UInt8(ascii: "_") && bytes[start..<(start + marker.count)].elementsEqual(marker)
        }
    }

    /// The diagnostic for a listed file whose name is not valid UTF-8, which cannot be a card: the name is shown with
    /// the bytes that are not UTF-8 escaped (`caf\xE9.md`).
    static func invalidName(_ name: UnsafeBufferPointer<UInt8>, in directory: String) -> Diagnostic {
        Diagnostic(.error, .invalidFileName, at: SourceLocation(path: directory + "/" + escapedName(name)),
                   "the file name is not valid UTF-8 (bytes shown as \\xNN); rename it (with 'mv') to read it as a card")
    }

    /// `name` decoded as UTF-8, with every byte that is not part of a valid sequence written `\xNN`.
    static func escapedName(_ name: UnsafeBufferPointer<UInt8>) -> String {
        var text = ""
        var start = 0
        while start < name.count {
            let rest = UnsafeBufferPointer(rebasing: name[start...])
            guard let bad = UTF8Validation.firstInvalidOffset(in: rest) else {
                text += String(decoding: rest, as: UTF8.self)
                break
            }
            text += String(decoding: UnsafeBufferPointer(rebasing: rest[..<bad]), as: UTF8.self)
            text += "\\x" + String(rest[bad], radix: 16, uppercase: true).leftPadded(to: 2)
            start += bad + 1
        }
        return text
    }

    /// The card file named `name` (its bytes, which end in `.md`) in the column directory whose path relative to
    /// the board is `directory` (`cards/<column>`): what ``active(name:column:)`` gives, made straight from the
    /// bytes a listing gives.
    static func active(name: UnsafeBufferPointer<UInt8>, column: String, directory: UnsafeBufferPointer<UInt8>) -> CardFile {
        let length = directory.count + 1 + name.count
        let path = String(unsafeUninitializedCapacity: length) { path in
            _ = path.initialize(fromContentsOf: directory)
            path[directory.count] = UInt8(ascii: "/")
            _ = UnsafeMutableBufferPointer(rebasing: path[(directory.count + 1)...]).initialize(fromContentsOf: name)
            return length
        }
        return CardFile(path: path, slug: String(decoding: UnsafeBufferPointer(rebasing: name.dropLast(3)), as: UTF8.self),
                        directoryColumn: column, archivedOn: nil)
    }

    /// The card file for `name` in column directory `column`.
    package static func active(name: String, column: String) -> CardFile {
        // Built by appending, not interpolating: a board load makes one for each of its files.
        var path = "cards/"
        path.reserveCapacity(7 + column.utf8.count + name.utf8.count)
        path += column
        path += "/"
        path += name
        return CardFile(path: path, slug: stem(name), directoryColumn: column, archivedOn: nil)
    }

    /// The name without its last three bytes, `.md`.
    private static func stem(_ name: String) -> String {
        var name = name
        return name.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0.dropLast(3)), as: UTF8.self) }
    }

    /// The card file for `name` in `archive/`: `YYYY-MM-DD-slug.md`, or a plain `slug.md` put there by hand.
    package static func archived(name: String) -> CardFile {
        let stem = stem(name)
        let bytes = Array(stem.utf8)
        func digit(_ index: Int) -> Bool { bytes[index] >= 0x30 && bytes[index] <= 0x39 }
        if bytes.count > 11, (0..<4).allSatisfy(digit), bytes[4] == UInt8(ascii: "-"), digit(5), digit(6),
           bytes[7] == UInt8(ascii: "-"), digit(8), digit(9), bytes[10] == UInt8(ascii: "-") {
            return CardFile(path: "archive/\(name)", slug: String(stem.dropFirst(11)), directoryColumn: nil,
                            archivedOn: String(stem.prefix(10)))
        }
        return CardFile(path: "archive/\(name)", slug: stem, directoryColumn: nil, archivedOn: nil)
    }
}

extension String {
    /// The string with `0`s in front to make it `width` characters long.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Turns a card file's bytes into a ``Card``.
package enum CardReader {
    /// The card, or an error with `path:line:column` when the file cannot be parsed or a known key has a value
    /// of the wrong kind. Also returns the parsed document, which edits start from.
    package static func read(_ bytes: [UInt8], file: CardFile, includeBody: Bool) throws(KanbanError) -> (Card, FrontmatterDocument) {
        let document: FrontmatterDocument
        do {
            document = try FrontmatterDocument(bytes: bytes, dialect: .card)
        } catch {
            throw KanbanError(.invalidCard, error.message, at: SourceLocation(path: file.path, line: error.line, column: error.column))
        }
        return (try card(from: document, file: file, includeBody: includeBody), document)
    }

    /// The card when its frontmatter is of the plainest kind (``PlainFrontmatter``), has a `title` key, and its
    /// known keys hold what they should; nil otherwise, and ``read(_:file:includeBody:)`` then says what the card
    /// is, or what is wrong. For loading many cards: it skips the YAML parser and the lossless document, and makes
    /// only the strings the card keeps. Also returns the offset where the body starts.
    ///
    /// What it gives is exactly what ``read(_:file:includeBody:)`` gives (tests compare the two on many files).
    static func readPlain(_ bytes: [UInt8], file: CardFile, includeBody: Bool) -> (card: Card, bodyOffset: Int)? {
        bytes.withUnsafeBufferPointer { readPlain($0, file: file, includeBody: includeBody) }
    }

    static func readPlain(_ buffer: UnsafeBufferPointer<UInt8>, file: CardFile, includeBody: Bool) -> (card: Card, bodyOffset: Int)? {
        /// A known key's single value: its range (a title of `~` is the text `~`, as SimpleKanban reads it); a list
        /// makes the card not plain.
        func scalar(_ value: PlainFrontmatter.Value) -> Range<Int>?? {
            guard case .scalar(let range) = value else { return nil }
            return range
        }
        /// A date's value: nil for YAML's null (`~`, `null`), which no date is.
        func date(_ value: PlainFrontmatter.Value) -> Range<Int>?? {
            guard case .scalar(let range) = value else { return nil }
            return PlainFrontmatter.isNull(buffer, range) ? .some(nil) : range
        }
        func string(_ range: Range<Int>?) -> String? {
            range.map { PlainFrontmatter.string(buffer, $0) }
        }
        var title: Range<Int>??
        var column: Range<Int>?
        var position: Range<Int>?
        var created: Date?
        var modified: Date?
        var labels: [String] = []
        var fields: [YAMLMapEntry] = []
        var isPlain = true
        let bodyStart = PlainFrontmatter.walk(buffer) { key, value in
            guard isPlain else { return }
            switch KnownKey(buffer[key]) {
            case .title:
                guard let text = scalar(value) else { return isPlain = false }
                title = .some(text)
            case .column:
                guard let text = scalar(value) else { return isPlain = false }
                column = text
            case .position:
                guard let text = scalar(value) else { return isPlain = false }
                position = text
            case .created, .modified:
                guard let text = date(value) else { return isPlain = false }
                guard let text else { return }
                guard let date = ISO8601.date(from: UnsafeBufferPointer(rebasing: buffer[text])) else { return isPlain = false }
                if key.count == 7 { created = date } else { modified = date }
            case .labels:
                switch value {
                case .scalar(let range):
                    if !PlainFrontmatter.isNull(buffer, range) { labels = [PlainFrontmatter.string(buffer, range)] }
                case .list(let range):
                    PlainFrontmatter.forEachItem(in: buffer, of: range) { labels.append(PlainFrontmatter.string(buffer, $0)) }
                }
            case nil:
                fields.append(YAMLMapEntry(key: PlainFrontmatter.string(buffer, key), value: PlainFrontmatter.yamlValue(value, in: buffer)))
            }
        }
        guard let bodyStart, isPlain, let title else { return nil }
        var bodyText: String?
        var titleText = string(title) ?? ""
        if titleText.isEmpty || includeBody {
            // Plain frontmatter ends its lines in line feeds, so the file does: the body is read as it is.
            let text = FrontmatterDocument.body(UnsafeBufferPointer(rebasing: buffer[bodyStart...]), usesCRLF: false)
            if includeBody { bodyText = text }
            if titleText.isEmpty { titleText = heading(in: text) ?? titleFromSlug(file.slug) }
        }
        let columnField = string(column)
        let card = Card(
            slug: file.slug, title: titleText, column: file.directoryColumn ?? columnField ?? "", columnField: columnField,
            position: string(position), created: created, modified: modified, labels: labels, fields: fields, path: file.path,
            isArchived: file.isArchived, archivedOn: file.archivedOn, hasFrontmatter: true, body: bodyText)
        return (card, bodyStart)
    }

    /// The keys ``Card/knownKeys`` names, told apart by their bytes.
    private enum KnownKey {
        case title, column, position, created, modified, labels

        init?(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            func equals(_ text: StaticString) -> Bool {
                bytes.count == text.utf8CodeUnitCount && memcmp(bytes.base.baseAddress! + bytes.startIndex, text.utf8Start, bytes.count) == 0
            }
            switch bytes.first {
            case UInt8(ascii: "t") where equals("title"): self = .title
            case UInt8(ascii: "c") where equals("column"): self = .column
            case UInt8(ascii: "c") where equals("created"): self = .created
            case UInt8(ascii: "p") where equals("position"): self = .position
            case UInt8(ascii: "m") where equals("modified"): self = .modified
            case UInt8(ascii: "l") where equals("labels"): self = .labels
            default: return nil
            }
        }
    }

    static func card(from document: FrontmatterDocument, file: CardFile, includeBody: Bool) throws(KanbanError) -> Card {
        try card(entries: document.entries, hasFrontmatter: document.hasFrontmatter, file: file, includeBody: includeBody,
                 body: { document.body }) { key in
            let place = document.location(ofKey: key)
            return SourceLocation(path: file.path, line: place?.line, column: place?.column)
        }
    }

    /// The card the frontmatter `entries` describe.
    /// - Parameters:
    ///   - body: The markdown body, decoded only when needed (asked for, or for a title from the first heading).
    ///   - location: Where a key's value is, for errors.
    private static func card(entries: [YAMLMapEntry], hasFrontmatter: Bool, file: CardFile, includeBody: Bool,
                             body: () -> String, location: (String) -> SourceLocation) throws(KanbanError) -> Card {
        func value(_ key: String) -> YAMLValue? {
            entries.first { $0.key == key }?.value
        }
        /// A key's text. The keys SimpleKanban owns are read as the app reads them, so their text is what the line
        /// says (`title: ~` is the title `~`) and only an empty value is none; other keys follow YAML (`~` is null).
        func string(_ key: String) throws(KanbanError) -> String? {
            guard let value = value(key), AppDialect.cardKeys.contains(key) || !value.isNull else { return nil }
            guard let text = value.string else {
                throw KanbanError(.invalidCard, "'\(key)' must be a single value, not a list or map", at: location(key))
            }
            return text.isEmpty ? nil : text
        }
        func date(_ key: String) throws(KanbanError) -> Date? {
            guard let text = try string(key), !["~", "null", "Null", "NULL"].contains(text) else { return nil }
            guard let date = ISO8601.date(from: text) else {
                throw KanbanError(.invalidCard, "'\(key)' is not an ISO 8601 date: '\(text)'", at: location(key))
            }
            return date
        }

        var labels: [String] = []
        if let value = value("labels"), !value.isNull {
            if let items = value.list {
                for item in items {
                    guard let label = item.string else {
                        throw KanbanError(.invalidCard, "'labels' must be a list of label ids", at: location("labels"))
                    }
                    if !label.isEmpty { labels.append(label) }
                }
            } else if let single = value.string {
                if !single.isEmpty { labels = [single] }
            } else {
                throw KanbanError(.invalidCard, "'labels' must be a list of label ids", at: location("labels"))
            }
        }
        let columnField = try string("column")
        var position = try string("position")
        if position?.isEmpty == true { position = nil }
        let created = try date("created")
        let modified = try date("modified")
        var bodyText: String?
        var title = try string("title") ?? ""
        if title.isEmpty || includeBody {
            let text = body()
            if includeBody { bodyText = text }
            if title.isEmpty { title = heading(in: text) ?? titleFromSlug(file.slug) }
        }
        var fields: [YAMLMapEntry] = []
        for entry in entries where !Card.knownKeys.contains(entry.key) {
            fields.append(entry)
        }
        return Card(
            slug: file.slug, title: title, column: file.directoryColumn ?? columnField ?? "", columnField: columnField,
            position: position, created: created, modified: modified, labels: labels, fields: fields, path: file.path,
            isArchived: file.isArchived, archivedOn: file.archivedOn, hasFrontmatter: hasFrontmatter, body: bodyText)
    }

    /// The text of the first `# ` heading.
    static func heading(in body: String) -> String? {
        for line in body.lines(omittingEmpty: true) where line.hasPrefix("# ") {
            let text = line.dropFirst(2).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { return text }
        }
        return nil
    }

    /// `fix-login-bug` → `Fix login bug`.
    package static func titleFromSlug(_ slug: String) -> String {
        let words = slug.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
