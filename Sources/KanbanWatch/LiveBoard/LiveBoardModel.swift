import Dispatch
import KanbanCore
import Observation
import Synchronization

/// A board an app's views bind to: it loads the board, follows every change made elsewhere as the watcher reports
/// it, and makes changes through the store without blocking the caller.
///
/// The model lives on the main actor, as the views that read it do: ``board`` and the other properties change only
/// there, and Observation (`@Observable`, `withObservationTracking`) tells a view when to draw again. The slow
/// parts run elsewhere: the watcher on its own thread, and the store (which reads and writes files and may wait
/// for another process's board lock) on a Dispatch queue, so that neither holds up the main actor or Swift's
/// cooperative threads. The watcher's events reach the main actor in order through one stream.
///
/// ```swift
/// let model = LiveBoardModel(store: try BoardStore(directory: path))
/// try await model.start()
/// for column in model.board.columns { print(column.name, column.cards.map(\.title)) }
/// try await model.moveCard("fix-login", to: "done")
/// ```
///
/// Besides Observation, ``changes()`` gives every change as it is applied, for code that is no view. A model that
/// goes away stops its watcher; ``stop()`` stops it sooner.
@MainActor
@Observable
public final class LiveBoardModel {
    /// How the model learns of changes made elsewhere.
    public enum Watching: Sendable {
        /// inotify on Linux (polling when it runs out of resources), polling elsewhere.
        case automatic
        /// Polling every ``WatchOptions/pollInterval``.
        case polling
        /// An app's own source (FSEvents, `NSFilePresenter`, ...); see ``ChangeSource``.
        case source(any ChangeSource)
    }

    /// One change to the model, as ``changes()`` delivers it, in the order the model applied it.
    public enum Change: Sendable {
        /// The board was loaded afresh: when the model started, and after `board.md` or the column directories
        /// changed.
        case loaded
        /// A change made through this model, now on ``board``.
        case made(BoardChange)
        /// A change the watcher reported, now on ``board``: one made elsewhere, or (shortly after its `.made`) one
        /// made through this model, which applying again changed nothing.
        case observed(WatchEvent)
        /// Something the watcher wants known: falling back to polling, a link not followed, a file it cannot read.
        case notice(WatchNotice)
        /// The model stopped following the board: by ``stop()`` (nil), or because the board directory went away
        /// or could not be watched (why). The stream ends after it.
        case stopped(KanbanError?)
    }

    /// A card ``deleteCard(_:)`` removed, kept so that ``restoreCard(_:)`` can put it back byte for byte.
    public struct DeletedCard: Sendable, Hashable {
        /// The card as last read, when its file could be read.
        public var card: Card?
        /// The file as it was.
        public var bytes: [UInt8]
        /// Its file name without `.md`.
        public var slug: String
        /// The column directory it was in.
        public var column: String
        /// What the deletion did.
        public var change: BoardChange
    }

    /// The board as shown: columns in display order with their cards in board order, and the files that cannot be
    /// read. Empty until ``start()`` has loaded it.
    public private(set) var board = LiveBoard()
    /// Whether the board has been loaded.
    public private(set) var isLoaded = false
    /// Whether changes made elsewhere are being followed: from the end of ``start()`` until ``stop()`` or until the
    /// board directory goes away.
    public private(set) var isFollowing = false
    /// What went wrong last: the board could not be loaded again after `board.md` changed (the board shown is then
    /// the last one loaded), or the model stopped following because the board directory went away. Nil once a
    /// load succeeds.
    public private(set) var problem: KanbanError?

    /// What became of the last change's commit, when the model changes the board through a session.
    public private(set) var lastCommit: CommitOutcome?

    /// The store the model reads and changes the board with.
    public nonisolated let store: BoardStore
    /// The session the model changes the board through (committing as its policy says), if it was given one.
    public nonisolated let session: BoardSession?
    @ObservationIgnored private let watching: Watching
    @ObservationIgnored private let options: WatchOptions
    @ObservationIgnored private let lifetime = WatcherLifetime()
    @ObservationIgnored private var pump: Task<Void, Never>?
    @ObservationIgnored private var subscribers: [Int: AsyncStream<Change>.Continuation] = [:]
    @ObservationIgnored private var nextSubscriber = 0
    @ObservationIgnored private var isStarted = false
    @ObservationIgnored private var isStopped = false

    /// A model of `store`'s board, not yet loaded.
    /// - Parameters:
    ///   - store: The board.
    ///   - watching: How changes made elsewhere are noticed.
    ///   - options: The watcher's timing.
    public init(store: BoardStore, watching: Watching = .automatic, options: WatchOptions = WatchOptions()) {
        self.store = store
        session = nil
        self.watching = watching
        self.options = options
    }

    /// A model of `session`'s board, not yet loaded, that changes the board through the session: each change
    /// committed as its ``CommitPolicy`` says, exactly as `kanban` and `kanban serve` commit it.
    public init(session: BoardSession, watching: Watching = .automatic, options: WatchOptions = WatchOptions()) {
        store = session.store
        self.session = session
        self.watching = watching
        self.options = options
    }

