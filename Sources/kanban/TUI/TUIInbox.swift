import Foundation
import KanbanServer
import KanbanWatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the other threads of `kanban tui` leave what the session must see (signals, the watcher's events and
/// notices and its start, search answers), and the pipe that wakes the session's `poll` when something arrives.
///
/// The session owns every piece of state; other threads only post here. Posting is cheap and never blocks: a byte
/// goes into a non-blocking pipe, and a full pipe already means a wake-up is due. The inbox lives as long as the
/// process: the signal thread may post to it until the very end, so its pipe is never closed.
final class TUIInbox: Sendable {
    /// What arrived since the session last looked.
    struct Mail: Sendable {
        var signals: [Int32] = []
        var events: [WatchEvent] = []
        var notices: [WatchNotice] = []
        var searches: [SearchAnswer] = []
        /// The watcher has started: from now on every change is reported.
        var isWatcherReady = false
        /// Why the watcher could not start, if it could not.
        var watcherFailure: String?
    }

    /// The answer to a filter's search.
    struct SearchAnswer: Sendable {
        /// The filter generation asked for.
        var generation: Int
        /// The paths of the matching cards, or nil when the query could not be run.
        var matches: Set<String>?
        /// Why not, when it could not.
        var problem: String?
    }

    private let mail = Mutex(Mail())
    /// The newest search asked for, so that older ones still queued are skipped.
    private let newestSearch = Mutex(0)
    /// Whether a program (the editor) has the terminal: Ctrl-C and Ctrl-Z are then its own.
    private let childHasTerminal = Mutex(false)
    /// The descriptor to poll: readable when mail is waiting.
    let wakeDescriptor: Int32
    private let wakeWriter: Int32

    /// Creates the inbox and its pipe.
    /// - Throws: ``SystemCallFailure`` when no pipe can be made.
    init() throws(SystemCallFailure) {
        let pipe = try SystemCalls.makePipe().get()
        wakeDescriptor = pipe.read
        wakeWriter = pipe.write
    }

    /// Drops what the last board's watcher and searches left, keeping the signals: a session on another board starts.
    func discardBoardMail() {
        mail.withLock { mail in mail = Mail(signals: mail.signals) }
        noteSearch(-1)
    }

    /// Adds to the mail and wakes the session.
    func post(_ add: (inout Mail) -> Void) {
        mail.withLock { add(&$0) }
        SystemCalls.wake(wakeWriter)
    }

    /// Everything posted since the last call, emptying the inbox and its pipe.
    func take() -> Mail {
        while case .success(let bytes) = SystemCalls.readAvailable(wakeDescriptor), !bytes.isEmpty {}
        return mail.withLock { mail in
            defer { mail = Mail() }
            return mail
        }
    }

    /// Notes the newest search asked for.
    func noteSearch(_ generation: Int) {
        newestSearch.withLock { $0 = generation }
    }

    /// Whether `generation` is still the newest search asked for.
    func isNewestSearch(_ generation: Int) -> Bool {
        newestSearch.withLock { $0 == generation }
    }

    /// Says whether a program (the editor) has the terminal now.
    func setChildHasTerminal(_ has: Bool) {
        childHasTerminal.withLock { $0 = has }
    }

    /// Whether a program has the terminal now.
    var isChildHoldingTerminal: Bool { childHasTerminal.withLock { $0 } }
}

/// The signals `kanban tui` answers, taken with `sigwait` on a thread of their own and posted to the inbox, so
/// that nothing happens inside a signal handler.
enum TUISignals {
    /// SIGINT, SIGTERM and SIGHUP end the session; SIGWINCH redraws; SIGTSTP suspends; SIGCONT takes the terminal
    /// over again.
    static let answered: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT]

    /// Blocks the answered signals, and SIGPIPE, in the calling thread, and so in every thread it starts from now on.
    /// Call it before any other thread exists: a thread that does not block them would get them.
    static func blockInThisThread() {
        var blocked = set(of: answered + [SIGPIPE])
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
    }

    /// Starts the thread that waits for the signals and posts them to `inbox`. While a program has the terminal,
    /// SIGINT and SIGTSTP are that program's (the terminal sends them to the whole foreground group) and dropped.
    static func startForwarding(to inbox: TUIInbox) {
        Thread.detachNewThread {
            var signals = set(of: answered)
            while true {
                var received: Int32 = 0
                guard sigwait(&signals, &received) == 0 else { continue }
                if (received == SIGINT || received == SIGTSTP) && inbox.isChildHoldingTerminal { continue }
                inbox.post { $0.signals.append(received) }
            }
        }
    }

    private static func set(of signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}
