#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Testing

/// `kanban tui` driven as a person drives it: the real binary in a pseudo-terminal, keys typed, the screen read back
/// through a small terminal model. Every wait ends as soon as its condition holds, within a generous bound.
///
/// On the sample board at 100 × 30, To Do's first card (`notarize-and-sign-the-macos-build`) starts selected.
@Suite(.serialized) struct TUICommandTests {
    static let notarize = "notarize-and-sign-the-macos-build"

    /// Runs `kanban tui` on a copy of the sample board, waits for its first frame, runs `body`, and stops it.
    private func withTUI(columns: Int = 100, rows: Int = 30, environment: [String: String] = [:],
                         _ body: (TemporaryBoard, TerminalSession) throws -> Void) throws {
        try withTemporaryBoard(.sample) { board in
            let session = try TerminalSession.start(["tui"], in: board.path, columns: columns, rows: rows,
                                                    environment: environment.merging(["HOME": board.root]) { new, _ in new })
            defer { session.stop() }
            try session.waitForScreen("the board, its first card selected") { screen in
                screen.contains("To Do (5)") && screen.contains("Lumen 2.0 Launch") && screen.isHighlighted("Notarize and sign")
            }
            try body(board, session)
        }
    }

    @Test func shiftLMovesTheSelectedCardToTheNextColumn() throws {
        try withTUI { board, session in
            session.type("L")
            try session.waitUntil("the card file in cards/in-progress") {
                board.exists("cards/in-progress/\(Self.notarize).md") && !board.exists("cards/todo/\(Self.notarize).md")
            }
            try session.waitForScreen("the counts, the card still selected") { screen in
                screen.contains("To Do (4)") && screen.isHighlighted("In Progress (6)") && screen.isHighlighted("Notarize and sign")
            }
        }
    }

    @Test func shiftArrowMovesToo() throws {
        try withTUI { board, session in
            session.type("\u{1B}[1;2C")
            try session.waitUntil("the card file in cards/in-progress") { board.exists("cards/in-progress/\(Self.notarize).md") }
            session.type("\u{1B}[1;2D")
            try session.waitUntil("the card file back in cards/todo") { board.exists("cards/todo/\(Self.notarize).md") }
        }
    }

    @Test func shiftJMovesTheCardDownItsColumn() throws {
        try withTUI { board, session in
            let before = try board.slugs(inColumn: "todo")
            #expect(before.first == Self.notarize)
            session.type("J")
            try session.waitForScreen("the move said") { $0.contains("moved \(Self.notarize) within To Do") }
            #expect(try board.slugs(inColumn: "todo") == [before[1], before[0]] + before[2...])
        }
    }

    @Test func nTypesANewCardBelowTheSelection() throws {
        try withTUI { board, session in
            session.type("n")
            try session.waitForScreen("the prompt") { $0.contains("New card:") }
            session.type("Write the launch blog pots")
            session.type("\u{7F}\u{7F}st\r")
            try session.waitUntil("the new card's file") { board.exists("cards/todo/write-the-launch-blog-post.md") }
            #expect(try board.slugs(inColumn: "todo").prefix(2) == [Self.notarize, "write-the-launch-blog-post"])
            try session.waitForScreen("the new card counted and selected") { $0.contains("To Do (6)") && $0.isHighlighted("Write the launch") }
        }
    }

    @Test func escapeCancelsANewCard() throws {
        try withTUI { board, session in
            session.type("nNever mind")
            try session.waitForScreen("the prompt") { $0.contains("New card: Never mind") }
            session.type("\u{1B}")
            try session.waitForScreen("the prompt gone") { $0.contains("cancelled") }
            #expect(try board.slugs(inColumn: "todo").count == 5)
        }
    }

    @Test func aArchivesTheCard() throws {
        try withTUI { board, session in
            session.type("a")
            try session.waitUntil("the card in archive/") {
                !board.exists("cards/todo/\(Self.notarize).md")
                    && ((try? board.entries("archive")) ?? []).contains { $0.hasSuffix("-\(Self.notarize).md") }
            }
            try session.waitForScreen("the count") { $0.contains("To Do (4)") }
        }
    }