    // MARK: Following the board

    /// Starts the watcher, then loads the board; returns once ``board`` shows it and every change made from now on
    /// will be followed. Reading a large board takes a while; the main actor is free meanwhile.
    ///
    /// A model starts once: a later call returns at once (so a view can call it from `.task` each time it appears),
    /// and a stopped model stays stopped.
    /// - Throws: What starting the watcher or loading the board throws; the model is then stopped.
    public func start() async throws(KanbanError) {
        guard !isStarted, !isStopped else { return }
        isStarted = true
        let (inbox, continuation) = AsyncStream<Inbound>.makeStream()
        let watcher = makeWatcher(inbox: continuation)
        lifetime.hold(watcher)
        do throws(KanbanError) {
            // The watcher first: every change after it started is reported, so the snapshot loaded next misses
            // nothing, and events about changes the snapshot already has only put the same cards in place again.
            try await Self.run { () throws(KanbanError) in try watcher.start() }
            let store = self.store
            let snapshot = try await Self.run { () throws(KanbanError) in try store.load() }
            guard !isStopped else { return }
            board = LiveBoard(snapshot: snapshot)
            isLoaded = true
            isFollowing = true
            problem = nil
            broadcast(.loaded)
        } catch {
            finish(error)
            throw error
        }
        pump = Task { [weak self] in
            for await item in inbox {
                guard let self, !Task.isCancelled else { return }
                await self.receive(item)
            }
        }
    }

    /// Stops following the board: the watcher stops (on another thread), and every stream from ``changes()`` gets
    /// ``Change/stopped(_:)`` and ends. The board stays as it is, and changes can still be made. Safe to call more
    /// than once.
    public func stop() {
        finish(nil)
    }

