import Dispatch
import Foundation
import KanbanCore
import KanbanServer
import KanbanSubprocess
import KanbanWatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `kanban watch [--json] [--poll [SECONDS]] [--settle MS] [--exec COMMAND] [--initial]`: a foreground daemon
/// that prints one line per change to the board's cards until SIGINT or SIGTERM.
enum WatchCommand: KanbanCommand {
    static let defaultPollSeconds = 1.0
    static let defaultSettleMilliseconds = 50
    /// How long one `--exec` command may run before it is stopped, unless `--exec-timeout` says otherwise.
    static let defaultExecTimeout = 30.0

    static let spec = CommandSpec(
        name: "watch",
        abstract: "Print each change to the board's cards as it happens, until interrupted.",
        discussion: """
            Runs in the foreground until SIGINT or SIGTERM, then exits 0. Edits from any editor, 'mv', and \
            'git checkout' or 'pull' are reported once they settle, card by card: created, modified (with what \
            changed), moved, renamed, deleted, archived, unarchived, invalid (a card that no longer parses), \
            board (board.md changed), column-added, column-removed, and root-lost (the board directory went \
            away; the watcher then exits 1).

            A text line gives the time, the event, the slug and what happened, two spaces apart:
              12:00:01 moved  fix-login-bug  To Do → Done
              12:00:07 modified  fix-login-bug  title, labels

            With --json each event is one JSON object on one line, flushed at once: {"event", "slug", "title", \
            "column", "from", "to", "path", "previousPath", "changes", "message", "line", "time"}, leaving out what \
            does not apply. "from" and "to" are columns for moved, archived and unarchived, and slugs for renamed \
            (the same slug when an archived card's file changes its date: "previousPath" and "path" tell them \
            apart); "time" is UTC with milliseconds.

            Changes are seen through inotify on Linux; when inotify is out of watches or instances the watcher \
            says so on standard error and carries on by polling. --poll polls from the start, every SECONDS \
            (default 1), comparing each file's inode, size and times.

            --exec runs COMMAND with /bin/sh -c for each event, one at a time in event order, with the event's \
            JSON on standard input and KANBAN_EVENT, KANBAN_SLUG, KANBAN_PATH (absolute) and KANBAN_BOARD in its \
            environment; its output goes to standard error, so that standard output holds only events. A command \
            that fails, or runs longer than 30 s and is stopped with everything it started, is reported on \
            standard error; the watcher carries on. On start, a line on standard error says the watcher is ready \
            (--quiet leaves it out).

            While it runs with inotify, the watcher also answers the other commands on this board that read every \
            card (list, search, board) what changed since they last asked, over a socket beside the \
            board's index, in the manner of git's fsmonitor: they then look only at the files that changed instead \
            of every card file. KANBAN_MONITOR=off leaves this out; 'kanban serve', 'tui' and 'mcp' do the same.

            With --commit (or KANBAN_COMMIT=1, or 'autocommit: true' in board.md) the changes are committed once \
            the board has been quiet for 2 s: one commit per burst, with a message listing the card changes. \
            --sync SECONDS also pulls and pushes every SECONDS while nothing is waiting to be committed; what a \
            pull brings in is reported as events but never committed again.

            Examples:
              kanban watch
              kanban watch --json | jq -r 'select(.event == "moved") | .slug'
              kanban watch --exec 'notify-send "kanban: $KANBAN_EVENT $KANBAN_SLUG"'
              kanban watch --commit --sync 60
            """,
        usage: "kanban watch [--json] [--poll [<seconds>]] [--settle <ms>] [--exec <command>] [--initial] [--commit [--sync <seconds>]]",
        arguments: [.optional("seconds", help: "With --poll: seconds between polling passes (default 1).")],
        options: [
            .flag("json", help: "Print one JSON object per event, one per line."),
            .flag("poll", help: "Poll the files instead of using inotify, every <seconds> (default 1)."),
            .option("settle", valueName: "ms", help: "Quiet time before changed files are read (default 50)."),
            .option("exec", valueName: "command", help: "Run a shell command for each event, with the event's JSON on standard input."),
            .flag("initial", help: "First report every card on the board as created."),
            .option("exec-timeout", valueName: "seconds", help: "Stop an --exec command after this long (default 30).", isHidden: true),
            .option("sync", valueName: "seconds", help: "With --commit: pull and push every <seconds> while nothing is waiting to be committed."),
            .option("commit-after", valueName: "seconds", help: "With --commit: how long the board must be quiet before a commit (default 2).", isHidden: true),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "Stopped by SIGINT or SIGTERM."),
            ExitStatusHelp(.failure, "The board could not be watched, or its directory went away."),
            ExitStatusHelp(.usage, "Usage error: unknown option, bad value, or <seconds> without --poll."),
        ])

    /// `1`, `0.5`, `2.25`: seconds as a person writes them.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The committer for `--commit` (or KANBAN_COMMIT=1, or `autocommit: true`), with `--sync`; nil when not asked.
    static func makeCommitter(_ arguments: ParsedArguments, _ context: CommandContext) throws -> WatchCommitter? {
        func seconds(_ name: String) throws -> Double? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Double(text), value.isFinite, value >= 0.05, value <= 86_400 else {
                throw arguments.usageError("invalid value '\(text)' for option '--\(name)'; give seconds")
            }
            return value
        }
        let sync = try seconds("sync")
        let quiet = try seconds("commit-after") ?? 2
        guard try context.session().commitRequest() != nil else {
            if sync != nil { throw arguments.usageError("'--sync' goes with '--commit'") }
            return nil
        }
        let output = context.output
        let errorOutput = context.errorOutput
        let isJSON = arguments.flag("json")
        let isQuiet = context.isQuiet
        return WatchCommitter(
            provider: try context.syncProvider(), quietPeriod: .milliseconds(Int(quiet * 1000)),
            syncInterval: sync.map { .milliseconds(Int($0 * 1000)) },
            report: { line, isError in
                if isError {
                    errorOutput.writeLine("warning: " + line)
                } else if !isQuiet {
                    // With --json, standard output carries only events.
                    (isJSON ? errorOutput : output).writeLine(line)
                    output.flush()
                }
            })
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // Before any thread exists, so every thread inherits it: the signals that end the watcher are taken by
        // sigwait below rather than delivered; SIGPIPE is blocked so a closed pipe is an error to handle, not
        // death mid-line. Commands run by --exec start with a clean mask and default signal handling.
        let signals = ShutdownSignals.blockInThisThread()

        let poll = arguments.flag("poll")
        var pollSeconds = defaultPollSeconds
        if let text = arguments.argument("seconds") {
            guard poll else { throw arguments.usageError("unexpected argument '\(text)'; an interval is given after --poll") }
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0.01, seconds <= 3600 else {
                throw arguments.usageError("invalid value '\(text)' for '--poll <seconds>'; give seconds from 0.01 to 3600")
            }
            pollSeconds = seconds
        }
        var settle = defaultSettleMilliseconds
        if let text = arguments.value("settle") {
            guard let value = Int(text), value >= 0, value <= 10_000 else {
                throw arguments.usageError("invalid value '\(text)' for option '--settle'; give milliseconds from 0 to 10000")
            }
            settle = value
        }
        let command = arguments.value("exec")
        if let command, command.trimmingCharacters(in: .whitespaces).isEmpty {
            throw arguments.usageError("'--exec' needs a command")
        }
        var execTimeout = defaultExecTimeout
        if let text = arguments.value("exec-timeout") {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw arguments.usageError("invalid value '\(text)' for option '--exec-timeout'; give seconds")
            }
            execTimeout = seconds
        }

        let store = try context.store()
        let committer = try makeCommitter(arguments, context)
        let printer = EventPrinter(store: store, board: try? store.loadBoard(), output: context.output,
                                   stylist: context.stylist, isJSON: arguments.flag("json"))
        let errorOutput = context.errorOutput
        let errorStylist = context.errorStylist
        let hooks = command.map {
            HookRunner(command: $0, board: store.directory, environment: context.environment, timeout: execTimeout,
                       errorOutput: errorOutput, stylist: errorStylist)
        }
        let shutdown = ShutdownReason()

        let options = WatchOptions(settle: .milliseconds(settle), pollInterval: .milliseconds(Int64((pollSeconds * 1000).rounded())),
                                   reportsInitialState: arguments.flag("initial"))
        let watcher = BoardWatchers.make(
            for: store, mechanism: poll ? .polling : .automatic, options: options,
            onNotice: { notice in
                let label = errorStylist.apply(.bold + .yellow, to: "warning")
                errorOutput.writeLine(notice.path.map { "\($0): \(label): \(notice.message)" } ?? "\(label): \(notice.message)")
            },
            onEvent: { event in
                printer.print(event)
                hooks?.run(event, json: printer.json(event))
                if event.kind != .rootLost { committer?.noteEvent() }
                if event.kind == .rootLost {
                    shutdown.request(.rootLost)
                } else if printer.isOutputClosed {
                    shutdown.request(.outputClosed)
                }
            })
        try watcher.start()
        let monitor = poll ? nil : IndexMonitoring.start(store, context)
        committer?.start()
        if !context.isQuiet {
            // On standard error, so scripts reading events see only events; also tells a person (and tests)
            // that from here on every change is reported.
            let how = poll || !Platform.hasInotify
                ? "by polling every \(Self.seconds(pollSeconds)) s" : "with inotify (falling back to polling)"
            errorOutput.writeLine("watching \(store.directory) \(how); stop with Ctrl-C")
        }

        let reason = signals.wait(for: shutdown)
        monitor?.stop()
        watcher.stop()
        hooks?.finish()
        committer?.finish()
        switch reason {
        case .signal, .outputClosed:
            return .success
        case .rootLost:
            throw CommandFailure(message: "the board directory '\(store.directory)' was removed or moved; stopped watching")
        }
    }
}

