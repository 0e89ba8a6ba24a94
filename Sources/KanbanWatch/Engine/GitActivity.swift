/// Whether git is in the middle of changing the work tree the board lives in.
///
/// `git checkout`, `pull`, `rebase`, `reset` and `stash` hold `<git dir>/index.lock` from before they touch
/// the first file until after the last. A pause inside such a command (a loaded machine, a large blob) can
/// be longer than the settle window; while the lock exists, the watcher does not take quiet for the end,
/// so a card that git removed from one column and has not yet written to another is not reported deleted.
struct GitActivity: Sendable {
    /// The git directory of the work tree holding the board, if there is one.
    let directory: String?

    /// The lock git holds while it changes the index and the work tree.
    var lockPath: String? { directory.map { $0 + "/index.lock" } }

    /// Finds the git directory from `root` upwards: a `.git` directory, or a `.git` file that names one
    /// (`gitdir: ...`, as worktrees and submodules have).
    init(root: String) {
        var current = root
        var found: String?
        while true {
            let candidate = (current == "/" ? "" : current) + "/.git"
            if let stamp = SystemCalls.linkStamp(candidate) {
                if stamp.kind == .directory {
                    found = candidate
                } else if stamp.kind == .file, case .read(let bytes, _) = SystemCalls.readFile(candidate, followingLink: false) {
                    let text = String(decoding: bytes, as: UTF8.self)
                    if let line = text.split(separator: "\n").first, line.hasPrefix("gitdir:") {
                        let named = line.dropFirst(7).trimmingCharacters(in: " \t\r")
                        found = named.hasPrefix("/") ? named : current + "/" + named
                    }
                }
                break
            }
            guard current != "/", let slash = current.lastIndex(of: "/") else { break }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
        directory = found.flatMap { SystemCalls.realPath($0) ?? $0 }
    }

    /// Whether git holds the index lock right now.
    var isBusy: Bool {
        guard let lockPath else { return false }
        return SystemCalls.linkStamp(lockPath) != nil
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        return String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
