#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

@testable import KanbanServer

/// Boards laid out by an attacker, or by accident: links leading out of the board, FIFOs where cards should be,
/// file names that are not UTF-8, titles that talk to the terminal. Nothing outside the board is read or written,
/// nothing hangs, and every message says what is wrong.
@Suite struct HostileBoardTests {
    /// A directory beside the board (outside it), holding one card-like file and a column-like directory.
    private func makeOutside(_ board: TemporaryBoard) throws -> String {
        let outside = board.root + "/outside"
        try FileManager.default.createDirectory(atPath: outside + "/todo", withIntermediateDirectories: true)
        let card = "---\ntitle: Secret\ncolumn: todo\nposition: n\n---\n\nNot yours.\n"
        try Data(card.utf8).write(to: URL(fileURLWithPath: outside + "/secret.md"))
        try Data(card.utf8).write(to: URL(fileURLWithPath: outside + "/todo/secret.md"))
        return outside
    }

    /// Every file under `directory`, with its bytes: to prove nothing there changed.
    private func contents(of directory: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue {
                result[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            }
        }
        return result
    }

    /// Adds a column `evil` to board.md (the simple board's columns are todo, doing, done).
    private func declareColumn(_ id: String, in board: TemporaryBoard) throws {
        let text = try board.text("board.md").replacingOccurrences(of: "columns:\n", with: "columns:\n  - id: \(id)\n    name: \(id)\n")
        try board.write(text, to: "board.md")
    }

    // MARK: Links out of the board

    @Test func aColumnThatIsALinkOutOfTheBoardIsNeverWrittenThrough() throws {
        try withTemporaryBoard(.simple) { board throws in
            let outside = try makeOutside(board)
            let before = try contents(of: outside)
            try declareColumn("evil", in: board)
            #expect(symlink(outside, board.absolute("cards/evil")) == 0)
            #expect(try board.run(["add", "Card one", "--column", "todo"]).status == 0)

            let add = try board.run(["add", "X", "--column", "evil"])
            #expect(add.status == 1, "\(add)")
            #expect(add.stderr.contains("cards/evil") && add.stderr.contains("outside the board"), "\(add)")
            let move = try board.run(["move", "card-one", "evil"])
            #expect(move.status == 1, "\(move)")
            #expect(move.stderr.contains("cards/evil"), "\(move)")
            #expect(try contents(of: outside) == before, "nothing outside the board changed")
            #expect(try board.slugs(inColumn: "evil").isEmpty)

            let list = try board.run(["list"])
            #expect(list.status == 0)
            #expect(list.stderr.contains("cards/evil: error: link points outside the board directory"), "\(list)")
            #expect(!list.stdout.contains("Secret"))
            let doctor = try board.run(["doctor"])
            #expect(doctor.status == 1)
            #expect(doctor.stdout.contains("cards/evil: error:"), "\(doctor)")
        }
    }

    @Test func cardsThatIsALinkOutOfTheBoardIsNeitherListedNorWritten() throws {
        try withTemporaryBoard(.simple) { board throws in
            let outside = try makeOutside(board)
            let before = try contents(of: outside)
            try FileManager.default.removeItem(atPath: board.absolute("cards"))
            #expect(symlink(outside, board.absolute("cards")) == 0)

            let list = try board.run(["list"])
            #expect(!list.stdout.contains("Secret"), "\(list)")
            #expect(list.stderr.contains("cards: error: link points outside the board directory"), "\(list)")
            let set = try board.run(["set", "cards/todo/secret.md", "--title", "Mine now"])
            #expect(set.status == 1, "\(set)")
            #expect(set.stderr.contains("outside the board"), "\(set)")
            let add = try board.run(["add", "New card"])
            #expect(add.status == 1, "\(add)")
            #expect(add.stderr.contains("'cards' is a link"), "\(add)")
            let doctor = try board.run(["doctor"])
            #expect(doctor.status == 1, "\(doctor)")
            #expect(doctor.stdout.contains("cards: error: link points outside the board directory"), "\(doctor)")
            #expect(try contents(of: outside) == before, "nothing outside the board changed")
        }
    }