    @Test func uUndoesAMoveAndAnArchive() throws {
        try withTUI { board, session in
            session.type("L")
            try session.waitUntil("the move") { board.exists("cards/in-progress/\(Self.notarize).md") }
            session.type("u")
            try session.waitUntil("the move undone") {
                board.exists("cards/todo/\(Self.notarize).md") && !board.exists("cards/in-progress/\(Self.notarize).md")
            }
            #expect(try board.slugs(inColumn: "todo").first == Self.notarize, "back in its place")

            session.type("a")
            try session.waitUntil("the archive") { !board.exists("cards/todo/\(Self.notarize).md") }
            session.type("u")
            // Unarchived, then moved back to its place: two writes, so wait for the second.
            try session.waitUntil("the archive undone") { (try? board.slugs(inColumn: "todo").first) == Self.notarize }
            #expect(try board.entries("archive").allSatisfy { !$0.contains(Self.notarize) })
        }
    }

    @Test func dDeletesAfterYesAndUndoBringsTheFileBack() throws {
        try withTUI { board, session in
            let bytes = try board.bytes("cards/todo/\(Self.notarize).md")
            session.type("d")
            try session.waitForScreen("the question") { $0.contains("? y/n") }
            session.type("y")
            try session.waitUntil("the file deleted") { !board.exists("cards/todo/\(Self.notarize).md") }
            session.type("u")
            try session.waitUntil("the file back") { board.exists("cards/todo/\(Self.notarize).md") }
            #expect(try board.bytes("cards/todo/\(Self.notarize).md") == bytes)
        }
    }

    @Test func slashFiltersAsYouTypeAndEscapeClears() throws {
        try withTUI { _, session in
            session.type("/thumbnail")
            try session.waitForScreen("only the matches") { screen in
                screen.contains("Crash on launch") && screen.contains("Memory leak when") && !screen.contains("Notarize")
                    && !screen.contains("New app icon")
            }
            session.type("\u{1B}")
            try session.waitForScreen("every card again") { $0.contains("Notarize") && $0.contains("New app icon") }
        }
    }

