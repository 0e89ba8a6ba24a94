/// What the settling loop needs from whatever tells it where to look: inotify and polling here, and
/// ``ReportedHints``, which carries what an app's ``ChangeSource`` reports.
///
/// A source that is told of changes has a descriptor that becomes readable; a source that must look for itself
/// (polling) has none and names the time of its next look instead. Either way the loop takes the hints, waits
/// for quiet (taking hints again each settle window: a source that looks compares what it sees then), and runs a
/// round of the engine. A hint source lives on the watcher's thread: the loop calls it from there only.
protocol HintSource: AnyObject {
    /// A descriptor that is readable while hints wait to be taken, or -1 when the source has none.
    var descriptor: Int32 { get }

    /// When the loop should take hints though the descriptor is not readable and nothing is pending: the next
    /// polling pass. Nil for a source that is told of changes.
    func nextLook() -> ContinuousClock.Instant?

    /// Takes every waiting hint into `pending` (a polling source looks now: a pass when nothing is pending,
    /// else a comparison of what `pending` concerns with what it saw a settle window ago).
    func takeHints(into pending: inout PendingWork, index: BoardIndex, now: ContinuousClock.Instant) -> HintIntake

    /// Whether the file at `path` (relative to the board) is open for writing right now, so that a round leaves
    /// it for later. Only inotify knows.
    func isBeingWritten(_ path: String) -> Bool

    /// Called with a column directory's name before the engine lists it for the first time (inotify adds its
    /// watch first, so that no file written meanwhile is missed).
    func prepareColumn(_ name: String)

    /// Called before each round with the work it will do, which the source may add to (polling adds everything
    /// that differs from the index, so that no round decides on half a move).
    func roundWillStart(_ work: inout PendingWork, index: BoardIndex, now: ContinuousClock.Instant, options: WatchOptions)

    /// Called after each round with the columns the board has now.
    func roundDidEnd(columns: Set<String>)

    /// Whether the source can no longer tell of changes, so that the watcher must poll instead.
    var isExhausted: Bool { get }
}

/// What taking hints found besides the hints.
struct HintIntake {
    /// Whether any hint concerned the board (a quiet period starts again).
    var isRelevant = false
    /// Whether the board directory itself went away.
    var isRootLost = false
    /// Whether the source failed and the watcher must poll instead.
    var hasFailed = false
    /// Notices to hand on, such as a rescan after an overflow.
    var notices: [WatchNotice] = []
}

extension PendingWork {
    /// Adds what a report that `path` (relative to the board, `""` for the board directory itself) may have
    /// changed asks the engine to look at: a card file, `board.md`, a column directory, `cards/`, `archive/` or
    /// the whole board. Anything else (`.git/`, an editor's swap file, a path with `..`) is no hint.
    mutating func insertHint(forPath path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.contains(where: { $0 == "." || $0 == ".." }) else { return }
        switch parts.count {
        case 0:
            listsRoot = true
        case 1 where parts[0] == Self.boardFilePath:
            paths.insert(Self.boardFilePath)
        case 1 where parts[0] == "cards":
            listsColumns = true
        case 1 where parts[0] == BoardIndex.archiveDirectory:
            directories.insert(BoardIndex.archiveDirectory)
        case 2 where parts[0] == "cards":
            // A column directory (or a file in `cards/` that is no card: listing the columns costs little).
            listsColumns = true
            directories.insert("cards/" + parts[1])
        case 2 where parts[0] == BoardIndex.archiveDirectory:
            if BoardIndex.cardFile(at: parts.joined(separator: "/")) != nil { paths.insert(parts.joined(separator: "/")) }
        case 3 where parts[0] == "cards":
            if BoardIndex.cardFile(at: parts.joined(separator: "/")) != nil { paths.insert(parts.joined(separator: "/")) }
        default:
            break
        }
    }
}
