import Dispatch
import Foundation
import KanbanCore
import KanbanServer
import KanbanWatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of `kanban tui`: the loop that reads keys, carries out what they ask, follows the watcher, and draws.
///
/// Everything happens on the thread that calls ``run()``; the watcher, the signal thread and searches only post to
/// the ``TUIInbox``. Each turn of the loop draws the frame (only the rows that changed are written), then waits for a
/// key or for mail.
final class TUISession {
    /// How long a lone Escape waits for the rest of a sequence before it counts as the Escape key.
    static let escapeWait: Int32 = 40

    private let context: CommandContext
    private let store: BoardStore
    private let terminal: RawTerminal
    private let inbox: TUIInbox
    private let runner: ChangeRunner
    private let stylist: Stylist
    private let searches = DispatchQueue(label: "kanban.tui.search")
    private var state: TUIState
    private var decoder = KeyDecoder()
    /// What the screen shows; nil when that is not known (the first frame, after an editor or a suspension).
    private var shown: ScreenFrame?

    /// How the session ended.
    private enum Ending {
        case quit
        case failure(String)
        case switchBoard(by: Int)
    }

    /// How a run ended: the exit status, or another board to show (`kanban tui DIR...`).
    enum Outcome: Equatable {
        case finished(ExitCode)
        case switchBoard(by: Int)
    }

    private init(context: CommandContext, store: BoardStore, terminal: RawTerminal, inbox: TUIInbox, board: LiveBoard) {
        self.context = context
        self.store = store
        self.terminal = terminal
        self.inbox = inbox
        runner = ChangeRunner(context: context, store: store)
        stylist = context.stylist
        state = TUIState(board: board)
    }

    /// Takes the terminal over, loads the board, and runs until the person quits, a signal ends it, or the board goes
    /// away; the terminal is given back on every way out, errors included.
    ///
    /// The watcher starts on a thread of its own (indexing a large board takes a while), so the board is shown and
    /// keys work at once; once the watcher is ready the board is loaded again, which catches what changed meanwhile.
    /// - Throws: ``CommandFailure`` when the board directory goes away; what loading the board throws.
    /// - Parameter boards: The names of the boards shown one at a time, and which this is (`kanban tui DIR...`).
    static func run(context: CommandContext, store: BoardStore, terminal: RawTerminal, inbox: TUIInbox,
                    boards: (names: [String], index: Int) = ([], 0)) throws -> Outcome {
        inbox.discardBoardMail()
        terminal.enter()
        defer { terminal.leave() }
        terminal.write("\u{1B}[1;1Hkanban tui: reading the board…")
        let session = TUISession(context: context, store: store, terminal: terminal, inbox: inbox,
                                 board: LiveBoard(snapshot: try store.load()))
        session.state.boardNames = boards.names
        session.state.boardIndex = boards.index
        let watcher = BoardWatchers.make(
            for: store, mechanism: .automatic, options: WatchOptions(),
            onNotice: { notice in inbox.post { $0.notices.append(notice) } },
            onEvent: { event in inbox.post { $0.events.append(event) } })
        let starting = DispatchGroup()
        DispatchQueue.global().async(group: starting) {
            do {
                try watcher.start()
                inbox.post { $0.isWatcherReady = true }
            } catch {
                let message = ChangeRunner.describe(error)
                inbox.post { $0.watcherFailure = message }
            }
        }
        defer {
            // A watcher still starting is stopped once it has started.
            starting.wait()
            watcher.stop()
        }
        return try session.loop()
    }

    private func loop() throws -> Outcome {
        if !state.board.problems.isEmpty, let first = state.board.problems.values.sorted().first {
            state.say(first, isError: true)
        }
        while true {
            draw()
            if let failure = terminal.writeFailure {
                throw CommandFailure(message: "cannot write to the terminal: \(String(cString: strerror(failure)))")
            }
            let wait = decoder.isWaitingForMore ? Self.escapeWait : -1
            let ready = try SystemCalls.waitForInput([terminal.input, inbox.wakeDescriptor], milliseconds: wait).get()
            var ending: Ending?
            if ready[0] {
                ending = readKeys()
            } else if decoder.isWaitingForMore {
                ending = handle(decoder.flush())
            }
            if ending == nil, ready[1] {
                ending = handle(inbox.take())
            }
            switch ending {
            case nil:
                continue
            case .quit:
                return .finished(.success)
            case .failure(let message):
                throw CommandFailure(message: message)
            case .switchBoard(let offset):
                return .switchBoard(by: offset)
            }
        }
    }

    // MARK: Drawing

    private func draw() {
        let frame = state.frame(size: terminal.size, stylist: stylist)
        let update = FrameDiff.update(from: shown, to: frame)
        if !update.isEmpty { terminal.write(update) }
        shown = frame
    }

    // MARK: Keys

    private func readKeys() -> Ending? {
        switch SystemCalls.readAvailable(terminal.input) {
        case .success(let bytes) where bytes.isEmpty:
            return .quit  // The terminal is gone.
        case .success(let bytes):
            return handle(decoder.keys(from: bytes))
        case .failure(let failure) where failure.code == EAGAIN || failure.code == EWOULDBLOCK:
            return nil
        case .failure:
            return .quit
        }
    }