    /// Every change from now on, as the model applies it, until the model stops. Each call makes a new stream;
    /// a stream that is no longer iterated is dropped.
    public func changes() -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream()
        guard !isStopped else {
            continuation.yield(.stopped(problem))
            continuation.finish()
            return stream
        }
        let key = nextSubscriber
        nextSubscriber += 1
        subscribers[key] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.subscribers[key] = nil }
        }
        return stream
    }

    // MARK: Changing the board

    /// Makes a new card; see ``BoardStore/createCard(title:in:labels:body:placement:)``.
    /// - Returns: The change, whose card is the new card.
    @discardableResult
    public func addCard(title: String, in column: String? = nil, labels: [String] = [], body: String? = nil,
                        placement: Placement = .bottom) async throws(KanbanError) -> BoardChange {
        try await perform { store throws(KanbanError) in
            try store.createCard(title: title, in: column, labels: labels, body: body, placement: placement)
        }
    }

    /// Changes a card's title, labels, body or fields; see ``BoardStore/updateCard(_:_:in:)``.
    @discardableResult
    public func updateCard(_ reference: String, _ update: CardUpdate) async throws(KanbanError) -> BoardChange {
        try await perform { store throws(KanbanError) in try store.updateCard(reference, update) }
    }

    /// Moves a card to another column or place; see ``BoardStore/moveCard(_:to:placement:)``.
    @discardableResult
    public func moveCard(_ reference: String, to column: String? = nil, placement: Placement? = nil) async throws(KanbanError) -> BoardChange {
        try await perform { store throws(KanbanError) in try store.moveCard(reference, to: column, placement: placement) }
    }

    /// Moves a card to `archive/`; see ``BoardStore/archiveCard(_:)``.
    @discardableResult
    public func archiveCard(_ reference: String) async throws(KanbanError) -> BoardChange {
        try await perform { store throws(KanbanError) in try store.archiveCard(reference) }
    }

    /// Brings an archived card back; see ``BoardStore/unarchiveCard(_:to:)``.
    @discardableResult
    public func unarchiveCard(_ reference: String, to column: String? = nil) async throws(KanbanError) -> BoardChange {
        try await perform { store throws(KanbanError) in try store.unarchiveCard(reference, to: column) }
    }

    /// Deletes an active card, reading its file first under the same hold of the board lock, so that
    /// ``restoreCard(_:)`` can undo it exactly.
    /// - Returns: The deleted card, to keep for undo.
    @discardableResult
    public func deleteCard(_ reference: String) async throws(KanbanError) -> DeletedCard {
        let store = self.store
        let deleted = try await Self.run { () throws(KanbanError) -> DeletedCard in
            do {
                return try store.withExclusiveAccess { () throws -> DeletedCard in
                    let path = try store.path(of: reference)
                    guard let file = BoardIndex.cardFile(at: path), let column = file.directoryColumn else {
                        throw KanbanError(.cardNotFound, "no active card at '\(path)'")
                    }
                    let bytes = try store.contents(atPath: path)
                    let change = try store.deleteCard(path)
                    return DeletedCard(card: change.previous, bytes: bytes, slug: file.slug, column: column, change: change)
                }
            } catch let error as KanbanError {
                throw error
            } catch {
                throw KanbanError(.fileSystem, String(describing: error))
            }
        }
        apply(deleted.change)
        return deleted
    }

    /// Puts back a card ``deleteCard(_:)`` removed; see ``BoardStore/restoreCard(_:slug:in:)``.
    @discardableResult
    public func restoreCard(_ deleted: DeletedCard) async throws(KanbanError) -> BoardChange {
        try await perform { store throws(KanbanError) in try store.restoreCard(deleted.bytes, slug: deleted.slug, in: deleted.column) }
    }

    // MARK: Inside

    /// What the watcher hands over, from its thread.
    private enum Inbound: Sendable {
        case event(WatchEvent)
        case notice(WatchNotice)
    }

    private func makeWatcher(inbox: AsyncStream<Inbound>.Continuation) -> any BoardWatcher {
        let onEvent: @Sendable (WatchEvent) -> Void = { inbox.yield(.event($0)) }
        let onNotice: @Sendable (WatchNotice) -> Void = { inbox.yield(.notice($0)) }
        switch watching {
        case .automatic:
            return BoardWatchers.make(for: store, mechanism: .automatic, options: options, onNotice: onNotice, onEvent: onEvent)
        case .polling:
            return BoardWatchers.make(for: store, mechanism: .polling, options: options, onNotice: onNotice, onEvent: onEvent)
        case .source(let source):
            return BoardWatchers.make(for: store, source: source, options: options, onNotice: onNotice, onEvent: onEvent)
        }
    }

    private func receive(_ item: Inbound) async {
        guard !isStopped else { return }
        switch item {
        case .notice(let notice):
            broadcast(.notice(notice))
        case .event(let event):
            switch board.apply(event) {
            case .applied:
                broadcast(.observed(event))
            case .needsReload:
                await reload()
                broadcast(.observed(event))
            case .rootLost(let message):
                finish(KanbanError(.boardNotFound, message))
            }
        }
    }

    /// Loads the board again, after `board.md` or the column directories changed. Events that arrive meanwhile wait
    /// in the inbox and are applied to the new board.
    private func reload() async {
        let store = self.store
        do throws(KanbanError) {
            let snapshot = try await Self.run { () throws(KanbanError) in try store.load() }
            guard !isStopped else { return }
            board = LiveBoard(snapshot: snapshot)
            problem = nil
            broadcast(.loaded)
        } catch {
            problem = error
        }
    }

    private func perform(_ body: @escaping @Sendable (BoardStore) throws(KanbanError) -> BoardChange) async throws(KanbanError) -> BoardChange {
        let store = self.store
        guard let session else {
            let change = try await Self.run { () throws(KanbanError) in try body(store) }
            apply(change)
            return change
        }
        let (change, outcome) = try await Self.run { () throws(KanbanError) -> (BoardChange, CommitOutcome) in
            do {
                return try session.change { store in
                    let change = try body(store)
                    return (change, [change])
                }
            } catch let error as KanbanError {
                throw error
            } catch let error as SyncError {
                throw KanbanError(.notRecorded, error.message + (error.hint.map { " (\($0.replacingOccurrences(of: "\n", with: " ")))" } ?? ""))
            } catch {
                throw KanbanError(.notRecorded, "\(error)")
            }
        }
        lastCommit = outcome
        apply(change)
        return change
    }

    private func apply(_ change: BoardChange) {
        board.apply(change)
        broadcast(.made(change))
    }

    private func broadcast(_ change: Change) {
        for continuation in subscribers.values { continuation.yield(change) }
    }

    private func finish(_ reason: KanbanError?) {
        guard !isStopped else { return }
        isStopped = true
        isFollowing = false
        if let reason { problem = reason }
        pump?.cancel()
        pump = nil
        lifetime.stop()
        let ending = subscribers.values
        subscribers = [:]
        for continuation in ending {
            continuation.yield(.stopped(reason))
            continuation.finish()
        }
    }

    /// Runs `body` on a Dispatch queue and waits for it without holding a thread: the store's calls block (on the
    /// disk, on another process's lock), which the main actor and the cooperative pool must not.
    private nonisolated static func run<T: Sendable>(_ body: @escaping @Sendable () throws(KanbanError) -> T) async throws(KanbanError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, KanbanError>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(KanbanError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}

/// The model's watcher, stopped when the model stops or goes away (a model dropped without ``LiveBoardModel/stop()``
/// leaves no thread behind).
private final class WatcherLifetime: Sendable {
    private let watcher = Mutex<(any BoardWatcher)?>(nil)

    func hold(_ watcher: any BoardWatcher) {
        self.watcher.withLock { $0 = watcher }
    }

    /// Stops the watcher on another thread: stopping waits for the watcher's thread to end.
    func stop() {
        let watcher = self.watcher.withLock { held -> (any BoardWatcher)? in
            defer { held = nil }
            return held
        }
        if let watcher { DispatchQueue.global().async { watcher.stop() } }
    }

    deinit {
        stop()
    }
}
