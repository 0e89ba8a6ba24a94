import Foundation
import KanbanCore

/// Turns hints about what may have changed into card events, by re-reading those places and comparing
/// them with the index. Both watchers share it; it lives on the watcher's thread and nowhere else.
///
/// A round looks at the hinted paths and directories, sorts what it sees into files that appeared, files that
/// vanished and files whose content changed, pairs vanished files with appeared ones (same inode, else same
/// slug) into moves, renames, archivings and unarchivings, and reports the rest as created, deleted or
/// modified. Files still being written, files that changed while read and files that just turned empty are
/// left for a later round. In a round forced by changes that keep coming (not "quiet"), deletions and
/// creations that could be half of a move are held back until quiet, so a burst is never reported half-way.
struct WatchEngine: Sendable {
    /// The board directory, absolute, links resolved.
    let root: String
    let options: WatchOptions
    /// Whether git is changing the work tree: quiet does not count while it is.
    let git: GitActivity
    private(set) var index = BoardIndex()
    /// The board's index, while the board is indexed at start.
    private var seed: CardFileReader.IndexSeed?
    /// Whether the board is being indexed at start with no events wanted.
    private var isIndexingSilently = false
    private var rootStamp: FileStamp?
    /// Card files found missing and not yet reported as deleted, with when they were first missed.
    private var held: [String: ContinuousClock.Instant] = [:]
    /// Links already reported as not followed, so each is reported once.
    private var reportedLinks: Set<String> = []
    /// New card files held back until quiet (perhaps the new half of a move), as read, so that rounds in the
    /// meantime read them again only if they change.
    private var waiting: [String: IndexedFile] = [:]
    /// The last time a round found git holding its index lock.
    private var gitLastBusy: ContinuousClock.Instant?

    /// What one round found.
    struct Round: Sendable {
        var events: [WatchEvent] = []
        var notices: [WatchNotice] = []
        /// What must be looked at again in a later round.
        var leftover = PendingWork()
        /// Whether the board directory went away (a `root-lost` event is among the events).
        var isRootLost = false
    }

    init(root: String, options: WatchOptions) {
        self.root = root
        self.options = options
        git = GitActivity(root: root)
    }

    /// Whether nothing is held back for a later round (deletions, or new files that may be half of a move).
    var isSettled: Bool { held.isEmpty && waiting.isEmpty }

    // MARK: Starting

    /// Reads the whole board into the index, taking from the board's own index (`seed`) every file whose stat data
    /// are its entry's. Returns `created` (and `invalid`) events for every card when `reportingState` is true, and
    /// no events otherwise.
    mutating func indexBoard(reportingState: Bool, seed: CardFileReader.IndexSeed? = nil, prepareColumn: (String) -> Void) -> Round {
        rootStamp = SystemCalls.linkStamp(root)
        self.seed = seed
        // Events nobody will see are not made: at a hundred thousand cards, making and ordering them costs more
        // than reading the board from its index.
        isIndexingSilently = !reportingState
        defer {
            self.seed = nil
            isIndexingSilently = false
        }
        var round = run(.all, isQuiet: true, isInitial: true, now: .now, isBeingWritten: { _ in false }, prepareColumn: prepareColumn)
        round.events = reportingState ? round.events.filter { $0.kind == .created || $0.kind == .invalid } : []
        return round
    }

    // MARK: Rounds

    /// Looks at what `work` hints at and reports what changed.
    /// - Parameters:
    ///   - work: The hints.
    ///   - isQuiet: Whether no raw change arrived for a settle window; only then are unmatched deletions final.
    ///   - gitWasBusy: Whether git held its index lock when the caller took its last hints (a round is not quiet
    ///     while git works, and git may have finished between the hints and the round).
    ///   - now: The monotonic time of the round.
    ///   - isBeingWritten: Whether a path is open for writing right now (inotify knows; polling does not).
    ///   - prepareColumn: Called with a column directory's name before it is listed for the first time, so that
    ///     the inotify watcher adds its watch first and no file written meanwhile is missed.
    mutating func run(_ work: PendingWork, isQuiet: Bool, gitWasBusy: Bool = false, now: ContinuousClock.Instant,
                      isBeingWritten: (String) -> Bool, prepareColumn: (String) -> Void) -> Round {
        run(work, isQuiet: isQuiet, isInitial: false, gitWasBusy: gitWasBusy, now: now, isBeingWritten: isBeingWritten,
            prepareColumn: prepareColumn)
    }