/// Why the watcher is stopping.
enum ShutdownCause: Sendable {
    case signal
    case rootLost
    case outputClosed
}

/// A stop asked for from the watcher's thread, delivered to the main thread as SIGUSR1.
final class ShutdownReason: Sendable {
    private let cause = Mutex<ShutdownCause?>(nil)

    func request(_ reason: ShutdownCause) {
        let isFirst = cause.withLock { cause -> Bool in
            guard cause == nil else { return false }
            cause = reason
            return true
        }
        if isFirst { kill(getpid(), SIGUSR1) }
    }

    var requested: ShutdownCause? { cause.withLock { $0 } }
}

/// SIGINT, SIGTERM and SIGUSR1 (the watcher's own wake-up), blocked and then waited for with `sigwait`.
struct ShutdownSignals {
    private var set = sigset_t()

    static func blockInThisThread() -> ShutdownSignals {
        var signals = ShutdownSignals()
        sigemptyset(&signals.set)
        sigaddset(&signals.set, SIGINT)
        sigaddset(&signals.set, SIGTERM)
        sigaddset(&signals.set, SIGUSR1)
        var blocked = signals.set
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        return signals
    }

    /// Blocks until SIGINT or SIGTERM arrives, or the watcher asks to stop.
    func wait(for shutdown: ShutdownReason) -> ShutdownCause {
        var set = self.set
        while true {
            var received: Int32 = 0
            guard sigwait(&set, &received) == 0 else { continue }
            if received == SIGUSR1 {
                // Our own request, or a stray SIGUSR1 from outside (then keep watching).
                if let cause = shutdown.requested { return cause }
                continue
            }
            return .signal
        }
    }
}

