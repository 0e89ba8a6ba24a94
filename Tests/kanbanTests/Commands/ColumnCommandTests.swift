import Foundation
import Testing

/// `kanban column list|add|rename|remove|move|collapse|expand`, run as the built binary on temporary boards.
@Suite struct ColumnCommandTests {
    static let sampleOrder = ["backlog", "todo", "in-progress", "review", "done"]

    // MARK: list

    @Test func listsColumnsWithNamesAndCardCounts() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["column", "list"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout == """
                backlog      Backlog      5 cards  collapsed
                todo         To Do        5 cards
                in-progress  In Progress  5 cards
                review       Review       4 cards
                done         Done         6 cards

                """)
            // Without a subcommand, `column` lists.
            let bare = try board.run(["column"])
            #expect(bare.status == 0, "\(bare)")
            #expect(bare.stdout == result.stdout)
        }
    }

    @Test func listsColumnsAsJSON() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["column", "list", "--json"])
            #expect(result.status == 0, "\(result)")
            let columns = try decodeJSON([JSONValue].self, from: result.stdout)
            #expect(columns.count == 5)
            #expect(columns.first == .object(["id": .string("backlog"), "name": .string("Backlog"), "collapsed": .bool(true), "cards": .number(5),
                                                   "limit": .null, "queue": .bool(false)]))
            #expect(columns.map { $0["id"]?.stringValue ?? "" } == Self.sampleOrder)
            #expect(columns[3] == .object(["id": .string("review"), "name": .string("Review"), "collapsed": .bool(false), "cards": .number(4),
                                                 "limit": .null, "queue": .bool(false)]))
        }
    }

    // MARK: add

    @Test func addsAColumnLastWithItsIDAsName() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["column", "add", "qa"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "added column qa \"qa\"\n")
            #expect(result.stderr.isEmpty)
            #expect(board.isDirectory("cards/qa"))
            #expect(TemporaryBoard.changes(from: before, to: try board.files()) == ["board.md"])
            let (old, new) = try boardBlocks(before: before, board: board, key: "columns")
            #expect(new == old + "\n  - id: qa\n    name: qa")
        }
    }

    @Test func refusesAColumnWhoseIDDiffersOnlyInCaseAndDoctorReportsOne() throws {
        // Issue 20: on macOS's default disk `cards/UPPER` and `cards/upper` are one directory.
        try withTemporaryBoard(.simple) { board throws in
            #expect(try board.run(["column", "add", "UPPER", "-q"]).status == 0)
            let before = try board.files()
            let result = try board.run(["column", "add", "upper"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("error: column id 'upper' differs from 'UPPER' only in case"), "\(result)")
            #expect(try board.files() == before)

            // One written by hand is reported where it stands.
            let text = try board.text("board.md")
            try board.write(text.replacingOccurrences(of: "    name: Done\n", with: "    name: Done\n  - id: Done\n    name: Done again\n"), to: "board.md")
            let doctor = try board.run(["doctor"])
            #expect(doctor.status == 1, "\(doctor)")
            #expect(doctor.stdout.contains("board.md:10:9: error: column id 'Done' differs from 'done' only in case"), "\(doctor)")
        }
    }

    @Test(arguments: [
        (["--at", "1"], ["qa", "backlog", "todo", "in-progress", "review", "done"]),
        (["--at", "6"], ["backlog", "todo", "in-progress", "review", "done", "qa"]),
        (["--before", "todo"], ["backlog", "qa", "todo", "in-progress", "review", "done"]),
        (["--after", "review"], ["backlog", "todo", "in-progress", "review", "qa", "done"]),
    ])
    func addsAColumnWhereAsked(placement: [String], order: [String]) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["column", "add", "qa", "Quality Assurance"] + placement)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "added column qa \"Quality Assurance\"\n")
            #expect(try columnIDs(board) == order)
            let (old, new) = try boardBlocks(before: before, board: board, key: "columns")
            #expect(new.contains("  - id: qa\n    name: Quality Assurance\n") || new.hasSuffix("  - id: qa\n    name: Quality Assurance"), "\(new)")
            #expect(lineChanges(from: old, to: new).removed.isEmpty)
        }
    }

    /// Issue 20 #11: the message states the rule the id broke.
    @Test(arguments: [
        (".hidden", "error: '.hidden' cannot be a column id: it must start with a letter or digit"),
        (String(repeating: "a", count: 65), "error: '\(String(repeating: "a", count: 65))' cannot be a column id: it is 65 characters long, and at most 64 are allowed"),
        ("to do", "error: 'to do' cannot be a column id: U+20 is not allowed"),
    ])
    func rejectsAnIDThatBreaksARuleAndSaysWhich(id: String, message: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["column", "add", id, "Name"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.hasPrefix(message), "\(result)")
            let initialized = try board.run(["init", "other", "--columns", "\(id):Name"])
            #expect(initialized.status == 64, "\(initialized)")
            #expect(initialized.stderr.hasPrefix(message), "\(initialized)")
        }
    }

    @Test func keepsANameThatNeedsQuoting() throws {
        try withTemporaryBoard(.sample) { board throws in
            let name = "Quality: \"A\" #1"
            let result = try board.run(["column", "add", "qa", name])
            #expect(result.status == 0, "\(result)")
            let columns = try decodeJSON([JSONValue].self, from: try board.run(["column", "list", "--json"]).stdout)
            #expect(columns.last?["name"] == .string(name))
            let rename = try board.run(["column", "rename", "qa", "QA"])
            #expect(rename.stdout == "renamed column qa: \(name) → QA\n")
        }
    }

    // MARK: rename

    @Test func renamesAColumn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["column", "rename", "todo", "Up Next"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "renamed column todo: To Do → Up Next\n")
            #expect(TemporaryBoard.changes(from: before, to: try board.files()) == ["board.md"])
            let (old, new) = try boardBlocks(before: before, board: board, key: "columns")
            let changes = lineChanges(from: old, to: new)
            #expect(changes.removed == ["    name: To Do"])
            #expect(changes.added == ["    name: Up Next"])
        }
    }

    // MARK: remove

    @Test func removesAnEmptyColumn() throws {
        try withTemporaryBoard(.simple) { board throws in
            let before = try board.files()
            let result = try board.run(["column", "remove", "doing"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "removed column doing\n")
            #expect(!board.exists("cards/doing"))
            let (old, new) = try boardBlocks(before: before, board: board, key: "columns")
            let changes = lineChanges(from: old, to: new)
            #expect(changes.removed == ["  - id: doing", "    name: Doing"])
            #expect(changes.added.isEmpty)
        }
    }

    @Test func removesAColumnMovingItsCards() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let reviewCards = try board.slugs(inColumn: "review")
            let doneCards = try board.slugs(inColumn: "done")
            let result = try board.run(["column", "remove", "review", "--move-cards-to", "done"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "removed column review (moved 4 cards to done)\n")
            #expect(!board.exists("cards/review"))
            #expect(try board.slugs(inColumn: "done") == doneCards + reviewCards)
            let after = try board.files()
            // Only board.md, the moved cards and nothing in the other columns changed.
            let changed = TemporaryBoard.changes(from: before, to: after)
            #expect(changed.filter { !$0.hasPrefix("cards/review/") && !$0.hasPrefix("cards/done/") } == ["board.md"])
            for slug in doneCards {
                #expect(before["cards/done/\(slug).md"] == after["cards/done/\(slug).md"])
            }
            let (old, new) = try boardBlocks(before: before, board: board, key: "columns")
            #expect(lineChanges(from: old, to: new).removed == ["  - id: review", "    name: Review"])
        }
    }

    @Test func refusesToRemoveAColumnWithCardsWithoutATarget() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["column", "remove", "review"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("review"))
            #expect(result.stderr.contains("4 cards"))
            #expect(result.stderr.contains("--move-cards-to"))
            #expect(try board.files() == before)
        }
    }

    // MARK: move

    @Test(arguments: [
        (["--to", "1"], ["review", "backlog", "todo", "in-progress", "done"], "moved column review to position 1 of 5"),
        (["--to", "5"], ["backlog", "todo", "in-progress", "done", "review"], "moved column review to position 5 of 5"),
        (["--before", "todo"], ["backlog", "review", "todo", "in-progress", "done"], "moved column review to position 2 of 5"),
        (["--after", "done"], ["backlog", "todo", "in-progress", "done", "review"], "moved column review to position 5 of 5"),
        (["--first"], ["review", "backlog", "todo", "in-progress", "done"], "moved column review to position 1 of 5"),
        (["--last"], ["backlog", "todo", "in-progress", "done", "review"], "moved column review to position 5 of 5"),
        (["--after", "in-progress"], ["backlog", "todo", "in-progress", "review", "done"], "column review is already at position 4 of 5"),
    ])
    func movesAColumn(placement: [String], order: [String], message: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(["column", "move", "review"] + placement)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == message + "\n")
            #expect(try columnIDs(board) == order)
            let changed = TemporaryBoard.changes(from: before, to: try board.files())
            #expect(changed == (order == Self.sampleOrder ? [] : ["board.md"]))
            let (old, new) = try boardBlocks(before: before, board: board, key: "columns")
            #expect(Set(lineChanges(from: old, to: new).removed).isSubset(of: ["  - id: review", "    name: Review"]))
        }
    }

    // MARK: collapse and expand

    @Test func collapsesAndExpandsColumns() throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let expand = try board.run(["column", "expand", "backlog"])
            #expect(expand.status == 0, "\(expand)")
            #expect(expand.stdout == "expanded column backlog\n")
            let (old, new) = try boardBlocks(before: before, board: board, key: "columns")
            let changes = lineChanges(from: old, to: new)
            #expect(changes.removed == ["    collapsed: true"])
            #expect(changes.added.isEmpty)

            let collapse = try board.run(["column", "collapse", "todo"])
            #expect(collapse.status == 0, "\(collapse)")
            #expect(collapse.stdout == "collapsed column todo\n")
            let list = try board.run(["column", "list", "--json"])
            let columns = try decodeJSON([JSONValue].self, from: list.stdout)
            #expect(columns.map { $0["collapsed"] } == [.bool(false), .bool(true), .bool(false), .bool(false), .bool(false)])
            #expect(TemporaryBoard.changes(from: before, to: try board.files()) == ["board.md"])

            let again = try board.run(["column", "collapse", "todo"])
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout == "column todo is already collapsed\n")
        }
    }

    // MARK: Errors and --quiet

    @Test(arguments: [
        ["column", "rename", "nope", "Name"],
        ["column", "remove", "nope"],
        ["column", "move", "nope", "--first"],
        ["column", "collapse", "nope"],
        ["column", "expand", "nope"],
        ["column", "add", "qa", "--before", "nope"],
        ["column", "move", "review", "--after", "nope"],
        ["column", "remove", "review", "--move-cards-to", "nope"],
    ])
    func failsOnAnUnknownColumn(arguments: [String]) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("'nope'"), "\(result)")
            #expect(try board.files() == before)
        }
    }

    @Test(arguments: [
        (["column", "add", "todo"], "already exists"),
        (["column", "add", "../x"], "'../x'"),
        (["column", "add", "a/b"], "'a/b'"),
        (["column", "add", "qa", "--at", "7"], "out of range"),
        (["column", "move", "review", "--to", "6"], "out of range"),
        (["column", "move", "review", "--before", "review"], "itself"),
        (["column", "rename", "todo", "  "], "name"),
        (["column", "remove", "review", "--move-cards-to", "review"], "itself"),
    ])
    func failsOnABadRequest(arguments: [String], message: String) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(arguments)
            #expect(result.status == 1, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("error: "), "\(result)")
            #expect(result.stderr.contains(message), "\(result)")
            #expect(try board.files() == before)
            #expect(!board.exists("x") && !board.exists("cards/a"))
        }
    }

    @Test(arguments: [
        ["column", "add"],
        ["column", "rename", "todo"],
        ["column", "remove"],
        ["column", "move", "todo"],
        ["column", "move", "todo", "--first", "--last"],
        ["column", "add", "qa", "--at", "0"],
        ["column", "add", "qa", "--at", "two"],
        ["column", "collapse"],
        ["column", "frobnicate"],
        ["column", "list", "extra"],
    ])
    func rejectsAMalformedCommandLine(arguments: [String]) throws {
        try withTemporaryBoard(.sample) { board throws in
            let before = try board.files()
            let result = try board.run(arguments)
            #expect(result.status == 64, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("error: "), "\(result)")
            #expect(try board.files() == before)
        }
    }

    @Test func quietSilencesTheLineButNotTheChange() throws {
        try withTemporaryBoard(.sample) { board throws in
            for arguments in [
                ["column", "add", "qa", "--quiet"], ["-q", "column", "rename", "qa", "QA"], ["column", "move", "qa", "--first", "-q"],
                ["column", "collapse", "qa", "-q"], ["column", "remove", "qa", "-q"],
            ] {
                let result = try board.run(arguments)
                #expect(result.status == 0, "\(result)")
                #expect(result.stdout.isEmpty, "\(arguments): \(result)")
                #expect(result.stderr.isEmpty, "\(arguments): \(result)")
            }
            #expect(try columnIDs(board) == Self.sampleOrder)
        }
    }

    @Test func helpDescribesTheSubcommands() throws {
        let result = try runKanban(["column", "--help"])
        #expect(result.status == 0)
        for name in ["list", "add", "rename", "remove", "move", "collapse", "expand"] {
            #expect(result.stdout.contains(name))
        }
        let move = try runKanban(["column", "move", "--help"])
        #expect(move.stdout.contains("--first"))
    }
}

