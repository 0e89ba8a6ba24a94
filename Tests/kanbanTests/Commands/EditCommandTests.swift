import Foundation
import Testing

/// `kanban edit`, with shell scripts standing in for the editor.
@Suite struct EditCommandTests {
    static let card = "cards/todo/press-kit-and-screenshots.md"

    @Test func runsTheEditorOnTheCardFile() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.text(Self.card)
            let editor = try board.script(named: "editor.sh", #"""
                printf '%s' "$1" > "$HOME/edited-path"
                printf '\nEdited.' >> "$1"
                """#)
            let result = try board.run(["edit", "press-kit"], environment: ["EDITOR": editor])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.isEmpty)
            // The editor's bytes, and the time of the edit as 'modified' (the sync rules judge the later change by it).
            let after = try board.text(Self.card)
            #expect(Self.withoutModified(after) == Self.withoutModified(before) + "\nEdited.")
            #expect(Self.modified(after) != Self.modified(before))
            #expect(Self.modified(after).map { abs($0.timeIntervalSinceNow) < 600 } == true, "\(after)")
            // The editor got the card's absolute path.
            let path = try String(contentsOfFile: board.root + "/edited-path", encoding: .utf8)
            #expect(path == board.absolute(Self.card))
            #expect(try board.showJSON("press-kit-and-screenshots").body?.hasSuffix("\nEdited.") == true)
        }
    }

    @Test func anEditorThatDeletesTheFileIsReported() throws {
        try withTemporaryBoard(.sample) { board throws in
            let editor = try board.script(named: "remove.sh", #"rm "$1""#)
            let result = try board.run(["edit", "press-kit"], environment: ["EDITOR": editor])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr == "error: the editor deleted '\(Self.card)'; the card is gone\n", "\(result)")
            #expect(!result.stderr.contains("kanban edit"))
        }
    }

    @Test func anEditorThatBreaksTheFrontmatterIsReportedAndItsTextKept() throws {
        try withTemporaryBoard(.sample) { board throws in
            let broken = "---\ntitle: Press kit and screenshots\ncolumn: todo\nposition: w\n\nThe closing line is gone.\n"
            let editor = try board.script(named: "break.sh", """
                cat > "$1" <<'END'
                \(broken)END
                """)
            let result = try board.run(["edit", "press-kit-and-screenshots"], environment: ["EDITOR": editor])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.lines
            let first = try #require(lines.first, "\(result)")
            #expect(first.hasPrefix("cards/todo/press-kit-and-screenshots.md:1:1: error: "), "\(result)")
            #expect(isDiagnosticLine(first), "\(first)")
            #expect(result.stderr.contains("kept as you wrote it"), "\(result)")
            // The file is exactly as the editor left it.
            #expect(try board.text(Self.card) == broken)

            // The advice on standard error works: the card opens again, and a good edit succeeds.
            let advice = try #require(result.stderr.firstMatch(of: /run '(kanban edit [^']+)'/), "\(result)")
            #expect(advice.output.1 == "kanban edit cards/todo/press-kit-and-screenshots.md")
            let fixer = try board.script(named: "fix.sh", #"printf -- '---\ntitle: Fixed\n---\n\nBody.\n' > "$1""#)
            let again = try board.run(["edit", "cards/todo/press-kit-and-screenshots.md"], environment: ["EDITOR": fixer])
            #expect(again.status == 0, "\(again)")
            #expect(try board.showJSON("press-kit-and-screenshots").title == "Fixed")
        }
    }

    /// After a bad edit, `kanban edit` itself says "run 'kanban edit <path>' to fix it"; that has to work.
    @Test func opensACardThatCannotBeParsedSoItCanBeFixed() throws {
        try withTemporaryBoard(.fixture("messy")) { board throws in
            let fixed = "---\ntitle: Half written\ncolumn: doing\nposition: n\n---\n\nClosed now.\n"
            let editor = try board.script(named: "fix.sh", """
                cat > "$1" <<'END'
                \(fixed)END
                """)
            let result = try board.run(["edit", "cards/doing/unclosed.md"], environment: ["EDITOR": editor])
            #expect(result.status == 0, "\(result)")
            let after = try board.text("cards/doing/unclosed.md")
            #expect(Self.withoutModified(after) == fixed, "\(after)")
            #expect(Self.modified(after) != nil, "the edit adds 'modified': \(after)")
        }
    }

    @Test func anEditThatChangesNothingLeavesModifiedAlone() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.text(Self.card)
            let editor = try board.script(named: "touch.sh", #"touch "$1""#)
            let result = try board.run(["edit", "press-kit"], environment: ["EDITOR": editor])
            #expect(result.status == 0, "\(result)")
            #expect(try board.text(Self.card) == before)
        }
    }

    /// `text` without its `modified:` line.
    static func withoutModified(_ text: String) -> String {
        text.replacing(/modified: [^\n]*\n/, with: "")
    }

    /// The time on the `modified:` line of `text`.
    static func modified(_ text: String) -> Date? {
        (text.firstMatch(of: /\nmodified: ([^\n]*)\n/)?.output.1).flatMap { try? Date(String($0), strategy: .iso8601) }
    }

    @Test func visualWinsOverEditor() throws {
        try withTemporaryBoard(.sample) { board throws in
            let visual = try board.script(named: "visual.sh", #"printf '\nvisual' >> "$1""#)
            let editor = try board.script(named: "editor.sh", #"printf '\neditor' >> "$1""#)
            let result = try board.run(["edit", "press-kit-and-screenshots"], environment: ["VISUAL": visual, "EDITOR": editor])
            #expect(result.status == 0, "\(result)")
            let text = try board.text(Self.card)
            #expect(text.hasSuffix("\nvisual"))
            #expect(!text.contains("\neditor"))

            // An empty VISUAL does not count.
            let empty = try board.run(["edit", "press-kit-and-screenshots"], environment: ["VISUAL": "", "EDITOR": editor])
            #expect(empty.status == 0, "\(empty)")
            #expect(try board.text(Self.card).hasSuffix("\nvisual\neditor"))
        }
    }

    @Test func theEditorMayCarryArguments() throws {
        try withTemporaryBoard(.sample) { board throws in
            let script = try board.script(named: "with-args.sh", #"printf '\n%s' "$1" >> "$2""#)
            let result = try board.run(["edit", "press-kit-and-screenshots"], environment: ["EDITOR": "\(script) --wait"])
            #expect(result.status == 0, "\(result)")
            #expect(try board.text(Self.card).hasSuffix("\n--wait"))
        }
    }

    @Test func aFailingEditorIsReported() throws {
        try withTemporaryBoard(.sample) { board throws in
            let editor = try board.script(named: "fail.sh", #"printf '\nhalf done' >> "$1"; exit 3"#)
            let result = try board.run(["edit", "press-kit-and-screenshots"], environment: ["EDITOR": editor])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "error: the editor '\(editor)' exited with status 3; the card is as the editor left it\n")
            #expect(try board.text(Self.card).hasSuffix("\nhalf done"))
        }
    }

    @Test func editsAnArchivedCard() throws {
        try withTemporaryBoard(.sample) { board throws in
            let editor = try board.script(named: "editor.sh", #"printf '\nLater note.' >> "$1""#)
            let result = try board.run(["edit", "pick-the-launch-date"], environment: ["EDITOR": editor])
            #expect(result.status == 0, "\(result)")
            #expect(try board.text("archive/2026-10-22-pick-the-launch-date.md").hasSuffix("\nLater note."))
        }
    }

    @Test func anUnknownCardDoesNotStartTheEditor() throws {
        try withTemporaryBoard(.sample) { board throws in
            let editor = try board.script(named: "editor.sh", #"touch "$HOME/editor-ran""#)
            let result = try board.run(["edit", "no-such-card"], environment: ["EDITOR": editor])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.hasPrefix("error: no card on the board or in the archive matches 'no-such-card'"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: board.root + "/editor-ran"))

            let missing = try board.run(["edit"], environment: ["EDITOR": editor])
            #expect(missing.status == 64, "\(missing)")
            #expect(!FileManager.default.fileExists(atPath: board.root + "/editor-ran"))
        }
    }
}