/// Prints events as text lines or JSON lines, flushing each at once so a pipe sees it immediately.
final class EventPrinter: Sendable {
    private let store: BoardStore
    private let board: Mutex<Board?>
    private let output: BufferedOutput
    private let stylist: Stylist
    private let isJSON: Bool

    init(store: BoardStore, board: Board?, output: BufferedOutput, stylist: Stylist, isJSON: Bool) {
        self.store = store
        self.board = Mutex(board)
        self.output = output
        self.stylist = stylist
        self.isJSON = isJSON
    }

    /// Whether standard output went away (a closed pipe).
    var isOutputClosed: Bool { output.failure != nil }

    func print(_ event: WatchEvent) {
        if event.kind == .board, let updated = try? store.loadBoard() {
            board.withLock { $0 = updated }
        }
        output.writeLine(isJSON ? json(event).rendered(pretty: false) : text(event))
        output.flush()
    }

    /// The event as documented: `{"event", "slug", "title", "column", "from", "to", "path", "previousPath", "changes",
    /// "message", "line", "time"}`, leaving out what does not apply.
    func json(_ event: WatchEvent) -> JSON {
        WatchEventJSON.json(event)
    }

    /// `12:00:01 moved  fix-login-bug  To Do → Done`.
    func text(_ event: WatchEvent) -> String {
        func fileName(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }
        let board = self.board.withLock { $0 }
        func name(_ column: String?) -> String {
            guard let column else { return "?" }
            return board?.column(withID: column)?.name ?? column
        }
        let slug = stylist.apply(.cyan, to: event.slug ?? "")
        let detail: String
        switch event.kind {
        case .created:
            detail = "\(slug)  \(name(event.column))  \(event.title ?? "")"
        case .modified:
            detail = "\(slug)  \(event.changes.names.joined(separator: ", "))"
        case .moved:
            detail = "\(slug)  \(name(event.from)) → \(name(event.to))"
        case .renamed:
            let place = event.path?.hasPrefix("archive/") == true ? "archive" : name(event.column)
            if event.from == event.slug, let previous = event.previousPath, let path = event.path {
                // Same slug, another file name (an archived card's date): name the files.
                detail = "\(slug)  \(fileName(previous)) → \(fileName(path))  \(place)"
            } else {
                detail = "\(stylist.apply(.cyan, to: event.from ?? "")) → \(slug)  \(place)"
            }
        case .deleted:
            detail = "\(slug)  \(name(event.column))  \(event.title ?? "")"
        case .archived:
            detail = "\(slug)  \(name(event.from)) → archive"
        case .unarchived:
            detail = "\(slug)  archive → \(name(event.to))"
        case .invalid:
            let location = event.location.map(String.init(describing:)) ?? event.path ?? ""
            detail = "\(location): \(event.message ?? "")"
        case .board:
            detail = "board.md  \(event.changes.names.joined(separator: ", "))"
        case .columnAdded, .columnRemoved:
            detail = event.column ?? ""
        case .rootLost:
            detail = "\(event.path ?? "")  \(event.message ?? "")"
        }
        var line = "\(stylist.apply(.dim, to: Self.localTime(event.time))) "
            + "\(stylist.apply(Self.style(of: event.kind), to: event.kind.rawValue))  \(detail)"
        // A move that also changed the card says so; `column:`, `position:` and the timestamps are what any
        // tool's move rewrites, so only the rest is worth a person's attention (--json has them all).
        let alsoChanged = event.changes.subtracting([.columnField, .position, .timestamps])
        if [.moved, .renamed, .archived, .unarchived].contains(event.kind), !alsoChanged.isEmpty {
            line += "  " + stylist.apply(.dim, to: "also " + alsoChanged.names.joined(separator: ", "))
        }
        return line.trimmingTrailingSpaces()
    }

