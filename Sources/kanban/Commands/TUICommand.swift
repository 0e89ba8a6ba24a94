import KanbanCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `kanban tui`: the board as a live, keyboard-driven full-screen view.
enum TUICommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "tui",
        abstract: "Show the board full-screen, live, and change it from the keyboard.",
        discussion: """
            The columns stand side by side as 'kanban board' draws them; a board wider than the window is shown a \
            band of columns at a time, the band that holds the selected card. The selected card is shown in \
            reverse video; the bottom line gives the board's title, its number of cards and what the last key did. \
            The keys are listed below, and by '?' on the screen.

            Every change is made as the matching command makes it ('kanban move', 'add', 'set', 'archive', \
            'delete'), and committed as they commit with --commit, KANBAN_COMMIT=1 or 'autocommit: true' in \
            board.md: one commit per change. Undo ('u') makes the inverse change, committed the same way.

            Changes made by anyone else while it runs (an editor, 'git pull', another kanban) appear once they \
            settle, as 'kanban watch' sees them, with the selection kept on its card; a file that no longer parses \
            is named in the status line. Standard input and output must be a terminal.

            Given directories (each a board, or a directory of boards as 'kanban boards' finds them), it shows the \
            boards they hold one at a time: b shows the next, B the previous, and the status line names the board \
            shown. Undo ('u') holds the changes made on the board shown; switching boards forgets them.

            Examples:
              kanban tui
              kanban tui --board ~/src/app/board --commit
              kanban tui ~/src/company               # every board there, b and B to switch
            """,
        arguments: [.repeating("directory", help: "A board, or a directory of boards; several may be given (default: the board, found as every command finds it).", isOptional: true)],
        exitStatuses: [
            ExitStatusHelp(.success, "Quit with q or Ctrl-C, or ended by SIGINT, SIGTERM or SIGHUP."),
            ExitStatusHelp(.failure, "No terminal, no board, or the board directory went away."),
            ExitStatusHelp(.usage, "The command line was wrong."),
        ],
        helpSections: [HelpSection(title: "KEYS:", rows: TUIKeys.table.map { HelpSection.Row($0.keys, $0.action) })])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        guard context.isInputTerminal && context.isOutputTerminal else {
            throw CommandFailure(message: "kanban tui needs a terminal: standard input and output must both be one (use 'kanban board' or 'kanban watch' in scripts)")
        }
        // Before any other thread starts, so that every thread inherits the mask and the signals reach sigwait.
        TUISignals.blockInThisThread()
        let named = try context.namedBoards(arguments.arguments("directory"))
        if named.count == 1 { context.use(try context.openBoard(at: named[0].directory).store) }
        // With several boards, each is opened now, so that one that cannot be is said before the screen is taken.
        let stores = named.count > 1 ? try named.map { try context.openBoard(at: $0.directory).store } : [try context.store()]
        let terminal: RawTerminal
        let inbox: TUIInbox
        do {
            terminal = try RawTerminal(input: STDIN_FILENO, output: STDOUT_FILENO)
            inbox = try TUIInbox()
        } catch {
            throw CommandFailure(message: "cannot set up the terminal: \(String(cString: strerror(error.code)))")
        }
        TUISignals.startForwarding(to: inbox)
        var index = 0
        while true {
            let store = stores[index]
            context.use(store)
            // The other commands on this board look only at what changed while the TUI runs (see `kanban watch`).
            let monitor = IndexMonitoring.start(store, context)
            defer { monitor?.stop() }
            let outcome = try TUISession.run(context: context, store: store, terminal: terminal, inbox: inbox,
                                             boards: (named.count > 1 ? named.map(\.name) : [], index))
            switch outcome {
            case .finished(let status):
                return status
            case .switchBoard(let offset):
                index = (index + offset + stores.count) % stores.count
            }
        }
    }
}