    @Test func aCardMovedByHandAppearsInItsNewColumn() throws {
        try withTUI(rows: 60) { board, session in
            try session.waitForScreen("the card in To Do") { screen in
                screen.position(of: "Press kit and")?.column == screen.position(of: "To Do (")?.column
            }
            #expect(rename(board.absolute("cards/todo/press-kit-and-screenshots.md"),
                           board.absolute("cards/done/press-kit-and-screenshots.md")) == 0)
            try session.waitForScreen("the card in Done") { screen in
                screen.contains("To Do (4)") && screen.contains("Done (7)")
                    && screen.position(of: "Press kit and")?.column == screen.position(of: "Done (")?.column
            }
        }
    }

    @Test func theSelectionStaysOnItsCardWhenAnotherProcessMovesIt() throws {
        try withTUI { board, session in
            session.type("j")
            try session.waitForScreen("the second card selected") { $0.isHighlighted("Localise for") }
            let result = try board.run(["move", "localise-for", "review"])
            #expect(result.status == 0, "\(result)")
            try session.waitForScreen("the card selected in its new column") { screen in
                screen.isHighlighted("Review (5)") && screen.isHighlighted("Localise for")
            }
            session.type("t")
            try session.waitForScreen("the retitle prompt of the same card") { $0.contains("Title: Localise for") }
        }
    }

    @Test func aCardDeletedUnderTheSelectionHandsItToItsNeighbour() throws {
        try withTUI { board, session in
            #expect(unlink(board.absolute("cards/todo/\(Self.notarize).md")) == 0)
            try session.waitForScreen("the next card selected") { screen in
                screen.contains("To Do (4)") && screen.isHighlighted("Localise for") && !screen.contains("Notarize")
            }
            session.type("G")
            try session.waitForScreen("the last card selected") { $0.isHighlighted("Press kit and") }
            #expect(unlink(board.absolute("cards/todo/press-kit-and-screenshots.md")) == 0)
            try session.waitForScreen("the card above selected") { $0.contains("To Do (3)") && $0.isHighlighted("Update website") }
        }
    }

    /// Issue 20 #8: a card the editor (or anyone) left unparsable stays in its place, marked, and `e` opens it.
    @Test func aFileThatNoLongerParsesStaysInPlaceMarkedAndEOpensIt() throws {
        // HOME is the board's temporary directory, where the script is written.
        try withTUI(environment: ["EDITOR": #"sh "$HOME/fix.sh""#]) { board, session in
            _ = try board.script(named: "fix.sh", #"printf -- '---\ntitle: Press kit, fixed\n---\n' > "$1""#)
            try board.write("---\ntitle: Press kit\nlabels: [design, marketing\n---\n", to: "cards/todo/press-kit-and-screenshots.md")
            // (When the watcher's first look at the board already finds the file broken, the status line does not
            // name it, and the card is shown under its file name; either way it is in its place, marked.)
            try session.waitForScreen("the card kept in its column, marked") { $0.contains("To Do (5)") && $0.contains("unreadable: e to fix") }
            session.type("j")
            try session.waitForScreen("still running") { $0.contains("1 unreadable file") }
            session.type("G")
            try session.waitForScreen("the unreadable card selected") { $0.isHighlighted("press-kit-and-scree") }
            session.type("e")
            try session.waitForScreen("the card fixed") { screen in
                screen.contains("Press kit, fixed") && !screen.contains("unreadable")
            }
        }
    }

    @Test func aResizeRedrawsForTheNewWidth() throws {
        try withTUI { _, session in
            try session.waitForScreen("every column in one band") { $0.contains("Done (6)") && !$0.contains("columns ") }
            session.resize(columns: 60, rows: 20)
            let screen = try session.waitForScreen("the narrow layout") { screen in
                screen.lines[19].contains("columns 1–3 of 5") && !screen.contains("Done (6)")
            }
            #expect(screen.lines[1].count <= 60)
            #expect(screen.lines[0].hasPrefix("Backlog │ To Do (5)"))
        }
    }

    @Test func qQuitsAndRestoresTheTerminal() throws {
        try withTUI { _, session in
            let before = try #require(session.terminalAttributes())
            #expect(before.c_lflag & tcflag_t(ICANON) == 0, "raw mode while running")
            session.type("q")
            #expect(try session.waitForExit() == 0)
            let output = String(decoding: session.output, as: UTF8.self)
            #expect(output.hasSuffix("\u{1B}[?1049l\u{1B}[?25h"), "ends with the alternate screen off and the cursor shown")
            let screen = session.currentScreen
            #expect(!screen.isAlternate && screen.isCursorVisible && screen.isAutowrapOn)
            let after = try #require(session.terminalAttributes())
            #expect(after.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO), "line editing and echo back on")
        }
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalEndsItWithTheTerminalRestored(signal: Int32) throws {
        try withTUI { _, session in
            kill(session.pid, signal)
            #expect(try session.waitForExit() == 0)
            #expect(String(decoding: session.output, as: UTF8.self).hasSuffix("\u{1B}[?1049l\u{1B}[?25h"))
            let after = try #require(session.terminalAttributes())
            #expect(after.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
        }
    }

    @Test func ctrlZSuspendsWithTheTerminalRestoredAndContinuingRedraws() throws {
        try withTUI { _, session throws in
            session.type("j\u{1A}")
            try session.waitForStop()
            try session.waitUntil("the terminal given back") {
                String(decoding: session.output, as: UTF8.self).hasSuffix("\u{1B}[?1049l\u{1B}[?25h")
            }
            let stopped = try #require(session.terminalAttributes())
            #expect(stopped.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO), "the shell gets a usable terminal")
            #expect(!session.currentScreen.isAlternate)
            kill(session.pid, SIGCONT)
            try session.waitForScreen("the board again, the selection kept") { screen in
                screen.isAlternate && screen.isHighlighted("Localise for") && screen.contains("Lumen 2.0 Launch")
            }
            let running = try #require(session.terminalAttributes())
            #expect(running.c_lflag & tcflag_t(ICANON) == 0, "raw mode again")
            session.type("q")
            #expect(try session.waitForExit() == 0)
        }
    }

    @Test func ctrlCQuitsToo() throws {
        try withTUI { _, session throws in
            session.type("\u{3}")
            #expect(try session.waitForExit() == 0)
        }
    }

    @Test func theEditorGetsTheTerminalAndTheScreenComesBack() throws {
        let board = try TemporaryBoard.make(.sample)
        defer { board.remove() }
        let editor = try board.script(named: "editor.sh", #"sed -i 's/^title: .*/title: Notarize it all/' "$1""#)
        let session = try TerminalSession.start(["tui"], in: board.path, columns: 100, rows: 30,
                                                environment: ["HOME": board.root, "EDITOR": editor])
        defer { session.stop() }
        try session.waitForScreen("the board") { $0.contains("To Do (5)") }
        session.type("e")
        let edited = "edited " + Self.notarize
        try session.waitForScreen("the new title") { $0.contains("Notarize it all") && $0.contains(edited) }
        #expect(session.currentScreen.isAlternate)
    }

    @Test func refusesWithoutATerminal() throws {
        try withTemporaryBoard(.sample) { board in
            let result = try board.run(["tui"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("kanban tui needs a terminal"), "\(result)")
            #expect(result.stdout.isEmpty)
            let halfTerminal = try board.run(["tui"], stdoutIsTerminal: true)
            #expect(halfTerminal.status == 1, "standard input is not a terminal: \(halfTerminal)")
        }
    }

    @Test func helpListsTheKeys() throws {
        let result = try runKanban(["tui", "--help"])
        #expect(result.status == 0)
        for line in ["USAGE: kanban tui", "KEYS:", "  H L, Shift+← →          move the card", "undo the last change made here", "  q, Ctrl-C               quit"] {
            #expect(result.stdout.contains(line), "\(line)\n\(result.stdout)")
        }
    }
}

extension GitTests {
    @Test func tuiCommitsEachChangeWithTheUsualMessage() throws {
        try withGitWorkspace { workspace in
            let (ana, _) = try workspace.makeSharedBoard()
            _ = try workspace.kanban(["add", "Fix login bug", "--commit"], in: ana)
            var environment = workspace.environment
            environment["KANBAN_COMMIT"] = "1"
            let session = try TerminalSession.start(["tui"], in: ana, columns: 100, rows: 30, environment: environment)
            defer { session.stop() }
            try session.waitForScreen("the board") { $0.contains("Fix login bug") }
            session.type("L")
            try session.waitForScreen("the commit") { $0.contains("committed ") }
            session.type("u")
            try session.waitForScreen("the undo") { $0.contains("undid moving") }
            try session.waitUntil("the undo's commit") {
                (try? workspace.subjects(in: ana, count: 2)) == [
                    "Move \"Fix login bug\" from In Progress to To Do", "Move \"Fix login bug\" from To Do to In Progress",
                ]
            }
        }
    }
}

/// `kanban tui DIR...`: the boards a directory holds, one at a time, `b` and `B` to switch.
@Suite(.serialized) struct TUIBoardsTests {
    @Test func bAndBSwitchBetweenTheBoardsAndAKeyChangesTheBoardShown() throws {
        try withTemporaryBoard(.sample) { board in
            let second = board.root + "/second"
            let made = try runKanban(["init", second, "--title", "Second board", "--columns", "todo:To Do,done:Done"], in: board.root)
            #expect(made.status == 0, "\(made)")
            let added = try runKanban(["add", "Side quest", "--board", second], in: board.root)
            #expect(added.status == 0, "\(added)")
            let session = try TerminalSession.start(["tui", board.path, second], in: board.root, columns: 100, rows: 30,
                                                    environment: ["HOME": board.root])
            defer { session.stop() }
            try session.waitForScreen("the first board, named in the status line") { screen in
                screen.contains("Lumen 2.0 Launch") && screen.contains("board 1/2 board (b B)")
            }
            session.type("b")
            try session.waitForScreen("the second board") { screen in
                screen.contains("Second board") && screen.contains("board 2/2 second") && screen.isHighlighted("Side quest")
            }
            session.type("L")
            try session.waitUntil("the card moved in the second board") {
                FileManager.default.fileExists(atPath: second + "/cards/done/side-quest.md")
            }
            #expect(!board.exists("cards/done/side-quest.md"))
            session.type("B")
            try session.waitForScreen("the first board again") { screen in
                screen.contains("Lumen 2.0 Launch") && screen.contains("board 1/2 board")
            }
        }
    }
}