    private static func style(of kind: WatchEvent.Kind) -> TextStyle {
        switch kind {
        case .created, .unarchived, .columnAdded: return .green
        case .modified, .board: return .yellow
        case .moved, .renamed, .archived: return .blue
        case .deleted, .columnRemoved: return .red
        case .invalid, .rootLost: return .bold + .red
        }
    }

    static func localTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.hasSuffix(" ") { result.removeLast() }
        return result
    }
}

/// Runs `--exec` for each event, one at a time in event order, off the watcher's thread, each with a time limit.
final class HookRunner: Sendable {
    private let command: String
    private let board: String
    private let environment: [String: String]
    private let timeout: Double
    private let errorOutput: BufferedOutput
    private let stylist: Stylist
    private let queue = DispatchQueue(label: "kanban.watch.exec")
    /// Set when the watcher stops: queued commands are skipped, and a running one is stopped after a grace time.
    private let stopsAt = Mutex<ContinuousClock.Instant?>(nil)

    init(command: String, board: String, environment: [String: String], timeout: Double, errorOutput: BufferedOutput, stylist: Stylist) {
        self.command = command
        self.board = board
        self.environment = environment
        self.timeout = timeout
        self.errorOutput = errorOutput
        self.stylist = stylist
    }

    func run(_ event: WatchEvent, json: JSON) {
        let input = Array((json.rendered(pretty: false) + "\n").utf8)
        queue.async { [self] in
            guard stopsAt.withLock({ $0 }) == nil else { return }
            execute(event, input: input)
        }
    }

    private func execute(_ event: WatchEvent, input: [UInt8]) {
        var variables = environment
        variables["KANBAN_EVENT"] = event.kind.rawValue
        variables["KANBAN_SLUG"] = event.slug ?? ""
        variables["KANBAN_PATH"] = event.path.map { $0.hasPrefix("/") ? $0 : board + "/" + $0 } ?? board
        variables["KANBAN_BOARD"] = board
        let outcome = ShellCommand.run(command, environment: variables, input: input, timeout: .milliseconds(Int64(timeout * 1000))) {
            stopsAt.withLock { $0 }.map { ContinuousClock.now >= $0 } ?? false
        }
        let what = "'\(event.kind.rawValue)\(event.slug.map { " " + $0 } ?? "")'"
        switch outcome {
        case .exited(0), .cancelled:
            break
        case .exited(let status):
            warn("--exec command exited with status \(status) for \(what)")
        case .signaled(let signal):
            warn("--exec command was killed by signal \(signal) for \(what)")
        case .timedOut:
            warn("--exec command took longer than \(WatchCommand.seconds(timeout)) s for \(what) and was stopped")
        case .failedToStart(let reason):
            warn("--exec command could not be started for \(what): \(reason)")
        }
    }

    /// Skips queued commands and waits for the running one, stopping it after a few seconds.
    func finish() {
        stopsAt.withLock { $0 = .now + .seconds(3) }
        queue.sync {}
    }

    private func warn(_ message: String) {
        errorOutput.writeLine("\(stylist.apply(.bold + .yellow, to: "warning")): \(message)")
    }
}
