import Foundation

/// One mutating command the crash adversary interrupts, and the sandbox it runs in.
///
/// A sandbox is a directory holding the board (`board/`, or `repo/board/` inside a git repository, or nothing yet
/// for `init`), a `home/` that is the command's `HOME`, and a file beside the board: everything but the board
/// (and `.git`, and the board index in `home/.cache`) must be left alone by every command.
struct CrashScenario: Sendable {
    /// The board the command starts from.
    enum Fixture: Sendable {
        /// Four columns, six active cards, two archived, two labels.
        case standard
        /// The standard board with two cards sharing a position and a card whose `column:` is stale.
        case needsRepair
        /// No board: the command makes one.
        case empty
        /// The standard board at `repo/board`, committed in a git repository.
        case repository
    }

    /// Where the interruptions happen.
    enum Target: Sendable {
        /// At the system calls of kanban's main thread (the one that writes the board).
        case kanban
        /// At the system calls of the git processes kanban runs; kanban is killed with git.
        case git
    }

    var name: String
    var fixture: Fixture
    /// The command, without the program name.
    var arguments: [String]
    var target: Target = .kanban
    /// For a command naming several cards, which changes them one after another (each card all or nothing), the
    /// same command with the first card, the first two, …: where an interruption between two cards leaves the board.
    var partials: [[String]] = []

    /// The board's directory, relative to the sandbox.
    var boardPath: String {
        switch fixture {
        case .standard, .needsRepair: "board"
        case .empty: "newboard"
        case .repository: "repo/board"
        }
    }

    /// Where the command runs, relative to the sandbox ("" for the sandbox itself).
    var workingDirectory: String { fixture == .empty ? "" : boardPath }

    var isInRepository: Bool { fixture == .repository }

    /// What a person types, for reports.
    var commandLine: String {
        (["kanban"] + arguments).map(CrashScenario.shellQuoted).joined(separator: " ")
    }

