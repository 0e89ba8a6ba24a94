import Foundation
import KanbanCore
import KanbanGit
import KanbanServer

/// What every command needs: the environment, the output streams and their styling, and the board.
final class CommandContext {
    let arguments: ParsedArguments
    let environment: [String: String]
    let output = BufferedOutput.standardOutput
    let errorOutput = BufferedOutput.standardError
    /// Styles for standard output (colour only on a terminal, never with NO_COLOR or --no-color).
    let stylist: Stylist
    /// Styles for standard error.
    let errorStylist: Stylist
    /// Whether `--quiet` was given: mutating commands then print nothing but errors.
    let isQuiet: Bool
    /// The current directory, absolute.
    let currentDirectory: String
    private var cachedStore: BoardStore?
    /// Where the board was found and why (set when ``store()`` opens it).
    private(set) var boardLocation: BoardLocation?
    private var cachedSession: (session: BoardSession, git: GitSyncProvider)?

    init(arguments: ParsedArguments, environment: [String: String]) throws {
        self.arguments = arguments
        self.environment = environment
        let mode = try ColorMode(arguments: arguments)
        stylist = Stylist(descriptor: STDOUT_FILENO, mode: mode, environment: environment)
        errorStylist = Stylist(descriptor: STDERR_FILENO, mode: mode, environment: environment)
        output.keepStyles(stylist.isEnabled)
        errorOutput.keepStyles(errorStylist.isEnabled)
        isQuiet = arguments.flag("quiet")
        currentDirectory = FileManager.default.currentDirectoryPath
    }

    /// The terminal width for standard output (80 when it is not a terminal and `COLUMNS` is unset).
    var width: Int { Terminal.width(of: STDOUT_FILENO, environment: environment) }

    /// Whether standard output is a terminal.
    var isOutputTerminal: Bool { Terminal.isTerminal(STDOUT_FILENO) }

    /// Whether standard input is a terminal (prompts and editors only then).
    var isInputTerminal: Bool { Terminal.isTerminal(STDIN_FILENO) }

    /// The board: `--board`, else `$KANBAN_BOARD`, else found from the current directory upwards.
    func store() throws -> BoardStore {
        if let cachedStore { return cachedStore }
        let store: BoardStore
        do {
            store = try openStore()
        } catch let error as KanbanError {
            guard error.code == .boardNotFound else { throw error }
            throw CommandFailure(message: """
                \(error.message)
                  Create a board with 'kanban init [DIR]', or name one with '--board DIR' or KANBAN_BOARD.
                """)
        }
        cachedStore = store
        // A change a killed command left half done is finished (or undone) before anything else, and said so.
        if let recovered = try? store.recoverInterruptedChange(), !isQuiet {
            let label = errorStylist.apply(.bold + .yellow, to: "warning")
            let what = recovered.wasFinished ? "finished" : "undid"
            var line = "\(label): \(what) a change that a stopped kanban command left half done (\(recovered.summary))"
            if !recovered.editedPaths.isEmpty {
                line += "; left as they are, because they were edited since: \(recovered.editedPaths.joined(separator: ", "))"
            }
            errorOutput.writeLine(line)
        }
        return store
    }

    /// Makes `store` the board every later ``store()`` returns: for `kanban mcp`, which may find its board only in
    /// the directories its client names.
    func use(_ store: BoardStore) {
        cachedStore = store
        cachedSession = nil
    }

    /// The board's session: the store, git as its sync provider, and the commit policy of `--commit`,
    /// `KANBAN_COMMIT` and `autocommit:`. Every change a command makes goes through it.
    func session() throws -> BoardSession {
        try sessionAndGit().session
    }

    /// The git sync provider for the board (the session's).
    func syncProvider() throws -> GitSyncProvider {
        try sessionAndGit().git
    }

    private func sessionAndGit() throws -> (session: BoardSession, git: GitSyncProvider) {
        if let cachedSession { return cachedSession }
        let store = try store()
        let git = GitSyncProvider(store: store, configuration: try gitConfiguration())
        let made = (session: BoardSession(store: store, sync: git, commitPolicy: commitPolicy), git: git)
        cachedSession = made
        return made
    }

    /// Whether the board was named (`--board` or `$KANBAN_BOARD`) rather than looked for from the current directory.
    var isBoardNamed: Bool {
        arguments.value("board") != nil || !(environment["KANBAN_BOARD"] ?? "").isEmpty
    }

    private func openStore() throws -> BoardStore {
        let timeout = try seconds(fromVariable: "KANBAN_LOCK_TIMEOUT") ?? .seconds(20)
        if let directory = arguments.value("board") {
            let store = try BoardStore(directory: absolute(directory), lockTimeout: timeout, index: indexPlacement)
            boardLocation = BoardLocation(directory: store.directory, reason: .option)
            return store
        }
        if let directory = environment["KANBAN_BOARD"], !directory.isEmpty {
            do {
                let store = try BoardStore(directory: absolute(directory), lockTimeout: timeout, index: indexPlacement)
                boardLocation = BoardLocation(directory: store.directory, reason: .environment)
                return store
            } catch {
                guard error.code == .boardNotFound else { throw error }
                var named = error
                named.message = "KANBAN_BOARD names no board: \(error.message) (fix or unset it, or give '--board DIR')"
                throw named
            }
        }
        let location = try BoardLocation.find(from: currentDirectory)
        boardLocation = location
        return try BoardStore(directory: location.directory, lockTimeout: timeout, index: indexPlacement)
    }

