import KanbanCore

/// Something that learns, its own way, that a board's files may have changed, and tells the watcher where to look.
///
/// A source reports hints, never events: "these paths may have changed", or "anything may have changed". The
/// engine behind every watcher does the rest: it waits for the board to be quiet for ``WatchOptions/settle``,
/// re-reads what the hints point at, compares it with its index and reports card events (an editor's save is
/// one `modified`, a `mv` between column directories one `moved`). So a source may report too much, too often,
/// or a directory when it does not know which file changed; it must only not miss a change, or say
/// ``ChangeReporter/everythingMayHaveChanged()`` when it may have (a dropped notification, a resumed app).
///
/// The engine's own sources, inotify and polling, work the same way behind it; an app adds FSEvents,
/// `NSFilePresenter` or an iCloud query by writing a source and giving it to
/// ``BoardWatchers/make(for:source:options:onNotice:onEvent:)`` (or to ``LiveBoardModel``):
///
/// ```swift
/// final class PresenterSource: NSObject, ChangeSource, NSFilePresenter, @unchecked Sendable {
///     private var reporter: ChangeReporter?
///     func start(watching directory: String, reportingTo reporter: ChangeReporter) throws(KanbanError) {
///         self.reporter = reporter
///         NSFileCoordinator.addFilePresenter(self)
///     }
///     func stop() { NSFileCoordinator.removeFilePresenter(self) }
///     func presentedSubitemDidChange(at url: URL) { reporter?.pathMayHaveChanged(url.path) }
///     // ...
/// }
/// ```
public protocol ChangeSource: AnyObject, Sendable {
    /// Starts telling `reporter` of changes under `directory`; called once, on the watcher's thread, before the
    /// board is indexed. Return only once every change made after returning is sure to be reported.
    /// - Parameters:
    ///   - directory: The board directory, absolute, with links resolved.
    ///   - reporter: Where to report, from any thread, until ``stop()`` returns.
    /// - Throws: ``KanbanError`` when the source cannot start; the watcher's ``BoardWatcher/start()`` throws it.
    func start(watching directory: String, reportingTo reporter: ChangeReporter) throws(KanbanError)

    /// Stops reporting; called once, on the watcher's thread, when the watcher stops. Reports made afterwards are
    /// ignored.
    func stop()
}

/// Where a ``ChangeSource`` reports what may have changed. Safe to call from any thread, and cheap: reports are
/// gathered until the watcher's thread takes them.
public final class ChangeReporter: Sendable {
    /// The board directory, absolute, with links resolved.
    public let directory: String
    private let hints: ReportedHints

    init(directory: String, hints: ReportedHints) {
        self.directory = directory
        self.hints = hints
    }

    /// Reports that the file or directory at `path` may have changed (appeared, changed, gone away).
    ///
    /// `path` is absolute, under ``directory``, or relative to it: a card file (`cards/todo/fix-login.md`,
    /// `archive/2026-01-05-old.md`), `board.md`, a column directory (`cards/todo`, when the source knows only
    /// the directory), `cards`, `archive`, or the board directory itself. Anything else on the board (`.git`,
    /// an editor's swap file) and anything outside it is ignored.
    public func pathMayHaveChanged(_ path: String) {
        var work = PendingWork()
        if let relative = relativePath(path) { work.insertHint(forPath: relative) }
        hints.report(work)
    }

    /// Reports that each of `paths` may have changed; see ``pathMayHaveChanged(_:)``.
    public func pathsMayHaveChanged(_ paths: some Sequence<String>) {
        var work = PendingWork()
        for path in paths {
            if let relative = relativePath(path) { work.insertHint(forPath: relative) }
        }
        hints.report(work)
    }

    /// Reports that anything on the board may have changed: the watcher compares every file with its index.
    /// For a source that lost track (its queue overflowed, the app was suspended).
    public func everythingMayHaveChanged() {
        hints.report(.all)
    }

    private func relativePath(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return path }
        if path == directory { return "" }
        guard path.hasPrefix(directory + "/") else { return nil }
        return String(path.dropFirst(directory.count + 1))
    }
}