    private mutating func run(_ hints: PendingWork, isQuiet settled: Bool, isInitial: Bool, gitWasBusy: Bool = false,
                              now: ContinuousClock.Instant, isBeingWritten: (String) -> Bool,
                              prepareColumn: (String) -> Void) -> Round {
        var round = Round()
        // While git holds its index lock, a pause is not the end of the burst: hold deletions (and creations
        // that may be half of a move) for up to 30 s instead of the maximum delay.
        let isGitBusy = !isInitial && (gitWasBusy || git.isBusy)
        if isGitBusy { gitLastBusy = now }
        let isQuiet = settled && !isGitBusy
        let holdLimit = isGitBusy ? max(options.maximumDelay, .seconds(30)) : options.maximumDelay
        let time = Date()
        if !isInitial, isRootGone() {
            round.isRootLost = true
            round.events.append(WatchEvent(.rootLost, path: root, message: "the board directory was removed or moved", time: time))
            return round
        }
        var work = hints
        if work.everything {
            work.listsRoot = true
            work.paths.formUnion(index.allPaths)
        }
        if work.listsRoot {
            work.paths.insert(PendingWork.boardFilePath)
            work.listsColumns = true
            work.directories.insert(BoardIndex.archiveDirectory)
        }

        var boardEvents: [WatchEvent] = []
        if work.paths.remove(PendingWork.boardFilePath) != nil {
            boardEvents = checkBoardFile(isInitial: isInitial, time: time, round: &round)
        }

        var addedColumns: [String] = []
        var removedColumns: [String] = []
        if work.listsColumns {
            (addedColumns, removedColumns) = listColumns(round: &round, prepareColumn: prepareColumn)
            for column in addedColumns { work.directories.insert("cards/" + column) }
            for column in removedColumns { work.paths.formUnion(index.paths(in: "cards/" + column)) }
        }
        if work.everything {
            for column in index.columns { work.directories.insert("cards/" + column) }
        }

        for directory in work.directories {
            work.paths.formUnion(index.paths(in: directory))
            guard directory == BoardIndex.archiveDirectory || index.columns.contains(String(directory.dropFirst(6))) else { continue }
            switch SystemCalls.entries(of: root + "/" + directory) {
            case .success(let entries):
                for entry in entries where CardFile.isCardFileName(entry.name) {
                    work.paths.insert(directory + "/" + entry.name)
                }
            case .failure(let error):
                round.notices.append(WatchNotice(.unreadable, "cannot list the directory: \(error)", path: directory))
            }
        }
        work.paths.formUnion(held.keys)

        // Look at every candidate path, reading the ones whose stamp changed, on every core.
        let reader = CardFileReader(root: root, suspectFileHold: isInitial ? 0 : Self.nanoseconds(options.suspectFileHold),
                                    rereadsChangingFiles: isInitial, seed: isInitial ? seed : nil)
        var requests: [CardFileReader.Request] = []
        var absent: [String] = []
        var appeared: [IndexedFile] = []
        let waited = waiting
        waiting = [:]
        for path in work.paths {
            guard let file = BoardIndex.cardFile(at: path) else { continue }
            if let column = file.directoryColumn, !index.columns.contains(column) {
                absent.append(path)
                continue
            }
            if !isInitial, isBeingWritten(path) {
                round.leftover.paths.insert(path)
                continue
            }
            let old = index.entry(at: path)
            if old == nil, let entry = waited[path], SystemCalls.linkStamp(root + "/" + path) == entry.stamp {
                appeared.append(entry)
                continue
            }
            requests.append(CardFileReader.Request(file: file, old: old))
        }
        let results = ParallelMap.map(requests, minimumChunk: 16) { reader.observe($0) }

        var vanished: [IndexedFile] = []
        var changed: [(old: IndexedFile, new: IndexedFile)] = []
        for path in absent {
            if let old = index.entry(at: path) { vanished.append(old) }
        }
        for (request, result) in zip(requests, results) {
            if let notice = result.notice, reportedLinks.insert(request.file.path).inserted {
                round.notices.append(notice)
            }
            switch result.observation {
            case .absent:
                if let old = request.old { vanished.append(old) }
            case .unchanged:
                held[request.file.path] = nil
            case .touched(let stamp, let readAt, let contentHash):
                held[request.file.path] = nil
                if var entry = request.old {
                    entry.stamp = stamp
                    entry.readAt = readAt
                    if let contentHash { entry.contentHash = contentHash }
                    index.insert(entry)
                }
            case .present(let entry):
                held[request.file.path] = nil
                if let old = request.old {
                    changed.append((old, entry))
                } else {
                    appeared.append(entry)
                }
            case .deferred:
                round.leftover.paths.insert(request.file.path)
            }
        }

        var cardEvents: [WatchEvent] = []
        // When the changes happened, where a file's own status-change time does not tell (see `changedAt`).
        var changeTimes: [String: Int64] = [:]
        pairMoves(vanished: &vanished, appeared: &appeared, events: &cardEvents, changeTimes: &changeTimes, time: time)

        for entry in isIndexingSilently ? appeared : appeared.sorted(by: { $0.path < $1.path }) {
            let slugElsewhere = index.pathsBySlug[entry.file.slug].map { !$0.isEmpty } ?? false
            if !isQuiet, slugElsewhere {
                // Perhaps the new half of a move whose old half has not gone yet: wait for quiet.
                round.leftover.paths.insert(entry.path)
                waiting[entry.path] = entry
                continue
            }
            index.insert(entry)
            if isIndexingSilently { continue }
            switch entry.content {
            case .card(let snapshot):
                cardEvents.append(event(.created, entry: entry, snapshot: snapshot, time: time))
            case .invalid(let error, _):
                cardEvents.append(invalidEvent(entry, error: error, time: time))
            }
        }

        // When each deletion happened, as far as can be told: not after it was first missed, nor after its
        // directory last changed.
        let realNow = SystemCalls.realtimeNanoseconds()
        for entry in vanished {
            let since = held[entry.path] ?? now
            // Without quiet, a deletion is final only once it has been held the maximum delay, counted from when
            // git last held its lock (git may have written the other half of a move since).
            let heldFor = now - max(since, isGitBusy ? since : (gitLastBusy ?? since))
            if isQuiet || heldFor >= holdLimit {
                held[entry.path] = nil
                index.remove(entry.path)
                let missed = realNow - Self.nanoseconds(now - since)
                let directory = SystemCalls.linkStamp(root + "/" + entry.path.split(separator: "/").dropLast().joined(separator: "/"))
                changeTimes[entry.path] = min(missed, directory?.modified ?? missed)
                cardEvents.append(event(.deleted, entry: entry, snapshot: entry.lastCard, time: time))
            } else {
                held[entry.path] = since
            }
        }

        for (old, new) in changed {
            if let event = modification(from: old, to: new, time: time) { cardEvents.append(event) }
            index.insert(new)
        }

        // In the order the changes happened: by the status-change time of each file as it is now (which a write,
        // a rename and a link all set), a deletion by when it happened; changes at the same time by path.
        func changedAt(_ event: WatchEvent) -> Int64 {
            guard let path = event.path else { return realNow }
            return changeTimes[path] ?? index.entry(at: path)?.stamp.changed ?? realNow
        }
        cardEvents = cardEvents.enumerated().map { (offset: $0.offset, time: changedAt($0.element), event: $0.element) }
            .sorted { lhs, rhs in
                if lhs.time != rhs.time { return lhs.time < rhs.time }
                let left = lhs.event.path ?? "", right = rhs.event.path ?? ""
                return left == right ? lhs.offset < rhs.offset : left < right
            }.map(\.event)
        round.events += boardEvents
        round.events += addedColumns.map { WatchEvent(.columnAdded, column: $0, path: "cards/" + $0, time: time) }
        round.events += cardEvents
        round.events += removedColumns.map { WatchEvent(.columnRemoved, column: $0, path: "cards/" + $0, time: time) }
        if !held.isEmpty { round.leftover.paths.formUnion(held.keys) }
        return round
    }

