import Foundation
import KanbanCore
import KanbanServer
import KanbanWatch

/// `kanban mcp`: the board as a Model Context Protocol server on standard input and output.
enum MCPCommand: KanbanCommand {
    /// The longest message accepted; a longer line is dropped as it is read and answered with an error.
    static let lineLimit = 4 * 1024 * 1024

    static let spec = CommandSpec(
        name: "mcp",
        abstract: "Serve the board to coding agents over the Model Context Protocol (stdio).",
        discussion: """
            An MCP server on standard input and output, for clients without a shell (desktop chat apps, IDE \
            assistants): JSON-RPC 2.0, one message per line; nothing but protocol on standard output, diagnostics on \
            standard error. It speaks the handshake revisions (2024-11-05 to 2025-11-25) and the stateless 2026-07-28 \
            revision. It stops with exit status 0 when standard input closes or on SIGTERM or SIGINT.

            Tools: board, list_cards, search_cards, show_card, add_card, update_card, move_card, archive_card, \
            unarchive_card, delete_card, ready_cards, claim_card, release_card, board_status, sync. --tools lists \
            fewer, to spare the agent's context: 'core' (ready_cards, claim_card, show_card, move_card, release_card, \
            sync), or tool names separated by commas. Resources: kanban://board and kanban://card/{slug}, with \
            subscriptions fed by the watcher.

            The board is --board, else $KANBAN_BOARD, else found from the current directory upwards, else the first \
            of the client's roots that is in a board. Changes are made and committed as the commands make them \
            (--commit, KANBAN_COMMIT=1 or 'autocommit: true' in board.md).

            Given directories, it serves every board they hold (each a board, or a directory searched as 'kanban \
            boards' searches it), named as 'kanban boards' names them (a board given itself, by its directory's name). \
            With several boards every tool takes a required 'board' argument (the names are an enum in the schemas; a \
            wrong one is an error that lists them), the boards tool lists them, and the resources are per board: \
            kanban://boards/{board}/board and kanban://boards/{board}/card/{slug}. Given one board, or a directory \
            holding one, it serves it as without arguments. See docs/boards.md.

            'kanban agents --mcp' prints how to register it in common clients.

            Examples:
              kanban mcp --board ~/src/app/board
              claude mcp add kanban -- kanban mcp --board "$PWD"
              kanban mcp ~/src/app/board ~/src/site/board      # two boards: every tool takes 'board'
            """,
        usage: "kanban mcp [<directory>...] [--board <directory>] [--commit] [--tools all|core|<tool>,...]",
        arguments: [.repeating("directory", help: "A board, or a directory of boards (as 'kanban boards' finds them); several may be given (default: the board, found as every command finds it).", isOptional: true)],
        options: [
            .option("tools", valueName: "set", help: "The tools to offer: all (the default), core (the agent loop), or names separated by commas."),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "Standard input closed, or stopped by SIGTERM or SIGINT."),
            ExitStatusHelp(.usage, "Usage error: unknown option or bad value."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // Before any thread starts, so that every thread inherits the mask: SIGINT and SIGTERM reach sigwait below,
        // and a client that goes away makes a write fail instead of killing the process with SIGPIPE.
        let signals = ShutdownSignals.blockInThisThread()
        let shutdown = ShutdownReason()
        let errorOutput = context.errorOutput
        let log: @Sendable (String) -> Void = { line in
            errorOutput.writeLine("kanban mcp: " + line)
            errorOutput.flush()
        }
        let writer = MCPLineWriter(descriptor: STDOUT_FILENO) { shutdown.request(.outputClosed) }
        let found = try context.namedBoards(arguments.arguments("directory"))
        let opened = try found.map { try context.openBoard(at: $0.directory).store }
        if let first = opened.first { context.use(first) }
        let board = try makeBoard(context)
        // With several boards, each is opened with the same settings and named as 'kanban boards' names it.
        let named = found.count > 1 ? zip(found, opened).enumerated().map { index, pair in
            MCPNamedBoard(name: pair.0.name, board: index == 0 ? board : MCPBoard(settings: board.settings, store: pair.1))
        } : []
        let watchers = WatcherBox()
        let server = MCPServer(board: named.first?.board ?? board, named: named, send: writer.send, log: log) { store in
            watchers.start(for: store, log: log)
        }
        watchers.server = server

        // The agent's reading tools (and the commands run beside it) look only at what changed while this runs.
        let monitors = (named.isEmpty ? [board.store].compactMap { $0 } : opened).compactMap { IndexMonitoring.start($0, context) }
        defer { monitors.forEach { $0.stop() } }
        if !named.isEmpty {
            if !context.isQuiet { log("serving \(named.count) boards: " + named.map { "\($0.name) (\($0.board.store?.directory ?? ""))" }.joined(separator: ", ")) }
        } else if let store = board.store {
            if !context.isQuiet { log("serving the board at \(store.directory)") }
        } else {
            log("no board found here; tools say how to point kanban mcp at one, and the client's roots are used when it offers them")
        }
        let reading = Thread {
            var reader = LineReader(descriptor: STDIN_FILENO, limit: lineLimit)
            while true {
                switch reader.next() {
                case .line(let bytes): server.receive(bytes)
                case .tooLong(let length): server.receiveTooLong(length, limit: lineLimit)
                case .end:
                    shutdown.request(.outputClosed)
                    return
                }
            }
        }
        reading.stackSize = 8 << 20
        reading.start()

        _ = signals.wait(for: shutdown)
        // Open streams are answered and the watcher stopped on a thread of their own, for a little while at most: a
        // client that no longer reads standard output must not keep the process alive with a blocked write.
        let finished = DispatchSemaphore(value: 0)
        Thread {
            server.closeSubscriptions()
            watchers.stop()
            finished.signal()
        }.start()
        _ = finished.wait(timeout: .now() + .seconds(2))
        return .success
    }
}

extension MCPCommand {
    /// The board as every command finds it, or why there is none (the client's roots may name one), with the
    /// settings of this command line for a board found later.
    static func makeBoard(_ context: CommandContext) throws -> MCPBoard {
        var settings = MCPBoard.Settings(git: try context.gitConfiguration())
        settings.isBoardNamed = context.isBoardNamed || !context.arguments.arguments("directory").isEmpty
        settings.lockTimeout = try context.seconds(fromVariable: "KANBAN_LOCK_TIMEOUT") ?? .seconds(20)
        settings.index = context.indexPlacement
        settings.commitPolicy = context.commitPolicy
        if let tools = context.arguments.value("tools") {
            do throws(MCPToolError) {
                settings.tools = try MCPToolSelection(parsing: tools)
            } catch {
                throw context.arguments.usageError("--tools: " + error.message)
            }
        }
        do {
            return MCPBoard(settings: settings, store: try context.store())
        } catch let error as CommandFailure {
            return MCPBoard(settings: settings, store: nil, problem: String(error.message.split(separator: "\n").first ?? ""))
        } catch let error as KanbanError {
            return MCPBoard(settings: settings, store: nil, problem: error.message)
        }
    }
}

/// The watchers that feed subscriptions: started once for each board, when a client first wants to hear of changes.
private final class WatcherBox: @unchecked Sendable {
    weak var server: MCPServer?
    private let lock = NSLock()
    private var watchers: [String: any BoardWatcher] = [:]

    func start(for store: BoardStore, log: @escaping @Sendable (String) -> Void) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard watchers[store.directory] == nil else { return nil }
        let made = BoardWatchers.make(
            for: store, mechanism: .automatic, options: WatchOptions(),
            onNotice: { notice in log(notice.path.map { "\($0): \(notice.message)" } ?? notice.message) },
            onEvent: { [weak self] event in
                self?.server?.publish(event, onBoardAt: store.directory)
                if event.kind == .rootLost { log("the board directory '\(store.directory)' was removed or moved") }
            })
        do {
            try made.start()
        } catch {
            return "cannot watch the board at \(store.directory) for changes: \(error.message)"
        }
        watchers[store.directory] = made
        return nil
    }

    func stop() {
        let current = lock.withLock { Array(watchers.values) }
        current.forEach { $0.stop() }
    }
}
