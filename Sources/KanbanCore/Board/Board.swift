/// A board's settings from `board.md`: its title, columns, labels and notes.
public struct Board: Sendable, Hashable, Codable {
    /// The board's display name.
    public var title: String
    /// The columns in display order. Each column's cards live in `cards/<id>/`.
    public var columns: [Column]
    /// The labels cards may carry.
    public var labels: [Label]
    /// The markdown body of `board.md`.
    public var body: String
    /// Keys of `board.md` other than `title`, `columns` and `labels`, in file order.
    public var fields: [YAMLMapEntry]

    /// Creates a board.
    public init(title: String, columns: [Column], labels: [Label] = [], body: String = "", fields: [YAMLMapEntry] = []) {
        self.title = title
        self.columns = columns
        self.labels = labels
        self.body = body
        self.fields = fields
    }

    /// The text new cards start with: what stands under a `## Card Template` heading (its own `##` sections
    /// included, up to the next level-one `# ` heading), or the whole body when there is no such heading,
    /// as SimpleKanban does.
    public var cardTemplate: String {
        let lines = body.lines()
        guard let heading = lines.firstIndex(where: { isTemplateHeading($0) }) else {
            return body.trimmingBlankLines()
        }
        var end = lines.index(after: heading)
        while end < lines.endIndex, !lines[end].hasPrefix("# ") {
            end = lines.index(after: end)
        }
        return lines[lines.index(after: heading)..<end].joined(separator: "\n").trimmingBlankLines()
    }

    /// The key of board.md that makes WIP limits refuse a card rather than warn: `wip-limits: strict`.
    public static let wipLimitsKey = "wip-limits"

    /// Whether board.md says `wip-limits: strict`: adding or moving a card into a column at its limit is refused.
    public var refusesOverLimit: Bool {
        fields.first { $0.key == Self.wipLimitsKey }?.value.string?.lowercased() == "strict"
    }

    /// The column with this id, if `board.md` declares it.
    public func column(withID id: String) -> Column? {
        columns.first { $0.id == id }
    }

    /// The label with this id, if `board.md` declares it.
    public func label(withID id: String) -> Label? {
        labels.first { $0.id == id }
    }

    private func isTemplateHeading(_ line: Substring) -> Bool {
        guard line.hasPrefix("## ") else { return false }
        return line.dropFirst(3).trimmingCharacters(in: .whitespaces).lowercased() == "card template"
    }
}

/// A column of the board.
public struct Column: Sendable, Hashable, Identifiable, Codable {
    /// The identifier, which is also the directory name under `cards/`.
    public var id: String
    /// The display name.
    public var name: String
    /// Whether the board view shows the column narrow.
    public var isCollapsed: Bool
    /// The most cards the column should hold at once (`wip-limit:` in board.md), if it has a limit.
    public var wipLimit: Int?
    /// Whether cards in the column wait rather than being worked on (`queue: true` in board.md): time in it counts
    /// against flow efficiency.
    public var isQueue: Bool

    /// The WIP limits a column may have.
    public static let wipLimitRange = 1...100_000
    /// The key of a column's limit in board.md.
    public static let wipLimitKey = "wip-limit"
    /// The key that marks a column as a queue in board.md.
    public static let queueKey = "queue"

    /// The limit `text` sets: a whole number in ``wipLimitRange``, else nil.
    public static func wipLimit(from text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.count <= 6, digits.unicodeScalars.allSatisfy({ $0.value >= 0x30 && $0.value <= 0x39 }), let value = Int(digits),
              wipLimitRange.contains(value) else { return nil }
        return value
    }

    /// Creates a column.
    public init(id: String, name: String, isCollapsed: Bool = false, wipLimit: Int? = nil, isQueue: Bool = false) {
        self.id = id
        self.name = name
        self.isCollapsed = isCollapsed
        self.wipLimit = wipLimit
        self.isQueue = isQueue
    }

    /// Whether `id` can name a column directory: ASCII letters, digits, `-`, `_` and `.`, starting with a letter or
    /// digit, at most 64 bytes. This keeps ids from reaching outside `cards/` and keeps them easy to type.
    public static func isValidID(_ id: String) -> Bool {
        idProblem(id) == nil
    }

