import Foundation

extension JSONDocument {
    /// Parses an export's bytes, after checking their size and encoding, as one JSON value.
    /// - Throws: ``KanbanError/Code/invalidArgument`` at `path:line:column` for a file over `largestFile` bytes, bytes
    ///   that are not UTF-8, JSON cut short (`truncated JSON`), anything else that is not JSON, or nesting deeper than
    ///   ``deepestNesting``.
    static func parse(_ bytes: [UInt8], path: String, largestFile: Int) throws(KanbanError) -> JSONDocument {
        try ImportText.check(bytes, path: path, largestFile: largestFile)
        do {
            return try parse(bytes)
        } catch {
            throw KanbanError(.invalidArgument, error.message, at: SourceLocation(path: path, line: error.line, column: error.column))
        }
    }
}

/// Reads the members of an import's JSON with their types checked: a member of the wrong type is refused with its
/// place and a name a person recognizes (`card 3's 'name' is a number, not text`), a missing or null optional one is
/// nil.
struct ImportJSONReader {
    /// How errors name the file.
    let path: String

    func failure(_ message: String, at value: JSONDocument?) -> KanbanError {
        KanbanError(.invalidArgument, message, at: SourceLocation(path: path, line: value?.line ?? 1, column: value?.column ?? 1))
    }

    private func wrongType(_ value: JSONDocument, _ what: String, _ expected: String) -> KanbanError {
        failure("\(what) is \(value.kindName), not \(expected)", at: value)
    }

    /// The text of `object[key]`; nil when it is missing or null.
    func text(_ object: JSONDocument, _ key: String, of owner: String) throws(KanbanError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text = value.text else { throw wrongType(value, "\(owner)'s '\(key)'", "text") }
        return text
    }

    /// The text of `object[key]`, which must be there.
    func requiredText(_ object: JSONDocument, _ key: String, of owner: String) throws(KanbanError) -> String {
        guard let text = try text(object, key, of: owner) else { throw failure("\(owner) has no '\(key)'", at: object) }
        return text
    }

    /// Whether `object[key]` is true; false when it is missing or null.
    func bool(_ object: JSONDocument, _ key: String, of owner: String) throws(KanbanError) -> Bool {
        guard let value = object[key], !value.isNull else { return false }
        guard case .bool(let flag) = value.kind else { throw wrongType(value, "\(owner)'s '\(key)'", "true or false") }
        return flag
    }

    /// The number in `object[key]` as a `Double` (`1e400` is infinity, which still sorts); nil when missing or null.
    func number(_ object: JSONDocument, _ key: String, of owner: String) throws(KanbanError) -> Double? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let text) = value.kind else { throw wrongType(value, "\(owner)'s '\(key)'", "a number") }
        return Double(text)
    }

    /// The number in `object[key]` as it is written, which must be a whole number; nil when missing or null.
    func wholeNumber(_ object: JSONDocument, _ key: String, of owner: String) throws(KanbanError) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard case .number(let text) = value.kind, !text.contains("."), !text.lowercased().contains("e") else {
            throw wrongType(value, "\(owner)'s '\(key)'", "a whole number")
        }
        return text
    }

    /// The items of `object[key]`; empty when it is missing or null.
    func list(_ object: JSONDocument, _ key: String, of owner: String) throws(KanbanError) -> [JSONDocument] {
        guard let value = object[key], !value.isNull else { return [] }
        guard let items = value.items else { throw wrongType(value, "\(owner)'s '\(key)'", "a list") }
        return items
    }

    /// `value` itself, which must be an object.
    func object(_ value: JSONDocument, _ what: String) throws(KanbanError) -> JSONDocument {
        guard value.members != nil else { throw wrongType(value, what, "an object") }
        return value
    }

    /// The object in `object[key]`; nil when it is missing or null.
    func object(_ object: JSONDocument, _ key: String, of owner: String) throws(KanbanError) -> JSONDocument? {
        guard let value = object[key], !value.isNull else { return nil }
        return try self.object(value, "\(owner)'s '\(key)'")
    }

    /// The texts of the list in `object[key]`; empty when it is missing or null.
    func texts(_ object: JSONDocument, _ key: String, of owner: String) throws(KanbanError) -> [String] {
        var texts: [String] = []
        for item in try list(object, key, of: owner) {
            guard let text = item.text else { throw wrongType(item, "an item of \(owner)'s '\(key)'", "text") }
            texts.append(text)
        }
        return texts
    }
}

/// The checks every importer makes on a file's bytes before reading them.
enum ImportText {
    /// The most bytes an imported file may have, as for a CSV table (``CSVTable/largestFile``).
    static let largestFile = CSVTable.largestFile

    /// Refuses a file over `largestFile` bytes (before anything else is done with it) or not UTF-8 (at the first bad
    /// byte's line and column).
    static func check(_ bytes: [UInt8], path: String, largestFile: Int) throws(KanbanError) {
        guard bytes.count <= largestFile else {
            throw KanbanError(.invalidArgument, "the file is \(bytes.count) bytes, over the \(largestFile >> 20) MB an import may read",
                              at: SourceLocation(path: path))
        }
        let bad = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) }
        if let bad {
            let before = bytes[..<bad]
            let line = before.count { $0 == 0x0A } + 1
            let column = bad - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            throw KanbanError(.invalidArgument, "the file is not UTF-8 text", at: SourceLocation(path: path, line: line, column: column))
        }
    }

    /// The date in `text`: ISO 8601 (`2026-01-31T09:00:00Z`), a day (`2026-01-31`, midnight), or a day and a time
    /// (`2026-01-31 09:00`, Backlog.md's; `2026-01-31 09:00:30`), taken as UTC when it names no zone.
    static func date(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = ISO8601.date(from: trimmed) { return date }
        let parts = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        switch parts.count {
        case 1: return ISO8601.date(from: parts[0] + "T00:00:00Z")
        case 2 where parts[1].utf8.count == 5: return ISO8601.date(from: parts[0] + "T" + parts[1] + ":00Z")
        case 2: return ISO8601.date(from: parts[0] + "T" + parts[1] + "Z")
        default: return nil
        }
    }

    /// A card key for a name a source gives a field (a table's column, a project's custom field): lowercase, each run
    /// of characters other than ASCII letters, digits and `_` one `-` (`Due Date` → `due-date`, `Size (est.)` →
    /// `size-est`); empty when nothing is left.
    static func key(fromName name: String) -> String {
        var key = ""
        var pendingHyphen = false
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" {
                if pendingHyphen && !key.isEmpty { key.append("-") }
                pendingHyphen = false
                key.unicodeScalars.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        return key
    }
}

/// Names each kept once in the order first given, found in constant time: a source with a hundred thousand columns
/// or labels is read in linear time, not quadratic.
struct ImportNames {
    private(set) var names: [String] = []
    private var indices: [String: Int] = [:]

    /// Adds `name` unless it is there; returns whether it was added.
    @discardableResult
    mutating func insert(_ name: String) -> Bool {
        guard indices[name] == nil else { return false }
        indices[name] = names.count
        names.append(name)
        return true
    }

    /// The place of `name` among the names.
    func index(of name: String) -> Int? { indices[name] }

    func contains(_ name: String) -> Bool { indices[name] != nil }

    var isEmpty: Bool { names.isEmpty }
}
