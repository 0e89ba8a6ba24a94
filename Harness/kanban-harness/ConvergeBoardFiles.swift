import Foundation

/// A card file as the harness reads it: straight from the disk, without kanban's parser, so that what the harness
/// believes about a board never depends on the code under test.
struct ConvergeCardFile: Sendable {
    /// Relative to the board: `cards/todo/fix-login.md` or `archive/2026-11-24-fix-login.md`.
    var path: String
    /// The column directory the file is in; nil for an archived card.
    var column: String?
    /// The harness's identity for the card (the `hid:` field it set right after adding it); nil when the file has none.
    var identity: String?
    var labels: [String]
    /// The body's lines, without the blank line that follows the frontmatter.
    var bodyLines: [String]
    /// Every line of the file.
    var lines: [String]

    var isArchived: Bool { column == nil }

    init(path: String, column: String?, bytes: [UInt8]) {
        self.path = path
        self.column = column
        lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        if lines.last == "" { lines.removeLast() }
        identity = nil
        labels = []
        bodyLines = lines
        guard lines.first == "---", let close = lines.dropFirst().firstIndex(of: "---") else { return }
        var isInLabelList = false
        for line in lines[1..<close] {
            if isInLabelList, line.hasPrefix(" ") || line.hasPrefix("-") {
                let item = line.trimmingCharacters(in: .whitespaces)
                if item.hasPrefix("-") { labels.append(Self.scalar(item.dropFirst())) }
                continue
            }
            isInLabelList = false
            if line.hasPrefix("hid:") {
                identity = Self.scalar(line.dropFirst(4))
            } else if line.hasPrefix("labels:") {
                let value = line.dropFirst(7).trimmingCharacters(in: .whitespaces)
                if value.hasPrefix("["), value.hasSuffix("]") {
                    labels = value.dropFirst().dropLast().split(separator: ",").map { Self.scalar($0) }.filter { !$0.isEmpty }
                } else if value.isEmpty {
                    isInLabelList = true
                }
            }
        }
        bodyLines = Array(lines[(close + 1)...])
        if bodyLines.first == "" { bodyLines.removeFirst() }
    }

    private static func scalar(_ text: Substring) -> String {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, let first = value.first, first == value.last, first == "\"" || first == "'" {
            value = String(value.dropFirst().dropLast())
        }
        return value
    }
}

/// Every board file of one clone, read from the disk: `board.md` and everything under `cards/` and `archive/`.
struct ConvergeBoardFiles: Sendable {
    /// Path relative to the board → bytes.
    var files: [String: [UInt8]]
    /// The `.md` files directly in `cards/<column>/` and `archive/`.
    var cards: [ConvergeCardFile]

    init(reading directory: String) {
        files = [:]
        cards = []
        let manager = FileManager.default
        if let bytes = manager.contents(atPath: directory + "/board.md") { files["board.md"] = [UInt8](bytes) }
        for top in ["cards", "archive"] {
            guard let walker = manager.enumerator(atPath: directory + "/" + top) else { continue }
            while let relative = walker.nextObject() as? String {
                let path = top + "/" + relative
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue,
                      let data = manager.contents(atPath: directory + "/" + path) else { continue }
                let bytes = [UInt8](data)
                files[path] = bytes
                let components = path.split(separator: "/")
                let name = components.last.map(String.init) ?? ""
                guard name.hasSuffix(".md"), !name.hasPrefix(".") else { continue }
                if top == "cards" && components.count == 3 {
                    cards.append(ConvergeCardFile(path: path, column: String(components[1]), bytes: bytes))
                } else if top == "archive" && components.count == 2 {
                    cards.append(ConvergeCardFile(path: path, column: nil, bytes: bytes))
                }
            }
        }
        cards.sort { $0.path < $1.path }
    }
}