    /// Why `id` cannot name a column, naming the rule it breaks (see ``isValidID(_:)``), or nil when it can:
    /// `'.hidden' cannot be a column id: it must start with a letter or digit`.
    public static func idProblem(_ id: String) -> String? {
        let rule = "use ASCII letters, digits, '-', '_' or '.', starting with a letter or digit, at most 64 characters"
        guard let first = id.utf8.first else { return "a column id cannot be empty; \(rule)" }
        let prefix = "'\(id)' cannot be a column id"
        guard isAlphanumeric(first) else { return "\(prefix): it must start with a letter or digit (\(rule))" }
        if let bad = id.unicodeScalars.first(where: { !$0.isASCII || !(isAlphanumeric(UInt8($0.value)) || "-_.".unicodeScalars.contains($0)) }) {
            let shown = bad.properties.isWhitespace || bad.value < 0x20 ? "U+\(String(bad.value, radix: 16, uppercase: true))" : "'\(bad)'"
            return "\(prefix): \(shown) is not allowed (\(rule))"
        }
        guard id.utf8.count <= 64 else { return "\(prefix): it is \(id.utf8.count) characters long, and at most 64 are allowed" }
        return nil
    }

    /// Why the column id `id` cannot join `other`, which differs from it only in case: on a case-insensitive disk
    /// (macOS's default, Windows') their two directories are one.
    package static func caseCollisionMessage(_ id: String, _ other: String) -> String {
        "column id '\(id)' differs from '\(other)' only in case; a case-insensitive disk (macOS, Windows) cannot hold both directories; choose another id"
    }
}

/// A label cards can carry.
public struct Label: Sendable, Hashable, Identifiable, Codable {
    /// The identifier used in cards' `labels:` lists.
    public var id: String
    /// The display name.
    public var name: String
    /// A colour such as `#e74c3c`, if given.
    public var color: String?

    /// Creates a label.
    public init(id: String, name: String, color: String? = nil) {
        self.id = id
        self.name = name
        self.color = color
    }

    /// Whether `id` can name a label: not empty, no white space, commas, brackets, quotes or `#`,
    /// so that it reads back unchanged from a flow list.
    public static func isValidID(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 64 else { return false }
        return !id.unicodeScalars.contains {
            $0.properties.isWhitespace || $0.value < 0x20 || ",[]{}\"'#:&*!|>%@`".unicodeScalars.contains($0)
        }
    }

    /// Why `id` cannot name a new label, or nil when it can: what ``isValidID(_:)`` asks, and like a column id it
    /// starts with a letter or digit and holds letters (of any script), digits, `-`, `_`, `.` and `+` only, so it
    /// is never a path (`../x`) nor holds a control character. Labels already in `board.md` are read whatever they
    /// hold; this is for ids given to be written.
    public static func idProblem(_ id: String) -> String? {
        let rule = "use letters, digits, '-', '_', '.' or '+', starting with a letter or digit, at most 64 bytes"
        guard let first = id.unicodeScalars.first else { return "a label id cannot be empty; \(rule)" }
        let prefix = "'\(id)' cannot be a label id"
        func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
        guard isLetterOrDigit(first) else { return "\(prefix): it must start with a letter or digit (\(rule))" }
        if let bad = id.unicodeScalars.first(where: { !isLetterOrDigit($0) && !"-_.+".unicodeScalars.contains($0) }) {
            let shown = bad.properties.isWhitespace || BoardText.isControl(bad) ? BoardText.name(of: bad) : "'\(bad)'"
            return "\(prefix): \(shown) is not allowed (\(rule))"
        }
        guard id.utf8.count <= 64 else { return "\(prefix): it is \(id.utf8.count) bytes long, and at most 64 are allowed" }
        guard isValidID(id) else { return "\(prefix) (\(rule))" }
        return nil
    }

    /// The colours a label gets when none is given: SimpleKanban drops a label without a colour (and removes it
    /// from `board.md` when it next saves the board), so every label kanban writes has one.
    public static let palette = ["#e74c3c", "#3498db", "#2ecc71", "#f39c12", "#9b59b6", "#1abc9c", "#e91e63", "#34495e", "#e67e22", "#7f8c8d"]

    /// The first colour of ``palette`` that none of `labels` uses (or, when all are taken, the one the count
    /// points at): the same on every machine for the same board.
    public static func defaultColor(besides labels: [Label]) -> String {
        let used = Set(labels.compactMap { $0.color?.lowercased() })
        return palette.first { !used.contains($0) } ?? palette[labels.count % palette.count]
    }

    /// Whether `color` is a `#rgb` or `#rrggbb` hex colour.
    public static func isValidColor(_ color: String) -> Bool {
        let bytes = Array(color.utf8)
        guard bytes.first == UInt8(ascii: "#"), bytes.count == 4 || bytes.count == 7 else { return false }
        return bytes.dropFirst().allSatisfy { isHexDigit($0) }
    }
}

private func isAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
}

private func isHexDigit(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
}

extension String {
    /// The text without blank lines at either end (the lines inside are kept as they are).
    package func trimmingBlankLines() -> String {
        var lines = lines()
        while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}

extension Board {
    /// The display name of a column id (the id itself for undeclared directories).
    public func columnName(_ id: String) -> String {
        column(withID: id)?.name ?? id
    }
}
