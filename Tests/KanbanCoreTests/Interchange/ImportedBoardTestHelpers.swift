import Foundation
import Testing
@testable import KanbanCore

/// What the importer tests share: reading an error's one line, finding a card, reading a field.
enum ImportCheck {
    /// The one line a person sees for the error `body` throws (`path:line:column: error: message`), or nil when it
    /// throws none.
    static func refusal(_ body: () throws(KanbanError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return error.description
        }
    }

    /// Bytes one over the most an importer reads, made in memory.
    static var oversized: [UInt8] { Array(repeating: UInt8(ascii: " "), count: ImportText.largestFile + 1) }

    /// Lists nested `depth` deep and never closed, then closed: hostile to a recursive reader.
    static func deeplyNested(_ depth: Int) -> [UInt8] {
        Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
    }
}

extension ImportedBoard {
    /// The one card titled `title`, for a test; a test fails on nil.
    func card(_ title: String) -> ImportedCard? {
        let found = cards.filter { $0.title == title }
        return found.count == 1 ? found[0] : nil
    }

    /// The titles of the cards in `column`, active and archived, in board order.
    func titles(in column: String, archived: Bool? = nil) -> [String] {
        cards.filter { $0.column == column && (archived == nil || $0.isArchived == archived) }.map(\.title)
    }
}

extension ImportedCard {
    /// The field `key` as text, or its list's items joined by `, `.
    func field(_ key: String) -> String? {
        guard let value = fields.first(where: { $0.key == key })?.value else { return nil }
        if let list = value.list { return list.compactMap(\.string).joined(separator: ", ") }
        return value.string
    }
}
