#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The board directory held open: the one way KanbanCore reaches the files of a board.
///
/// Every path is resolved relative to the open directory, one component at a time, with `O_NOFOLLOW`. A symbolic
/// link met on the way is read, and followed only when what it names lies inside the board, which is then walked
/// the same way; a link that leads out (`cards/evil -> /etc`, `cards -> ..`) ends the walk with
/// ``KanbanError/Code/outsideBoard`` naming it. `..` climbs only through directories already walked and never above
/// the board. So no path, however the links in the board are laid, reaches a file outside it; and files are then
/// opened relative to their directory's descriptor, never by a path the kernel walks again.
///
/// A link inside the board that stays inside is followed like a directory or file of its own.
package final class BoardRoot: Sendable {
    /// The board directory, absolute, links resolved.
    let path: String
    /// The board directory itself.
    let directory: FileSystem.OpenDirectory

    /// How many links one path may go through before the walk gives up (as `SYMLOOP_MAX`).
    static let maximumLinks = 40

    /// Opens the board directory `path` (absolute, links resolved).
    init(path: String) throws(KanbanError) {
        guard let directory = try FileSystem.OpenDirectory(path) else {
            throw KanbanError(.boardNotFound, "no board at '\(path)': the directory does not exist")
        }
        self.path = path
        self.directory = directory
    }

    /// Where a board path leads: the directory holding its last component, held open, and that component.
    struct Place: Sendable {
        /// The directory the entry is in.
        var directory: FileSystem.OpenDirectory
        /// The entry's name in it.
        var name: String
        /// The board-relative path of the entry after every link on the way was followed.
        var path: String
    }

    /// The place `path` (relative to the board) names, or nil when a directory on the way does not exist (or a
    /// link on the way is dangling).
    /// - Parameters:
    ///   - followingLink: Whether a link in the last component is followed (to read or write what it names) or
    ///     is the place itself (to remove it, or to look at it).
    ///   - creatingDirectories: Whether missing directories on the way are made.
    /// - Throws: ``KanbanError/Code/outsideBoard`` for a path or link leading out of the board.
    func place(of path: String, followingLink: Bool = true, creatingDirectories: Bool = false) throws(KanbanError) -> Place? {
        try walk(path, toDirectory: false, followingLink: followingLink, creating: creatingDirectories)?.place
    }

    /// The directory `path` (relative to the board; empty for the board itself) held open, or nil when it does not
    /// exist.
    func openDirectory(_ path: String, creating: Bool = false) throws(KanbanError) -> FileSystem.OpenDirectory? {
        try walk(path, toDirectory: true, followingLink: true, creating: creating)?.directory
    }

    // MARK: Reading and writing

    /// The kind of what `path` names, the last component not followed; nil when there is nothing there.
    func kind(of path: String) throws(KanbanError) -> FileSystem.EntryKind? {
        guard let place = try place(of: path, followingLink: false) else { return nil }
        return place.directory.kind(of: place.name)
    }

    /// The bytes of the regular file `path`, following links inside the board; nil when there is none.
    /// - Throws: ``KanbanError/Code/notRegularFile`` for a FIFO, socket, device or directory (never waited on),
    ///   ``KanbanError/Code/outsideBoard`` for a link leading out.
    package func readIfPresent(_ path: String) throws(KanbanError) -> [UInt8]? {
        guard let place = try place(of: path) else { return nil }
        return try place.directory.readRegularFile(place.name, path: path)
    }

    /// The bytes of the regular file `path`.
    /// - Throws: As ``readIfPresent(_:)``, and ``KanbanError/Code/fileSystem`` when there is no such file.
    package func read(_ path: String) throws(KanbanError) -> [UInt8] {
        guard let bytes = try readIfPresent(path) else { throw FileSystem.error("read", path, errno: ENOENT) }
        return bytes
    }

    /// Writes `path` atomically, making missing directories. A link inside the board is written through (what it
    /// names is replaced), so that a linked `board.md` stays linked.
    package func write(_ bytes: [UInt8], to path: String) throws(KanbanError) {
        guard let place = try place(of: path, creatingDirectories: true) else { throw FileSystem.error("write", path, errno: ENOENT) }
        try place.directory.writeAtomically(bytes, to: place.name, path: path)
    }

    /// Creates `path`, which must not exist, atomically, making missing directories.
    /// - Throws: ``KanbanError/Code/alreadyExists`` when something is there.
    package func create(_ bytes: [UInt8], at path: String) throws(KanbanError) {
        guard let place = try place(of: path, followingLink: false, creatingDirectories: true) else {
            throw FileSystem.error("create", path, errno: ENOENT)
        }
        try place.directory.createExclusively(bytes, at: place.name, path: path)
    }

    /// Removes the entry `path` (a link itself, not what it names); nothing when it is gone.
    package func remove(_ path: String) throws(KanbanError) {
        guard let place = try place(of: path, followingLink: false) else { return }
        try place.directory.remove(place.name, path: path)
    }

    /// Makes the directory `path` and any missing parents inside the board.
    func makeDirectory(_ path: String) throws(KanbanError) {
        _ = try openDirectory(path, creating: true)
    }

    /// Removes the directory `path` when it is empty.
    func removeDirectoryIfEmpty(_ path: String) {
        guard let place = try? place(of: path, followingLink: false) else { return }
        place.directory.removeDirectoryIfEmpty(place.name)
    }

    /// The entries of the directory `path`; none when it does not exist.
    func entries(of path: String) throws(KanbanError) -> [FileSystem.Entry] {
        try openDirectory(path)?.entries() ?? []
    }

    // MARK: The walk

    private struct Walked {
        var directory: FileSystem.OpenDirectory
        var place: Place?
    }

    /// Walks `path` from the board directory; see the type's description.
    private func walk(_ path: String, toDirectory: Bool, followingLink: Bool, creating: Bool) throws(KanbanError) -> Walked? {
        guard !path.hasPrefix("/") else {
            throw KanbanError(.outsideBoard, "'\(path)' is not a path inside the board", at: SourceLocation(path: path))
        }
        // Components still to walk, the next one last; the directories walked so far, each with its name.
        var pending = Array(Self.components(path).reversed())
        var stack: [(name: String, directory: FileSystem.OpenDirectory)] = []
        var links = 0
        // The last relative link followed, to name when a `..` in it climbs out of the board.
        var outsideLink: String?
        var outsideTarget: String?
        func current() -> FileSystem.OpenDirectory { stack.last?.directory ?? directory }
        func walkedPath(_ name: String? = nil) -> String { (stack.map(\.name) + (name.map { [$0] } ?? [])).joined(separator: "/") }
        /// Replaces the link `name` in the current directory by what it names, or throws when that is outside.
        func follow(_ name: String) throws(KanbanError) -> Bool {
            links += 1
            let linkPath = walkedPath(name)
            guard links <= Self.maximumLinks else {
                throw KanbanError(.fileSystem, "too many levels of symbolic links at '\(linkPath)'", at: SourceLocation(path: linkPath))
            }
            let target = try current().readLink(name, path: linkPath)
            if target.hasPrefix("/") {
                switch relativeToBoard(target) {
                case .inside(let inside):
                    stack.removeAll()
                    pending += Self.components(inside).reversed()
                case .missing:
                    return false  // dangling: nothing there to read or write
                case .outside:
                    throw KanbanError(.outsideBoard, "'\(linkPath)' is a link to '\(target)', outside the board directory; it is not followed",
                                      at: SourceLocation(path: linkPath))
                }
            } else {
                // Relative to the link's directory; `..` in it climbs the directories walked, never above the board.
                pending += Self.components(target).reversed()
                outsideLink = linkPath
                outsideTarget = target
            }
            return true
        }
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                guard !stack.isEmpty else {
                    if let outsideLink, let outsideTarget {
                        throw KanbanError(.outsideBoard, "'\(outsideLink)' is a link to '\(outsideTarget)', outside the board directory; it is not followed",
                                          at: SourceLocation(path: outsideLink))
                    }
                    throw KanbanError(.outsideBoard, "'\(path)' reaches outside the board directory", at: SourceLocation(path: path))
                }
                stack.removeLast()
                continue
            }
            if pending.isEmpty && !toDirectory {
                // The last component.
                if followingLink, current().kind(of: name) == .symbolicLink {
                    guard try follow(name) else { return nil }
                    continue
                }
                return Walked(directory: current(), place: Place(directory: current(), name: name, path: walkedPath(name)))
            }
            switch try current().openSubdirectory(name, path: self.path + "/" + walkedPath(name)) {
            case .opened(let opened):
                stack.append((name, opened))
            case .link:
                guard try follow(name) else { return nil }
            case .missing:
                guard creating else { return nil }
                try current().makeDirectory(name, path: walkedPath(name))
                pending.append(name)
            case .notDirectory:
                throw KanbanError(.fileSystem, "'\(walkedPath(name))' is not a directory", at: SourceLocation(path: walkedPath(name)))
            }
        }
        // The path named a directory (or ended in `..`).
        if toDirectory { return Walked(directory: current(), place: nil) }
        guard let last = stack.popLast() else {
            throw KanbanError(.outsideBoard, "'\(path)' names the board directory itself, not a file in it", at: SourceLocation(path: path))
        }
        return Walked(directory: current(), place: Place(directory: current(), name: last.name, path: walkedPath(last.name)))
    }

    /// Where an absolute link target is, seen from the board.
    private enum Target {
        /// Inside the board, at this board-relative path.
        case inside(String)
        /// Outside the board.
        case outside
        /// Nowhere: the link is dangling.
        case missing
    }

    /// Where the absolute `target` is, seen from the board (links on its way resolved).
    private func relativeToBoard(_ target: String) -> Target {
        if target == path { return .inside("") }
        if target.hasPrefix(path + "/") { return .inside(String(target.dropFirst(path.count + 1))) }
        // The target may reach the board through links of its own (`/home/me/board` when /home is a link).
        guard let resolved = FileSystem.realPath(target) else { return FileSystem.exists(target) ? .outside : .missing }
        if resolved == path { return .inside("") }
        if resolved.hasPrefix(path + "/") { return .inside(String(resolved.dropFirst(path.count + 1))) }
        return .outside
    }

    /// The components of `path`, without empty ones (`a//b`, a final `/`).
    static func components(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
