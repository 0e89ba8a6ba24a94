/// What a running monitor of the board's files (`kanban watch`, in the manner of git's fsmonitor daemon) says has
/// changed since an earlier answer: with it a scan takes the index's entry of a file nobody touched without asking
/// the file system for the file's stat data, which is most of what listing a large board costs.
///
/// The monitor holds inotify watches on the board's card directories and keeps, for each path, the number of the
/// last change it saw; a token names a monitor and a point in its count. Before answering it makes a file of its
/// own (a cookie) in a directory it also watches and waits for that file's event, so that every change made before
/// the question was asked is in the answer (inotify keeps one queue in order).
///
/// The index keeps the token of the answer its scan started from. An entry in an index with token `T` either
/// matches its file or its file has changed after `T`, so the answer since `T` names it: that holds for entries
/// the scan read or stat'ed (they match as of after `T`'s successor was asked), and for entries it carried because
/// the answer did not name them.
package struct IndexMonitorAnswer: Sendable, Equatable {
    /// Names the monitor and the point this answer reaches: what to ask since next time.
    package var token: String
    /// The paths changed since the token asked about (relative to the board: `cards/todo/x.md`), with directories
    /// whose every file may have changed as `cards/todo/`; nil when the monitor cannot tell (another monitor's or
    /// no token, changes lost to an overflow, the card directories changed as a whole): every file is checked.
    package var changed: Set<String>?

    package init(token: String, changed: Set<String>?) {
        self.token = token
        self.changed = changed
    }

    /// The paths in `directory` that may have changed since the token asked about (a superset: the answer's other
    /// paths too); nil when every file there may have (the answer is "everything", or names the directory whole).
    /// Asked once for a directory, so that each of its files costs one look-up at most.
    func changedPaths(in directory: String) -> Set<String>? {
        guard let changed, !changed.contains(directory + "/") else { return nil }
        return changed
    }
}