    // MARK: The board directory

    private func isRootGone() -> Bool {
        guard let stamp = SystemCalls.linkStamp(root), stamp.kind == .directory else { return true }
        guard let rootStamp else { return false }
        return !stamp.isSameFile(as: rootStamp)
    }

    /// Lists `cards/` and updates the index's columns: returns the added and removed column names.
    private mutating func listColumns(round: inout Round, prepareColumn: (String) -> Void) -> (added: [String], removed: [String]) {
        var found: Set<String> = []
        var links: Set<String> = []
        switch SystemCalls.entries(of: root + "/cards") {
        case .success(let entries):
            for entry in entries where !entry.name.hasPrefix(".") && !entry.name.hasPrefix("#") {
                let kind = entry.kind ?? SystemCalls.linkStamp(root + "/cards/" + entry.name)?.kind
                switch kind {
                case .directory:
                    found.insert(entry.name)
                case .symbolicLink:
                    links.insert(entry.name)
                    if reportedLinks.insert("cards/" + entry.name).inserted {
                        round.notices.append(WatchNotice(.linkNotFollowed, "column directory is a symbolic link; not followed",
                                                         path: "cards/" + entry.name))
                    }
                default:
                    continue
                }
            }
        case .failure(let error):
            round.notices.append(WatchNotice(.unreadable, "cannot list the directory: \(error)", path: "cards"))
            return ([], [])
        }
        index.columnLinks = links
        let added = found.subtracting(index.columns).sorted()
        let removed = index.columns.subtracting(found).sorted()
        for column in added {
            prepareColumn(column)
            index.columns.insert(column)
        }
        for column in removed { index.columns.remove(column) }
        return (added, removed)
    }