    @Test func anArchiveThatIsALinkOutOfTheBoardIsNeverWrittenThrough() throws {
        try withTemporaryBoard(.simple) { board throws in
            let outside = try makeOutside(board)
            let before = try contents(of: outside)
            try FileManager.default.removeItem(atPath: board.absolute("archive"))
            #expect(symlink(outside, board.absolute("archive")) == 0)
            #expect(try board.run(["add", "Card one"]).status == 0)
            let archive = try board.run(["archive", "card-one"])
            #expect(archive.status == 1, "\(archive)")
            #expect(archive.stderr.contains("'archive' is a link"), "\(archive)")
            #expect(board.exists("cards/todo/card-one.md"), "the card stays where it was")
            #expect(try contents(of: outside) == before)
            let all = try board.run(["list", "--all"])
            #expect(!all.stdout.contains("Secret"))
            #expect(all.stderr.contains("archive: error: link points outside the board directory"), "\(all)")
        }
    }

    @Test func aLinkThatStaysInsideTheBoardIsFollowed() throws {
        try withTemporaryBoard(.simple) { board throws in
            try FileManager.default.createDirectory(atPath: board.absolute("shared/later"), withIntermediateDirectories: true)
            try declareColumn("later", in: board)
            #expect(symlink("../shared/later", board.absolute("cards/later")) == 0)
            let add = try board.run(["add", "Someday", "--column", "later"])
            #expect(add.status == 0, "\(add)")
            #expect(board.exists("shared/later/someday.md"))
            #expect(try board.slugs(inColumn: "later") == ["someday"])
            #expect(try board.run(["doctor"]).status == 0)
        }
    }

    // MARK: Special files

    @Test func aCardThatIsALinkToAFIFONeverBlocks() throws {
        try withTemporaryBoard(.simple) { board throws in
            #expect(try board.run(["add", "Card one"]).status == 0)
            #expect(mkfifo(board.absolute("notes.fifo"), 0o644) == 0)
            #expect(symlink("../../notes.fifo", board.absolute("cards/todo/y.md")) == 0)
            // Each run is killed (and the test fails) if it blocks.
            let list = try board.run(["list"])
            #expect(list.status == 0, "\(list)")
            #expect(list.stderr.contains("cards/todo/y.md: warning: not a regular file"), "\(list)")
            let add = try board.run(["add", "Card two"])
            #expect(add.status == 0, "\(add)")
            let doctor = try board.run(["doctor"])
            #expect(doctor.stdout.contains("cards/todo/y.md: warning: not a regular file"), "\(doctor)")
        }
    }

