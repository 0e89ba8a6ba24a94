import Testing

@testable import kanban

@Suite struct FrameDiffTests {
    private let size = ScreenSize(columns: 20, rows: 4)

    private func frame(_ rows: [String], cursor: ScreenFrame.Position? = nil) -> ScreenFrame {
        ScreenFrame(size: size, rows: rows, cursor: cursor)
    }

    @Test func theFirstFrameClearsAndWritesEveryRow() {
        let update = FrameDiff.update(from: nil, to: frame(["a", "", "c", "d"]))
        #expect(update == "\u{1B}[?2026h\u{1B}[0m\u{1B}[H\u{1B}[2J\u{1B}[1;1Ha\u{1B}[3;1Hc\u{1B}[4;1Hd\u{1B}[?25l\u{1B}[?2026l")
    }

    @Test func anUnchangedFrameWritesNothing() {
        let old = frame(["a", "b", "c", "d"])
        #expect(FrameDiff.update(from: old, to: old) == "")
    }

    @Test func onlyChangedRowsAreWrittenEachErasedFirst() {
        let old = frame(["a", "b", "c", "d"])
        let new = frame(["a", "B", "c", "\u{1B}[7mD\u{1B}[0m"])
        #expect(FrameDiff.update(from: old, to: new)
            == "\u{1B}[?2026h\u{1B}[2;1H\u{1B}[0m\u{1B}[KB\u{1B}[4;1H\u{1B}[0m\u{1B}[K\u{1B}[7mD\u{1B}[0m\u{1B}[?2026l")
    }

    @Test func aRowThatBecameEmptyIsErased() {
        let update = FrameDiff.update(from: frame(["a", "b"]), to: frame(["a", ""]))
        #expect(update == "\u{1B}[?2026h\u{1B}[2;1H\u{1B}[0m\u{1B}[K\u{1B}[?2026l")
    }

    @Test func aNewSizeRedrawsEverything() {
        let old = frame(["a", "b", "c", "d"])
        let new = ScreenFrame(size: ScreenSize(columns: 30, rows: 4), rows: ["a", "b", "c", "d"])
        #expect(FrameDiff.update(from: old, to: new).contains("\u{1B}[2J"))
    }

    @Test func theCursorIsShownWherePromptedAndPutBackAfterRowsAreWritten() {
        let old = frame(["a", "b", "c", "d"])
        let prompt = frame(["a", "b", "c", "New: x"], cursor: ScreenFrame.Position(row: 3, column: 6))
        #expect(FrameDiff.update(from: old, to: prompt)
            == "\u{1B}[?2026h\u{1B}[4;1H\u{1B}[0m\u{1B}[KNew: x\u{1B}[4;7H\u{1B}[?25h\u{1B}[?2026l")
        let back = frame(["a", "b", "c", "d"])
        #expect(FrameDiff.update(from: prompt, to: back).hasSuffix("d\u{1B}[?25l\u{1B}[?2026l"))
    }

    @Test func aFrameHasExactlyItsRows() {
        #expect(frame(["a"]).rows == ["a", "", "", ""])
        #expect(frame(["1", "2", "3", "4", "5"]).rows == ["1", "2", "3", "4"])
    }
}