    /// `argument` as a shell reads it back: bare when it can be, else in single quotes, or `$'...'` for a newline.
    static func shellQuoted(_ argument: String) -> String {
        if !argument.isEmpty && argument.allSatisfy({ $0.isLetter || $0.isNumber || "-_.,:/=@".contains($0) }) { return argument }
        if argument.contains("\n") {
            return "$'" + argument.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
                .replacingOccurrences(of: "\n", with: "\\n") + "'"
        }
        return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Every scenario, in the order they run.
    static let all: [CrashScenario] = [
        CrashScenario(name: "add", fixture: .standard, arguments: ["add", "Harness new card", "--column", "doing", "--label", "bug"]),
        CrashScenario(name: "add-top", fixture: .standard, arguments: ["add", "Harness top card", "--top"]),
        CrashScenario(name: "set-title", fixture: .standard, arguments: ["set", "fix-login-bug", "--title", "Fix the login bug"]),
        CrashScenario(name: "set-label", fixture: .standard, arguments: ["set", "write-release-notes", "--add-label", "bug"]),
        CrashScenario(name: "set-body", fixture: .standard, arguments: ["set", "migrate-storage", "--body", "A new body.\n\nWith a second paragraph.\n"]),
        CrashScenario(name: "move", fixture: .standard, arguments: ["move", "fix-login-bug", "review"]),
        CrashScenario(name: "move-top", fixture: .standard, arguments: ["move", "update-the-icon", "--top"]),
        CrashScenario(name: "move-after", fixture: .standard, arguments: ["move", "fix-login-bug", "--after", "write-release-notes"]),
        CrashScenario(name: "move-two", fixture: .standard, arguments: ["move", "fix-login-bug", "review-the-api", "--to", "done"],
                      partials: [["move", "fix-login-bug", "--to", "done"]]),
        CrashScenario(name: "archive", fixture: .standard, arguments: ["archive", "migrate-storage"]),
        CrashScenario(name: "archive-two", fixture: .standard, arguments: ["archive", "fix-login-bug", "check-translations"],
                      partials: [["archive", "fix-login-bug"]]),
        CrashScenario(name: "unarchive", fixture: .standard, arguments: ["unarchive", "old-task"]),
        CrashScenario(name: "delete", fixture: .standard, arguments: ["delete", "check-translations"]),
        CrashScenario(name: "column-add", fixture: .standard, arguments: ["column", "add", "blocked", "Blocked", "--after", "doing"]),
        CrashScenario(name: "column-remove", fixture: .standard, arguments: ["column", "remove", "doing", "--move-cards-to", "done"]),
        CrashScenario(name: "label-add", fixture: .standard, arguments: ["label", "add", "urgent", "Urgent", "--colour", "#ff0000"]),
        CrashScenario(name: "label-remove", fixture: .standard, arguments: ["label", "remove", "bug", "--strip"]),
        // An import writes cards, a column and labels in one change: all of it or none.
        CrashScenario(name: "import", fixture: .standard, arguments: ["import", "csv", "../import.csv", "--apply"]),
        CrashScenario(name: "doctor-fix", fixture: .needsRepair, arguments: ["doctor", "--fix"]),
        CrashScenario(name: "init", fixture: .empty, arguments: ["init", "newboard", "--title", "New board", "--columns", "todo:To Do,doing:Doing,done:Done"]),
        CrashScenario(name: "commit", fixture: .repository, arguments: ["move", "fix-login-bug", "done", "--commit"]),
        CrashScenario(name: "commit-git", fixture: .repository, arguments: ["move", "fix-login-bug", "done", "--commit"], target: .git),
    ]

    /// The table the `import` scenario reads: three new cards (one archived), a new column, a new label.
    static let importTable = """
        title,status,labels,archived,estimate\r
        Imported one,Doing,"bug, urgent",,3\r
        Imported two,Blocked,,,\r
        Imported three,Done,docs,2026-01-12,\r

        """

    /// The mutating command sometimes run after an interruption, instead of a read or `doctor --fix`.
    static let probe = ["add", "Harness probe", "--column", "done"]

    /// The command that must succeed, committing, after an interruption in a repository.
    static let laterCommit = ["move", "update-the-icon", "review", "--commit"]

    // MARK: Making the sandbox

    /// Makes the scenario's sandbox at `sandbox` (which must not exist).
    func makeSandbox(at sandbox: String, environment: [String: String], git: String?) throws {
        try write("Notes kept beside the board; no command may change them.\n", to: sandbox + "/notes.md")
        try write(CrashScenario.importTable, to: sandbox + "/import.csv")
        try write("export EDITOR=true\n", to: sandbox + "/home/.profile")
        switch fixture {
        case .standard:
            try CrashScenario.writeStandardBoard(at: sandbox + "/board", needingRepair: false)
        case .needsRepair:
            try CrashScenario.writeStandardBoard(at: sandbox + "/board", needingRepair: true)
        case .empty:
            break
        case .repository:
            guard let git else { throw HarnessError(message: "git is not installed", status: .skipped) }
            let repository = sandbox + "/repo"
            try write("# A project with its kanban board\n", to: repository + "/README.md")
            try CrashScenario.writeStandardBoard(at: repository + "/board", needingRepair: false)
            for arguments in [["init", "--quiet", "--initial-branch=main"], ["add", "--all"], ["commit", "--quiet", "-m", "Start"]] {
                let outcome = try BoardProcesses.run(git, arguments, in: repository, environment: environment)
                guard outcome.succeeded else { throw HarnessError(message: "git \(arguments.joined(separator: " ")) failed: \(outcome)") }
            }
        }
    }

    private func write(_ text: String, to path: String) throws {
        try CrashScenario.write(text, to: path)
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// A card of the standard board.
    private struct FixtureCard {
        var title: String
        var slug: String
        var column: String
        var position: String
        var day: Int
        var labels: [String]
        var archivedOn: String? = nil
    }

    private static let cards: [FixtureCard] = [
        FixtureCard(title: "Fix login bug", slug: "fix-login-bug", column: "todo", position: "d", day: 1, labels: ["bug"]),
        FixtureCard(title: "Write release notes", slug: "write-release-notes", column: "todo", position: "n", day: 2, labels: ["docs"]),
        FixtureCard(title: "Migrate storage", slug: "migrate-storage", column: "doing", position: "d", day: 3, labels: ["bug", "docs"]),
        FixtureCard(title: "Review the API", slug: "review-the-api", column: "doing", position: "n", day: 4, labels: []),
        FixtureCard(title: "Update the icon", slug: "update-the-icon", column: "doing", position: "u", day: 5, labels: ["docs"]),
        FixtureCard(title: "Check translations", slug: "check-translations", column: "review", position: "n", day: 6, labels: ["bug"]),
        FixtureCard(title: "Old task", slug: "old-task", column: "done", position: "n", day: 7, labels: [], archivedOn: "2026-01-10"),
        FixtureCard(title: "Older bug", slug: "older-bug", column: "done", position: "u", day: 8, labels: ["bug"], archivedOn: "2026-01-11"),
    ]

    /// Writes the standard board; `needingRepair` gives `review-the-api` the position of `migrate-storage` and
    /// `check-translations` a stale `column: todo`, two things `doctor --fix` repairs.
    static func writeStandardBoard(at board: String, needingRepair: Bool) throws {
        try write("""
            ---
            title: Crash Board
            columns:
              - id: todo
                name: To Do
              - id: doing
                name: Doing
              - id: review
                name: Review
              - id: done
                name: Done
            labels:
              - id: bug
                name: Bug
                color: "#e74c3c"
              - id: docs
                name: Docs
                color: "#27ae60"
            ---

            # Crash Board

            ## Card Template

            ## Description

            """, to: board + "/board.md")
        try FileManager.default.createDirectory(atPath: board + "/cards/done", withIntermediateDirectories: true)
        for card in cards {
            var column = card.column
            var position = card.position
            if needingRepair && card.slug == "review-the-api" { position = "d" }
            if needingRepair && card.slug == "check-translations" { column = "todo" }
            let stamp = String(format: "2026-01-%02dT09:00:00Z", card.day)
            let text = """
                ---
                title: \(card.title)
                column: \(column)
                position: \(position)
                created: \(stamp)
                modified: \(stamp)
                labels: [\(card.labels.joined(separator: ", "))]
                ---

                ## Description

                \(card.title), written by the crash adversary.

                """
            let path = card.archivedOn.map { "\(board)/archive/\($0)-\(card.slug).md" } ?? "\(board)/cards/\(card.column)/\(card.slug).md"
            try write(text, to: path)
        }
    }
}