    /// Where the board's index is kept: the git directory when the board is in a repository, else
    /// `$XDG_CACHE_HOME/kanban` (`~/.cache/kanban`); none when `KANBAN_INDEX` is `off`.
    var indexPlacement: IndexPlacement {
        if isTurnedOff("KANBAN_INDEX") { return .none }
        var placement = IndexPlacement.automatic(cacheDirectory: nil)
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            placement = .automatic(cacheDirectory: cache)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            placement = .automatic(cacheDirectory: home + "/.cache")
        }
        // A command prints while the index is written; KanbanTool.main waits for it before it returns.
        placement.writesInBackground = true
        // For tests only: a shorter window than the two seconds a file must be old for its entry to be trusted, so
        // that a test need not sleep them out (on a file system whose times are coarse, an edit could be missed).
        if let text = environment["KANBAN_TEST_RACY_MILLISECONDS"], let milliseconds = Int64(text), (1...2_000).contains(milliseconds) {
            placement.racyInterval = milliseconds * 1_000_000
        }
        return placement
    }

    /// Whether the environment variable `name` turns something off: `off`, `0`, `no` or `false`, in any case.
    func isTurnedOff(_ name: String) -> Bool {
        environment[name].map { ["off", "0", "no", "false"].contains($0.lowercased()) } ?? false
    }

    /// The duration an environment variable gives in seconds (`30`, `2.5`), or nil when it is unset or empty.
    /// - Throws: ``CommandFailure`` naming the variable when its value is not a number of seconds between 0 and a day.
    func seconds(fromVariable name: String) throws -> Duration? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw CommandFailure(message: "\(name) must be a number of seconds between 0 and 86400, such as '30' (it is '\(text)'); fix or unset it")
        }
        return .milliseconds(Int64((seconds * 1_000).rounded()))
    }

    /// `path` made absolute against the current directory.
    func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path == "." { return currentDirectory }
        return currentDirectory + "/" + path
    }

    /// A card reference as the store understands it: paths that exist relative to the current directory
    /// become absolute; slugs and board-relative paths pass through.
    func cardReference(_ reference: String) -> String {
        guard reference.contains("/") || reference.hasSuffix(".md"), !reference.hasPrefix("/") else { return reference }
        let candidate = absolute(reference)
        return FileManager.default.fileExists(atPath: candidate) ? candidate : reference
    }

    /// A board-relative path shown relative to the current directory (as git does), or absolute when
    /// the board is not below it.
    func displayPath(_ boardRelative: String, store: BoardStore) -> String {
        let full = store.directory + "/" + boardRelative
        let here = FileSystemPaths.resolved(currentDirectory)
        if full.hasPrefix(here + "/") { return String(full.dropFirst(here.count + 1)) }
        return full
    }

    // MARK: Printing

    /// A result line on standard output.
    func print(_ line: String = "") {
        output.writeLine(line)
    }

    /// The one line a mutating command prints about what it did; silenced by `--quiet`.
    func say(_ line: String) {
        guard !isQuiet else { return }
        output.writeLine(line)
    }

    /// Diagnostics on standard error, one line each, `path:line:column: severity: message`.
    func warn(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            let label = diagnostic.severity == .error ? errorStylist.apply(.bold + .red, to: "error")
                : errorStylist.apply(.bold + .yellow, to: "warning")
            errorOutput.writeLine("\(diagnostic.location): \(label): \(diagnostic.message)")
        }
    }

    /// The warning of a change that put a column over its WIP limit (nothing when it did not).
    func warn(_ excess: WIPLimitExcess?) {
        guard let excess else { return }
        errorOutput.writeLine("\(errorStylist.apply(.bold + .yellow, to: "warning")): \(excess.message)")
    }

    /// An error from the library, with its candidates.
    func report(_ error: KanbanError) {
        let label = errorStylist.apply(.bold + .red, to: "error")
        if let location = error.location {
            errorOutput.writeLine("\(location): \(label): \(error.message)")
        } else {
            errorOutput.writeLine("\(label): \(error.message)")
        }
        switch error.code {
        case .ambiguousCard:
            errorOutput.writeLine("  It could be: \(error.candidates.joined(separator: ", "))")
        case .cardNotFound where !error.candidates.isEmpty:
            errorOutput.writeLine("  Did you mean: \(error.candidates.joined(separator: ", "))?")
        case .columnNotFound, .labelNotFound:
            if !error.candidates.isEmpty {
                errorOutput.writeLine("  The board has: \(error.candidates.joined(separator: ", "))")
            }
        default:
            break
        }
    }

    /// A failure in the command's own words.
    func reportFailure(_ message: String) {
        errorOutput.writeLine("\(errorStylist.apply(.bold + .red, to: "error")): \(message)")
    }

    /// Prints JSON on standard output.
    func printJSON(_ value: JSON) {
        output.writeLine(value.rendered(pretty: true))
    }

    /// `cards` as the `--json` of a command that changes cards prints them: an array, one card a name given, each as
    /// `show --json` prints it (with its body, read now, unless `withBodies` is false: a deleted card's file is gone).
    func printCardsJSON(_ cards: [Card], withBodies: Bool = true) throws {
        let store = try store()
        printJSON(.array(try cards.map { card in
            guard withBodies else { return JSON(card: card) }
            return JSON(card: card, includeBody: true, body: try card.body ?? store.body(of: card))
        }))
    }
}

enum FileSystemPaths {
    /// The path with links resolved, or as given when it does not exist.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