    /// Re-reads `board.md` when its stamp changed.
    private mutating func checkBoardFile(isInitial: Bool, time: Date, round: inout Round) -> [WatchEvent] {
        let old = index.boardFile
        let path = PendingWork.boardFilePath
        let previous = old.board ?? old.lastGood
        func lost(_ message: String) -> [WatchEvent] {
            guard old.stamp != nil || isInitial else { return [] }
            index.boardFile = IndexedBoardFile(stamp: nil, contentHash: 0, readAt: 0, board: nil,
                                               error: KanbanError(.invalidBoard, message), lastGood: previous)
            return isInitial ? [] : [WatchEvent(.invalid, path: path, message: message, location: SourceLocation(path: path), time: time)]
        }
        guard let stamp = SystemCalls.linkStamp(root + "/" + path), stamp.kind == .file else {
            return old.stamp == nil ? [] : lost("board.md was removed")
        }
        if stamp == old.stamp, !stamp.isRacy(readAt: old.readAt) { return [] }
        switch SystemCalls.readFile(root + "/" + path, followingLink: false) {
        case .missing:
            return old.stamp == nil ? [] : lost("board.md was removed")
        case .changing:
            round.leftover.paths.insert(path)
            return []
        case .failed(let error):
            return lost("cannot read board.md: \(error)")
        case .read(let bytes, let readStamp):
            let readAt = SystemCalls.realtimeNanoseconds()
            let hash = CardFileReader.hash(bytes)
            if old.stamp != nil, old.contentHash == hash {
                index.boardFile.stamp = readStamp
                index.boardFile.readAt = readAt
                return []
            }
            do {
                let board = try BoardFile(bytes: bytes).board
                index.boardFile = IndexedBoardFile(stamp: readStamp, contentHash: hash, readAt: readAt, board: board, error: nil, lastGood: board)
                guard !isInitial else { return [] }
                var changes: WatchEvent.Changes = []
                if let previous {
                    if previous.title != board.title { changes.insert(.title) }
                    if previous.columns != board.columns { changes.insert(.columns) }
                    if previous.labels != board.labels { changes.insert(.labels) }
                    if previous.body != board.body { changes.insert(.body) }
                    if previous.fields != board.fields { changes.insert(.fields) }
                    if changes.isEmpty && old.board != nil { changes.insert(.formatting) }
                } else {
                    changes = [.title, .columns, .labels, .body, .fields]
                }
                return [WatchEvent(.board, title: board.title, path: path, changes: changes, time: time)]
            } catch {
                let wasSame = old.error.map { $0.message == error.message && $0.location == error.location } ?? false
                index.boardFile = IndexedBoardFile(stamp: readStamp, contentHash: hash, readAt: readAt, board: nil, error: error, lastGood: previous)
                if isInitial || wasSame { return [] }
                return [WatchEvent(.invalid, path: path, message: error.message, location: error.location ?? SourceLocation(path: path), time: time)]
            }
        }
    }

