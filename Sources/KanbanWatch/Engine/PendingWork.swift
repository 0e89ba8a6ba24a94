/// What raw notifications (or a polling pass) say should be looked at again: hints, never the truth.
struct PendingWork: Sendable, Equatable {
    /// Card paths relative to the board, and `board.md`.
    var paths: Set<String> = []
    /// Directories to list again: `cards/<column>` or `archive`.
    var directories: Set<String> = []
    /// Whether `cards/` must be listed again (a column directory came or went).
    var listsColumns = false
    /// Whether the board directory's own entries (`board.md`, `cards`, `archive`) must be looked at again.
    var listsRoot = false
    /// Whether everything must be compared with the index (after the kernel's queue overflowed, or when
    /// switching from inotify to polling).
    var everything = false

    static let boardFilePath = "board.md"

    var isEmpty: Bool {
        paths.isEmpty && directories.isEmpty && !listsColumns && !listsRoot && !everything
    }

    mutating func formUnion(_ other: PendingWork) {
        paths.formUnion(other.paths)
        directories.formUnion(other.directories)
        listsColumns = listsColumns || other.listsColumns
        listsRoot = listsRoot || other.listsRoot
        everything = everything || other.everything
    }

    static var all: PendingWork {
        var work = PendingWork()
        work.everything = true
        return work
    }
}