// MARK: Helpers shared with LabelCommandTests

/// The column ids in order, from `kanban column list --json`.
func columnIDs(_ board: TemporaryBoard, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
    let result = try board.run(["column", "list", "--json"])
    try #require(result.status == 0, "column list --json failed: \(result)", sourceLocation: sourceLocation)
    return try decodeJSON([JSONValue].self, from: result.stdout).map { $0["id"]?.stringValue ?? "" }
}

/// board.md split around the top-level block `key:` (its line and the indented lines under it): the block's text,
/// and the rest of the file with a marker where the block was.
func boardMarkdownBlock(_ text: String, key: String) -> (block: String, outside: String) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(where: { $0.hasPrefix(key + ":") }) else { return ("", text) }
    var end = start + 1
    while end < lines.count, lines[end].hasPrefix(" ") || lines[end].hasPrefix("- ") { end += 1 }
    let outside = lines[..<start] + ["<\(key)>"] + lines[end...]
    return (lines[start..<end].joined(separator: "\n"), outside.joined(separator: "\n"))
}

/// The `key:` block of board.md before and after a command, checking that everything else kept its bytes.
func boardBlocks(
    before: [String: [UInt8]], board: TemporaryBoard, key: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (old: String, new: String) {
    let old = String(decoding: try #require(before["board.md"], sourceLocation: sourceLocation), as: UTF8.self)
    let new = try board.text("board.md")
    let (oldBlock, oldOutside) = boardMarkdownBlock(old, key: key)
    let (newBlock, newOutside) = boardMarkdownBlock(new, key: key)
    #expect(newOutside == oldOutside, "board.md changed outside its '\(key):' block", sourceLocation: sourceLocation)
    return (oldBlock, newBlock)
}