    @Test(arguments: [["set", "cards/todo/x.md", "--title", "t"], ["show", "cards/todo/x.md"], ["delete", "cards/todo/x.md"],
                      ["show", "--raw", "cards/todo/x.md"], ["edit", "cards/todo/x.md"]])
    func aFIFONamedByPathIsRefusedWithoutBlocking(arguments: [String]) throws {
        try withTemporaryBoard(.simple) { board throws in
            #expect(mkfifo(board.absolute("cards/todo/x.md"), 0o644) == 0)
            let result = try board.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("cards/todo/x.md") && result.stderr.contains("not a regular file"), "\(result)")
            var info = stat()
            #expect(lstat(board.absolute("cards/todo/x.md"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is left alone")
        }
    }

    @Test func aLockHeldTooLongEndsTheWaitWithAClearMessage() throws {
        try withTemporaryBoard(.simple) { board throws in
            // Another process holds the board's lock and never lets go.
            let holder = open(board.path, O_RDONLY | O_DIRECTORY)
            #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
            defer { close(holder) }
            let started = Date()
            let add = try board.run(["add", "Card one"], environment: ["KANBAN_LOCK_TIMEOUT": "1"])
            #expect(add.status == 1, "\(add)")
            #expect(add.stderr.contains("another kanban process") && add.stderr.contains("gave up"), "\(add)")
            #expect(Date().timeIntervalSince(started) < 60)
            let bad = try board.run(["add", "Card one"], environment: ["KANBAN_LOCK_TIMEOUT": "soon"])
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("KANBAN_LOCK_TIMEOUT"), "\(bad)")
        }
    }

    // MARK: Interrupted commands

    @Test func temporaryFilesLeftByAnInterruptedWriteAreReportedAndRemoved() throws {
        try withTemporaryBoard(.simple) { board throws in
            #expect(try board.run(["add", "Card one"]).status == 0)
            try board.write("half a card", to: "cards/todo/.card-one.md.4242.0.kanban-tmp")
            try board.write("half a card", to: "cards/doing/.card-two.md.kanban-tmp")
            let doctor = try board.run(["doctor"])
            #expect(doctor.stdout.contains("cards/todo/.card-one.md.4242.0.kanban-tmp: warning: temporary file"), "\(doctor)")
            #expect(doctor.stdout.contains("cards/doing/.card-two.md.kanban-tmp: warning: temporary file"), "\(doctor)")
            let fix = try board.run(["doctor", "--fix"])
            #expect(fix.status == 0, "\(fix)")
            #expect(!board.exists("cards/todo/.card-one.md.4242.0.kanban-tmp"))
            #expect(!board.exists("cards/doing/.card-two.md.kanban-tmp"))
            #expect(board.exists("cards/todo/card-one.md"))
        }
    }

    // MARK: Output and input

    @Test func controlCharactersInATitleAreShownNotObeyed() throws {
        try withTemporaryBoard(.simple) { board throws in
            let title = "\u{1B}]0;pwned\u{07}\u{1B}[2JHello"
            // No command writes such a title now; a file written by hand (or by another tool) still holds one.
            #expect(try board.run(["add", title]).status == 1)
            try board.write("---\ntitle: \(title)\ncolumn: todo\nposition: a\n---\n", to: "cards/todo/hello.md")
            let slug = try #require(try board.listJSON().first?.slug)
            for arguments in [["list"], ["show", slug], ["search", "hello"], ["board"]] {
                for terminal in [false, true] {
                    let result = try board.run(arguments, stdoutIsTerminal: terminal)
                    #expect(result.status == 0, "\(arguments): \(result)")
                    #expect(!result.stdout.contains("\u{07}") && !result.stdout.contains("\u{1B}]") && !result.stdout.contains("\u{1B}[2J"),
                            "\(arguments), terminal \(terminal): \(result)")
                    if arguments[0] != "board" {
                        #expect(result.stdout.contains("^[]0;pwned^G^[[2J"), "\(arguments), terminal \(terminal): \(result)")
                    }
                }
            }
            let json = try board.showJSON(slug)
            #expect(json.title == title, "JSON keeps the title, escaped")
            let raw = try board.run(["show", "--json", slug])
            #expect(raw.stdout.contains("\\u001b]0;pwned\\u0007"), "\(raw)")
        }
    }

    @Test func aCardFileNameThatIsNotUTF8IsReportedWithItsBytesShown() throws {
        try withTemporaryBoard(.simple) { board throws in
            // `café.md` in Latin-1: the name's bytes are not UTF-8.
            var bytes = Array(board.absolute("cards/todo/caf").utf8) + [0xE9] + Array(".md".utf8) + [0]
            let descriptor = bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
            }
            #expect(descriptor >= 0)
            close(descriptor)
            let list = try board.run(["list"])
            #expect(list.status == 0, "\(list)")
            #expect(list.stderr.contains("cards/todo/caf\\xE9.md: error: the file name is not valid UTF-8"), "\(list)")
            let doctor = try board.run(["doctor"])
            #expect(doctor.status == 1)
            #expect(doctor.stdout.contains("caf\\xE9.md"), "\(doctor)")
        }
    }

    @Test(arguments: ["a\r\r\nb", "a\r\nb\r\n", "\n\nstarts with blank lines", "ends without a line break", "ends with two\n\n", "\r"])
    func aBodyComesBackByteForByte(body: String) throws {
        try withTemporaryBoard(.simple) { board throws in
            #expect(try board.run(["add", "Card one", "--body", body]).status == 0)
            #expect(try board.showJSON("card-one").body == body)
            #expect(try board.run(["set", "card-one", "--body", body + "x"]).status == 0)
            #expect(try board.showJSON("card-one").body == body + "x")
        }
    }

    @Test func aCardWithManyLabelsIsChangedInLinearTime() throws {
        try withTemporaryBoard(.simple) { board throws in
            // 200,000 labels: a quadratic rewrite takes minutes here, a linear one about a second.
            let labels = (0..<200_000).map { "l\($0)" }.joined(separator: ", ")
            try board.write("---\ntitle: Big\ncolumn: todo\nposition: n\nlabels: [\(labels)]\n---\n\nBody\n", to: "cards/todo/big.md")
            let started = Date()
            let set = try board.run(["set", "big", "--add-label", "bug", "--remove-label", "l7"])
            #expect(set.status == 0, "\(set)")
            #expect(Date().timeIntervalSince(started) < 60, "the change took \(Date().timeIntervalSince(started)) s")
            let text = try board.text("cards/todo/big.md")
            #expect(text.contains("l6, l8, ") && text.contains("l199999, bug]") && !text.contains(" l7,"))
        }
    }

    @Test func aRegularExpressionThatBacktracksWithoutEndIsStopped() throws {
        try withTemporaryBoard(.simple) { board throws in
            #expect(try board.run(["add", String(repeating: "a", count: 40) + "c"]).status == 0)
            let search = try board.run(["search", "--regex", "(a+)+b"])
            #expect(search.status == 1, "\(search)")
            #expect(search.stderr.contains("error: the pattern '(a+)+b' is too expensive"), "\(search)")
            let fine = try board.run(["search", "--regex", "a+c$"])
            #expect(fine.status == 0, "\(fine)")
        }
    }

    // MARK: Messages that say what to do

    @Test func misleadingMessagesNameTheThingAndTheFix() throws {
        try withTemporaryBoard(.simple) { board throws in
            let file = try board.run(["--board", board.absolute("board.md"), "list"], in: nil)
            #expect(file.status == 1)
            #expect(file.stderr.contains("is the board's board.md file; name the board by its directory instead: '\(board.path)'"), "\(file)")
            #expect(!file.stderr.contains("kanban init"), "\(file)")

            let empty = try board.run(["search", "\"\""])
            #expect(empty.status == 64)
            #expect(empty.stderr.contains("the phrase at character 1 is empty: put words between the quotes"), "\(empty)")

            // A board.md that is a link staying inside the board works, and stays a link when written.
            try FileManager.default.moveItem(atPath: board.absolute("board.md"), toPath: board.absolute("settings.md"))
            #expect(symlink("settings.md", board.absolute("board.md")) == 0)
            #expect(try board.run(["list"]).status == 0)
            #expect(try board.run(["column", "add", "qa", "QA"]).status == 0)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: board.absolute("board.md")) == "settings.md")
            #expect(try board.text("settings.md").contains("id: qa"))

            // One that leads out says so, rather than that there is no board.md.
            try FileManager.default.removeItem(atPath: board.absolute("board.md"))
            #expect(symlink(board.root + "/elsewhere.md", board.absolute("board.md")) == 0)
            try Data("---\ntitle: X\ncolumns:\n  - id: a\n    name: A\n---\n".utf8).write(to: URL(fileURLWithPath: board.root + "/elsewhere.md"))
            let outside = try board.run(["list"])
            #expect(outside.status == 1)
            #expect(outside.stderr.contains("board.md is a link to"), "\(outside)")
            #expect(outside.stderr.contains("outside the board directory"), "\(outside)")
        }
    }
}