    private func handle(_ keys: [Key]) -> Ending? {
        for key in keys {
            guard let request = state.handle(key) else { continue }
            if let ending = carryOut(request) { return ending }
        }
        return nil
    }

    private func carryOut(_ request: TUIRequest) -> Ending? {
        switch request {
        case .quit:
            return .quit
        case .suspend:
            suspend()
        case .redraw:
            shown = nil
        case .change(let edit):
            state.apply(runner.perform(edit, on: state.board))
            refreshFilter()
        case .undo:
            guard let entry = state.undoStack.pop() else { return nil }
            state.apply(runner.undo(entry))
            refreshFilter()
        case .edit(let card):
            edit(card)
        case .search(let text, let generation):
            search(text, generation: generation)
        case .clearSearch:
            inbox.noteSearch(-1)
        case .switchBoard(let offset):
            return .switchBoard(by: offset)
        }
        return nil
    }

    /// Gives the terminal to the editor on the card's file, then takes it back and says what became of the card.
    private func edit(_ card: Card) {
        terminal.leave()
        inbox.setChildHasTerminal(true)
        let outcome = Result { try EditCommand.editAndCheck(path: card.path, store: store, context: context) }
        inbox.setChildHasTerminal(false)
        terminal.enter()
        shown = nil
        switch outcome {
        case .success(.unchanged):
            state.say("\(card.slug) unchanged")
        case .success(.changed(let after, let commit)):
            state.updateBoard { $0.apply(BoardChange(card: after, previous: card, writtenPaths: [after.path])) }
            var message = "edited \(after.slug)"
            if case .committed(let result) = commit { message += " · committed \(result.shortCommit)" }
            if case .notInRepository(let warning) = commit { message += " · warning: \(warning)" }
            state.say(message)
        case .success(.unreadable(let error)):
            state.say(ChangeRunner.describe(error) + "; the file is kept as you wrote it", isError: true)
        case .success(.removed):
            state.say(EditCommand.removedMessage(card.path), isError: true)
        case .failure(let error):
            state.say(ChangeRunner.describe(error), isError: true)
        }
    }

    /// Gives the terminal back and stops, as Ctrl-Z does in a shell; carries on where it was when continued.
    private func suspend() {
        terminal.leave()
        SystemCalls.stopThisProcess()
        // Here once continued (`fg`).
        terminal.enter()
        shown = nil
    }

    // MARK: Filter

    /// Runs the filter's query on the search queue, as `kanban search` runs it; only the newest query asked for runs.
    private func search(_ text: String, generation: Int) {
        let store = self.store
        let inbox = self.inbox
        inbox.noteSearch(generation)
        searches.async {
            guard inbox.isNewestSearch(generation) else { return }
            var answer = TUIInbox.SearchAnswer(generation: generation)
            do {
                let query = try CardQuery(parsing: text)
                answer.matches = Set(try store.search(query, in: .active).hits.map(\.card.path))
            } catch {
                answer.problem = ChangeRunner.describe(error)
            }
            inbox.post { $0.searches.append(answer) }
        }
    }

    /// Asks the filter's query again after the board changed.
    private func refreshFilter() {
        if let request = state.refreshFilter() { _ = carryOut(request) }
    }

    // MARK: Mail

    private func handle(_ mail: TUIInbox.Mail) -> Ending? {
        for signal in mail.signals {
            switch signal {
            case SIGINT, SIGTERM, SIGHUP:
                return .quit
            case SIGTSTP:
                suspend()
            case SIGCONT:
                // Stopped from outside (SIGSTOP): the shell may have changed the terminal meanwhile.
                terminal.enter()
                shown = nil
            default:
                break  // SIGWINCH: the next frame is drawn for the new size.
            }
        }
        if let failure = mail.watcherFailure {
            state.say("not following changes made elsewhere: \(failure)", isError: true)
        }
        for notice in mail.notices {
            state.say(notice.path.map { "\($0): \(notice.message)" } ?? notice.message, isError: notice.code == .unreadable)
        }
        if !mail.events.isEmpty {
            // The whole batch at once: the selection and the filter are worked out again once, not once per event
            // (a `git checkout` brings thousands).
            var outcomes: [LiveBoard.Outcome] = []
            state.updateBoard { board in
                outcomes = mail.events.map { board.apply($0) }
            }
            if outcomes.contains(where: { if case .rootLost = $0 { true } else { false } }) {
                return .failure("the board directory '\(store.directory)' was removed or moved; stopped")
            }
            for event in mail.events where event.kind == .invalid {
                if let path = event.path, let problem = state.board.problems[path] { state.say(problem, isError: true) }
            }
            if outcomes.contains(.needsReload) { reload() }
            refreshFilter()
        }
        if mail.isWatcherReady {
            // What changed between the first load and the watcher being ready.
            reload()
            refreshFilter()
        }
        for answer in mail.searches {
            state.applySearch(generation: answer.generation, matches: answer.matches, problem: answer.problem)
        }
        return nil
    }

    /// Loads the board again from the store, after `board.md` or the column directories changed.
    private func reload() {
        do {
            state.replaceBoard(LiveBoard(snapshot: try store.load()))
        } catch {
            state.say(ChangeRunner.describe(error), isError: true)
        }
    }
}
