import Foundation
@testable import KanbanServer
@testable import kanban

/// A minimal terminal screen for tests: feed it what a program wrote to a terminal, then read the screen's text.
///
/// It knows what `kanban tui` uses and little more: printable UTF-8 (wide characters take two cells, combining marks
/// join the cell before), CR, LF (scrolling at the bottom), BS, cursor position (`CUP`, `ESC [ r ; c H`), cursor
/// moves (`A B C D G d`), erase in line (`EL`) and in display (`ED`), the alternate screen (`?1049`), cursor
/// visibility (`?25`) and autowrap (`?7`). Of SGR it keeps reverse video (`7`, `27`, `0`), to tell which text is
/// highlighted; colours and other sequences are read and ignored.
/// Bytes may arrive in any pieces: an incomplete sequence or character waits for the rest.
struct VirtualScreen {
    private(set) var columns: Int
    private(set) var rows: Int
    /// Whether the alternate screen is shown.
    private(set) var isAlternate = false
    private(set) var isCursorVisible = true
    private(set) var isAutowrapOn = true
    private(set) var cursorRow = 0
    private(set) var cursorColumn = 0

    /// Each cell's text; "" for the right half of a wide character.
    private var main: [[String]]
    private var alternate: [[String]]
    /// Whether each cell is in reverse video.
    private var mainInverse: [[Bool]]
    private var alternateInverse: [[Bool]]
    /// Whether what is written now is in reverse video.
    private var isInverse = false
    private var savedCursor = (row: 0, column: 0)
    private var pending: [UInt8] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        main = Self.blank(columns: columns, rows: rows)
        alternate = Self.blank(columns: columns, rows: rows)
        mainInverse = Self.plain(columns: columns, rows: rows)
        alternateInverse = Self.plain(columns: columns, rows: rows)
    }

    /// The text in reverse video on each row, runs joined by a space, trimmed; rows without any left out.
    var highlighted: [String] {
        let buffer = isAlternate ? alternate : main
        let inverse = isAlternate ? alternateInverse : mainInverse
        return buffer.indices.compactMap { row in
            var runs: [String] = []
            var current = ""
            for column in buffer[row].indices {
                if inverse[row][column] {
                    current += buffer[row][column]
                } else if !current.isEmpty {
                    runs.append(current)
                    current = ""
                }
            }
            if !current.isEmpty { runs.append(current) }
            let text = runs.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
            return text.isEmpty ? nil : text
        }
    }

    /// Whether `text` is shown in reverse video (within one row).
    func isHighlighted(_ text: String) -> Bool { highlighted.contains { $0.contains(text) } }

    /// The rows of the screen shown, as text without trailing spaces.
    var lines: [String] {
        (isAlternate ? alternate : main).map { cells in
            var line = cells.joined()
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The whole screen, row after row.
    var text: String { lines.joined(separator: "\n") }

    /// Whether some row shows `text`.
    func contains(_ text: String) -> Bool { lines.contains { $0.contains(text) } }

    /// The row and cell column where `text` first appears, if it does.
    func position(of text: String) -> (row: Int, column: Int)? {
        let buffer = isAlternate ? alternate : main
        for (row, cells) in buffer.enumerated() {
            let line = cells.joined()
            guard let range = line.range(of: text) else { continue }
            // Count cells up to the match: each cell holds one character (or nothing, for a wide one's right half).
            var column = 0
            var offset = line.startIndex
            for cell in cells {
                if offset >= range.lowerBound { break }
                offset = line.index(offset, offsetBy: cell.count)
                column += 1
            }
            return (row, column)
        }
        return nil
    }

    /// Takes a new size, as a terminal does when its window changes: rows and columns are kept or cut, or added blank.
    mutating func resize(columns: Int, rows: Int) {
        func fit(_ buffer: [[String]]) -> [[String]] {
            var result = buffer.prefix(rows).map { row in
                Array(row.prefix(columns)) + Array(repeating: " ", count: max(0, columns - row.count))
            }
            result += Self.blank(columns: columns, rows: max(0, rows - result.count))
            return result
        }
        main = fit(main)
        alternate = fit(alternate)
        mainInverse = Self.plain(columns: columns, rows: rows)
        alternateInverse = Self.plain(columns: columns, rows: rows)
        self.columns = columns
        self.rows = rows
        cursorRow = min(cursorRow, rows - 1)
        cursorColumn = min(cursorColumn, columns - 1)
    }

    /// Takes bytes written to the terminal.
    mutating func feed(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
        var index = 0
        while index < pending.count {
            guard let used = interpret(at: index) else { break }
            index += used
        }
        pending.removeFirst(index)
    }

    /// Interprets what starts at `index`; returns how many bytes it used, or nil when they are incomplete.
    private mutating func interpret(at index: Int) -> Int? {
        let byte = pending[index]
        switch byte {
        case 0x1B:
            return escape(at: index)
        case 0x0D:
            cursorColumn = 0
        case 0x0A, 0x0B, 0x0C:
            lineFeed()
        case 0x08:
            cursorColumn = max(0, cursorColumn - 1)
        case 0x09:
            cursorColumn = min(columns - 1, (cursorColumn / 8 + 1) * 8)
        case 0x00..<0x20, 0x7F:
            break
        default:
            let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
            guard index + length <= pending.count else { return nil }
            let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
            put(text)
            return length
        }
        return 1
    }

    private mutating func escape(at index: Int) -> Int? {
        guard index + 1 < pending.count else { return nil }
        switch pending[index + 1] {
        case UInt8(ascii: "["):
            var end = index + 2
            while end < pending.count, (0x20...0x3F).contains(pending[end]) { end += 1 }
            guard end < pending.count else { return nil }
            let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
            controlSequence(parameters, final: pending[end])
            return end - index + 1
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"):
            // A string ended by BEL or ESC \.
            var end = index + 2
            while end < pending.count {
                if pending[end] == 0x07 { return end - index + 1 }
                if pending[end] == 0x1B, end + 1 < pending.count, pending[end + 1] == UInt8(ascii: "\\") { return end - index + 2 }
                end += 1
            }
            return nil
        case UInt8(ascii: "7"):
            savedCursor = (cursorRow, cursorColumn)
            return 2
        case UInt8(ascii: "8"):
            (cursorRow, cursorColumn) = savedCursor
            return 2
        case UInt8(ascii: "("), UInt8(ascii: ")"):
            return index + 2 < pending.count ? 3 : nil
        default:
            return 2
        }
    }

    private mutating func controlSequence(_ parameters: String, final: UInt8) {
        let isPrivate = parameters.hasPrefix("?")
        let numbers = (isPrivate ? String(parameters.dropFirst()) : parameters)
            .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func number(_ position: Int, default value: Int) -> Int {
            position < numbers.count ? numbers[position] ?? value : value
        }
        switch (isPrivate, final) {
        case (true, UInt8(ascii: "h")), (true, UInt8(ascii: "l")):
            let isOn = final == UInt8(ascii: "h")
            for mode in numbers.compactMap({ $0 }) {
                switch mode {
                case 1049:
                    guard isOn != isAlternate else { continue }
                    if isOn {
                        savedCursor = (cursorRow, cursorColumn)
                        alternate = Self.blank(columns: columns, rows: rows)
                        alternateInverse = Self.plain(columns: columns, rows: rows)
                    } else {
                        (cursorRow, cursorColumn) = savedCursor
                    }
                    isAlternate = isOn
                case 25: isCursorVisible = isOn
                case 7: isAutowrapOn = isOn
                default: break
                }
            }
        case (false, UInt8(ascii: "H")), (false, UInt8(ascii: "f")):
            cursorRow = min(max(1, number(0, default: 1)), rows) - 1
            cursorColumn = min(max(1, number(1, default: 1)), columns) - 1
        case (false, UInt8(ascii: "A")):
            cursorRow = max(0, cursorRow - max(1, number(0, default: 1)))
        case (false, UInt8(ascii: "B")):
            cursorRow = min(rows - 1, cursorRow + max(1, number(0, default: 1)))
        case (false, UInt8(ascii: "C")):
            cursorColumn = min(columns - 1, cursorColumn + max(1, number(0, default: 1)))
        case (false, UInt8(ascii: "D")):
            cursorColumn = max(0, cursorColumn - max(1, number(0, default: 1)))
        case (false, UInt8(ascii: "G")):
            cursorColumn = min(max(1, number(0, default: 1)), columns) - 1
        case (false, UInt8(ascii: "d")):
            cursorRow = min(max(1, number(0, default: 1)), rows) - 1
        case (false, UInt8(ascii: "K")):
            let range: Range<Int>
            switch number(0, default: 0) {
            case 1: range = 0..<min(columns, cursorColumn + 1)
            case 2: range = 0..<columns
            default: range = cursorColumn..<columns
            }
            for column in range { setCell(row: cursorRow, column: column, " ") }
        case (false, UInt8(ascii: "J")):
            let mode = number(0, default: 0)
            for row in 0..<rows {
                let clears = mode == 2 || mode == 3 || (mode == 0 && row > cursorRow) || (mode == 1 && row < cursorRow)
                if clears {
                    for column in 0..<columns { setCell(row: row, column: column, " ") }
                } else if row == cursorRow {
                    let range = mode == 1 ? 0..<min(columns, cursorColumn + 1) : cursorColumn..<columns
                    for column in range { setCell(row: row, column: column, " ") }
                }
            }
        case (false, UInt8(ascii: "m")):
            var position = 0
            while position < max(1, numbers.count) {
                switch numbers.isEmpty ? 0 : numbers[position] ?? 0 {
                case 0: isInverse = false
                case 7: isInverse = true
                case 27: isInverse = false
                case 38, 48:
                    // A colour: 5;n or 2;r;g;b follow.
                    position += position + 1 < numbers.count && numbers[position + 1] == 5 ? 2 : 4
                default: break
                }
                position += 1
            }
        default:
            break  // Everything else: no effect on the text.
        }
    }

    private mutating func put(_ text: String) {
        guard let character = text.first else { return }
        let width = character.terminalWidth
        if width == 0 {
            // A combining mark joins the cell before.
            let column = max(0, cursorColumn - 1)
            var cell = cell(row: cursorRow, column: column)
            cell += text
            setCell(row: cursorRow, column: column, cell)
            return
        }
        if cursorColumn + width > columns {
            if isAutowrapOn {
                cursorColumn = 0
                lineFeed()
            } else {
                cursorColumn = columns - width
            }
        }
        setCell(row: cursorRow, column: cursorColumn, text)
        if width == 2, cursorColumn + 1 < columns { setCell(row: cursorRow, column: cursorColumn + 1, "") }
        cursorColumn = min(columns - (isAutowrapOn ? 0 : 1), cursorColumn + width)
        if cursorColumn >= columns && !isAutowrapOn { cursorColumn = columns - 1 }
    }

    private mutating func lineFeed() {
        if cursorRow < rows - 1 {
            cursorRow += 1
            return
        }
        if isAlternate {
            alternate.removeFirst()
            alternate.append(Array(repeating: " ", count: columns))
            alternateInverse.removeFirst()
            alternateInverse.append(Array(repeating: false, count: columns))
        } else {
            main.removeFirst()
            main.append(Array(repeating: " ", count: columns))
            mainInverse.removeFirst()
            mainInverse.append(Array(repeating: false, count: columns))
        }
    }

    private func cell(row: Int, column: Int) -> String {
        isAlternate ? alternate[row][column] : main[row][column]
    }

    private mutating func setCell(row: Int, column: Int, _ text: String) {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return }
        // Erasing fills with the current background, so an erase in reverse video leaves reverse-video blanks.
        if isAlternate {
            alternate[row][column] = text
            alternateInverse[row][column] = isInverse
        } else {
            main[row][column] = text
            mainInverse[row][column] = isInverse
        }
    }

    private static func plain(columns: Int, rows: Int) -> [[Bool]] {
        Array(repeating: Array(repeating: false, count: columns), count: rows)
    }

    private static func blank(columns: Int, rows: Int) -> [[String]] {
        Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }
}