    // MARK: Pairing and events

    /// Pairs files that vanished with files that appeared: the same inode first (a `mv`), then the same slug
    /// (a move by a tool that writes the new file and removes the old one, or git). Each pair is one event.
    /// A pair whose file kept its status-change time (its directory was renamed) notes the directory's in
    /// `changeTimes`, by the new path.
    private mutating func pairMoves(vanished: inout [IndexedFile], appeared: inout [IndexedFile], events: inout [WatchEvent],
                                    changeTimes: inout [String: Int64], time: Date) {
        guard !vanished.isEmpty, !appeared.isEmpty else { return }
        var pairs: [(old: IndexedFile, new: IndexedFile)] = []
        var vanishedByInode: [FileStampIdentity: Int] = [:]
        for (offset, entry) in vanished.enumerated() {
            vanishedByInode[FileStampIdentity(entry.stamp)] = offset
        }
        var taken = Set<Int>()
        var unpaired: [IndexedFile] = []
        for entry in appeared {
            if let offset = vanishedByInode[FileStampIdentity(entry.stamp)], !taken.contains(offset) {
                taken.insert(offset)
                pairs.append((vanished[offset], entry))
            } else {
                unpaired.append(entry)
            }
        }
        var vanishedBySlug: [String: [Int]] = [:]
        for (offset, entry) in vanished.enumerated() where !taken.contains(offset) {
            vanishedBySlug[entry.file.slug, default: []].append(offset)
        }
        var stillUnpaired: [IndexedFile] = []
        for entry in unpaired {
            if var offsets = vanishedBySlug[entry.file.slug], !offsets.isEmpty {
                // Prefer the one from the same side of the archive, then the first by path.
                offsets.sort { vanished[$0].path < vanished[$1].path }
                let choice = offsets.first { vanished[$0].file.isArchived == entry.file.isArchived } ?? offsets[0]
                vanishedBySlug[entry.file.slug] = offsets.filter { $0 != choice }
                taken.insert(choice)
                pairs.append((vanished[choice], entry))
            } else {
                stillUnpaired.append(entry)
            }
        }
        for (old, new) in pairs {
            var new = new
            if case .invalid(let error, nil) = new.content { new.content = .invalid(error, lastGood: old.lastCard) }
            held[old.path] = nil
            index.remove(old.path)
            index.insert(new)
            if new.stamp.changed == old.stamp.changed,
               let directory = SystemCalls.linkStamp(root + "/" + new.path.split(separator: "/").dropLast().joined(separator: "/")) {
                changeTimes[new.path] = max(directory.changed, new.stamp.changed)
            }
            events += transition(from: old, to: new, time: time)
        }
        vanished = vanished.enumerated().filter { !taken.contains($0.offset) }.map(\.element)
        appeared = stillUnpaired
    }

