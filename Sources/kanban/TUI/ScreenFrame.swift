/// What the screen shows at one moment: one rendered line per row, styles included, and where the cursor is.
///
/// Frames are compared row by row (``FrameDiff``), so a row's text is exactly what is written for it: at most the
/// screen's width in terminal columns, with its own resets, and no newline.
struct ScreenFrame: Hashable, Sendable {
    /// The screen's size.
    var size: ScreenSize
    /// One line per row, top to bottom; `size.rows` of them.
    var rows: [String]
    /// Where the cursor is shown (0-based), or nil to hide it.
    var cursor: Position?

    /// A row and column on the screen, both 0-based.
    struct Position: Hashable, Sendable {
        var row: Int
        var column: Int
    }

    /// Creates a frame; rows missing at the end are blank, extra ones are dropped.
    init(size: ScreenSize, rows: [String], cursor: Position? = nil) {
        self.size = size
        self.rows = Array(rows.prefix(size.rows)) + Array(repeating: "", count: max(0, size.rows - rows.count))
        self.cursor = cursor
    }
}

/// A terminal's size in character cells.
struct ScreenSize: Hashable, Sendable {
    var columns: Int
    var rows: Int
}

/// The bytes that turn one frame on the screen into the next: only the rows that changed are rewritten.
///
/// Each changed row is written as cursor position, erase to the end of the line, then the row, so nothing of the
/// old row is left to its right. The whole update is wrapped in synchronized-output marks (`ESC [ ? 2026 h` …
/// `ESC [ ? 2026 l`), which terminals that know them use to show it at once and others ignore; the closing mark
/// also tells a reader (the benchmark) that a frame is complete. Expects autowrap off, as ``RawTerminal`` sets.
enum FrameDiff {
    /// Begins a synchronized update.
    static let beginUpdate = "\u{1B}[?2026h"
    /// Ends a synchronized update: the frame is complete.
    static let endUpdate = "\u{1B}[?2026l"

    /// The escape sequences and text that change the screen from `old` to `new`; empty when nothing changed.
    ///
    /// - Parameters:
    ///   - old: What is on the screen, or nil when that is unknown (first frame, after a resize or an editor ran):
    ///     the screen is then cleared and every row written.
    ///   - new: What should be.
    static func update(from old: ScreenFrame?, to new: ScreenFrame) -> String {
        var output = ""
        let isFull = old == nil || old?.size != new.size || old?.rows.count != new.rows.count
        if isFull {
            output += "\u{1B}[0m\u{1B}[H\u{1B}[2J"
            for (index, row) in new.rows.enumerated() where !row.isEmpty {
                output += moveTo(row: index, column: 0) + row
            }
        } else if let old {
            for index in new.rows.indices where new.rows[index] != old.rows[index] {
                // Erased first: after a row that fills the width the cursor stays on its last cell, which an
                // erase written after the row would wipe.
                output += moveTo(row: index, column: 0) + "\u{1B}[0m\u{1B}[K" + new.rows[index]
            }
        }
        let cursorMoved = isFull || old?.cursor != new.cursor
        guard !output.isEmpty || cursorMoved else { return "" }
        if let cursor = new.cursor {
            output += moveTo(row: cursor.row, column: cursor.column) + "\u{1B}[?25h"
        } else if isFull || old?.cursor != nil {
            output += "\u{1B}[?25l"
        }
        guard !output.isEmpty else { return "" }
        return beginUpdate + output + endUpdate
    }

    /// `ESC [ row ; column H`, from 0-based coordinates.
    private static func moveTo(row: Int, column: Int) -> String {
        "\u{1B}[\(row + 1);\(column + 1)H"
    }
}
