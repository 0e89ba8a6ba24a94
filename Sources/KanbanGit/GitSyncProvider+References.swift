import Foundation
import KanbanCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension GitSyncProvider {
    /// Where git keeps what a commit, fetch, push or pull moves: the files a watcher looks at to learn that the
    /// repository's status changed though no card did (`git fetch` in a terminal, a push from another window).
    public struct ReferenceFiles: Sendable {
        /// The repository's git directory (a linked worktree's own one): `HEAD`, `FETCH_HEAD`, `index`.
        public var gitDirectory: String
        /// The directory shared by every worktree: `refs/`, `packed-refs`.
        public var commonDirectory: String

        /// A value that changes when any of those files changes: their sizes, times and inodes, read without
        /// running git (cheap enough to take every second).
        public func stamp() -> [UInt64] {
            var stamps: [UInt64] = []
            func add(_ path: String) {
                var status = stat()
                guard lstat(path, &status) == 0 else {
                    stamps.append(0)
                    return
                }
                #if canImport(Darwin)
                    let time = status.st_mtimespec
                #else
                    let time = status.st_mtim
                #endif
                stamps += [UInt64(truncatingIfNeeded: status.st_size), UInt64(truncatingIfNeeded: time.tv_sec),
                           UInt64(truncatingIfNeeded: time.tv_nsec), UInt64(truncatingIfNeeded: status.st_ino)]
            }
            for name in ["HEAD", "FETCH_HEAD", "ORIG_HEAD", "index"] { add(gitDirectory + "/" + name) }
            add(commonDirectory + "/packed-refs")
            for directory in ["refs/heads", "refs/remotes"] {
                let root = commonDirectory + "/" + directory
                guard let names = FileManager.default.enumerator(atPath: root) else { continue }
                var files: [String] = []
                while let name = names.nextObject() as? String { files.append(name) }
                for name in files.sorted() { add(root + "/" + name) }
            }
            return stamps
        }
    }

    /// The files to watch for the repository's status; nil when the board is in no repository.
    /// - Throws: ``SyncError`` when git fails.
    public func referenceFiles() throws(SyncError) -> ReferenceFiles? {
        guard let repository = try repository() else { return nil }
        var common = repository.gitDirectory
        if let text = try? String(contentsOfFile: common + "/commondir", encoding: .utf8) {
            let relative = text.trimmingCharacters(in: .whitespacesAndNewlines)
            common = relative.hasPrefix("/") ? relative : (common as NSString).appendingPathComponent(relative)
        }
        return ReferenceFiles(gitDirectory: repository.gitDirectory, commonDirectory: (common as NSString).standardizingPath)
    }
}