    private func transition(from old: IndexedFile, to new: IndexedFile, time: Date) -> [WatchEvent] {
        var changes: WatchEvent.Changes = []
        if let before = old.lastCard, case .card(let after) = new.content {
            changes = before.changes(to: after)
            if changes.isEmpty, let oldHash = old.contentHash, oldHash != new.contentHash, !isUnreadable(old) { changes = .formatting }
        }
        let snapshot = new.lastCard
        var result = event(.renamed, entry: new, snapshot: snapshot, time: time)
        result.previousPath = old.path
        result.changes = changes
        switch (old.file.directoryColumn, new.file.directoryColumn) {
        case let (from?, to?) where from != to:
            result.kind = .moved
            result.from = from
            result.to = to
        case let (from?, nil):
            result.kind = .archived
            result.from = from
            if (result.column ?? "").isEmpty { result.column = from }
        case let (nil, to?):
            result.kind = .unarchived
            result.to = to
        default:
            // Slugs, as documented; an archived card renamed to another date keeps its slug, and `previousPath`
            // and `path` tell the two files apart.
            result.kind = .renamed
            result.from = old.file.slug
            result.to = new.file.slug
        }
        var events = [result]
        if case .invalid(let error, _) = new.content { events.append(invalidEvent(new, error: error, time: time)) }
        return events
    }

    private func isUnreadable(_ entry: IndexedFile) -> Bool {
        if case .invalid(let error, _) = entry.content, error.code == .fileSystem { return true }
        return false
    }

    /// The event for a file whose path stayed the same but whose content changed, if any.
    private func modification(from old: IndexedFile, to new: IndexedFile, time: Date) -> WatchEvent? {
        switch (old.content, new.content) {
        case (.card(let before), .card(let after)):
            var changes = before.changes(to: after)
            if changes.isEmpty { changes = .formatting }
            var result = event(.modified, entry: new, snapshot: after, time: time)
            result.changes = changes
            return result
        case (.card, .invalid(let error, _)):
            return invalidEvent(new, error: error, time: time)
        case (.invalid(let oldError, _), .invalid(let error, _)):
            return oldError == error ? nil : invalidEvent(new, error: error, time: time)
        case (.invalid(_, let lastGood), .card(let after)):
            guard let lastGood else { return event(.created, entry: new, snapshot: after, time: time) }
            var result = event(.modified, entry: new, snapshot: after, time: time)
            result.changes = lastGood.changes(to: after)
            return result
        }
    }

    private func event(_ kind: WatchEvent.Kind, entry: IndexedFile, snapshot: CardSnapshot?, time: Date) -> WatchEvent {
        let card = snapshot?.card
        var column = entry.file.directoryColumn ?? card?.column
        if column?.isEmpty == true { column = nil }
        return WatchEvent(kind, slug: entry.file.slug, title: card?.title, column: column, path: entry.path, card: card, time: time)
    }

    private func invalidEvent(_ entry: IndexedFile, error: KanbanError, time: Date) -> WatchEvent {
        var result = event(.invalid, entry: entry, snapshot: entry.lastCard, time: time)
        result.message = error.message
        result.location = error.location ?? SourceLocation(path: entry.path)
        return result
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// A file's identity for pairing moves: device and inode, and the size and mtime a rename keeps, so that an
/// inode freed by a deletion and reused by a new file in the same round is not taken for a move.
private struct FileStampIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    init(_ stamp: FileStamp) {
        device = stamp.device
        inode = stamp.inode
        size = stamp.size
        modified = stamp.modified
    }
}
