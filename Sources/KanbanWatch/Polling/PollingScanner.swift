import KanbanCore

/// One polling pass: list every directory of the board and compare each card file's stamp (inode, size,
/// mtime and ctime, in nanoseconds, with `!=`) with the index. Files are read only by the round that
/// follows, and only those whose stamp differs or whose index entry is racily clean.
struct PollingScanner: Sendable {
    /// The board directory, absolute, links resolved.
    var root: String

    /// What differs from `index`.
    func pass(_ index: BoardIndex, now: Int64 = SystemCalls.realtimeNanoseconds()) -> PendingWork {
        var work = PendingWork()
        guard let rootStamp = SystemCalls.linkStamp(root), rootStamp.kind == .directory else {
            work.listsRoot = true
            return work
        }
        let board = index.boardFile
        let boardStamp = SystemCalls.linkStamp(root + "/" + PendingWork.boardFilePath)
        if boardStamp != board.stamp || (boardStamp.map { $0.isRacy(readAt: board.readAt) } ?? false) {
            work.paths.insert(PendingWork.boardFilePath)
        }
        let (columns, links) = columnEntries()
        if columns != index.columns || links != index.columnLinks { work.listsColumns = true }
        for column in columns.intersection(index.columns) {
            compare("cards/" + column, with: index, now: now, into: &work)
        }
        compare(BoardIndex.archiveDirectory, with: index, now: now, into: &work)
        return work
    }

    /// The directories under `cards/` that can be columns (not hidden), and the links there, which are not
    /// followed.
    func columnEntries() -> (directories: Set<String>, links: Set<String>) {
        guard case .success(let entries) = SystemCalls.entries(of: root + "/cards") else { return ([], []) }
        var directories: Set<String> = []
        var links: Set<String> = []
        for entry in entries where !entry.name.hasPrefix(".") && !entry.name.hasPrefix("#") {
            switch entry.kind ?? SystemCalls.linkStamp(root + "/cards/" + entry.name)?.kind {
            case .directory?: directories.insert(entry.name)
            case .symbolicLink?: links.insert(entry.name)
            default: break
            }
        }
        return (directories, links)
    }

    private func compare(_ directory: String, with index: BoardIndex, now: Int64, into work: inout PendingWork) {
        let indexed = index.stamps[directory] ?? [:]
        var seen = 0
        let listed = SystemCalls.forEachStampedEntry(of: root + "/" + directory, where: CardFileName.isCard) { name, stamp in
            guard let record = indexed[name] else {
                work.paths.insert(directory + "/" + name)
                return
            }
            seen += 1
            // A link's own stamp never matches the stamp of the file it leads to, which is what the index
            // holds; the round looks at the target and finds out whether it changed.
            if stamp != record.stamp || record.stamp.isRacy(readAt: record.readAt) {
                work.paths.insert(directory + "/" + name)
            }
        }
        guard listed else {
            work.directories.insert(directory)
            return
        }
        if seen != indexed.count, case .success(let entries) = SystemCalls.entries(of: root + "/" + directory) {
            // Something indexed is gone: which, from the names alone.
            let present = Set(entries.map(\.name))
            for name in indexed.keys where !present.contains(name) {
                work.paths.insert(directory + "/" + name)
            }
        }
    }

    /// The stamps of everything `work` concerns: its paths, and every card file in the directories they are in,
    /// so that two snapshots a settle window apart tell whether the burst of changes is over.
    func snapshot(of work: PendingWork, index: BoardIndex) -> [String: FileStamp] {
        var directories = work.directories
        for path in work.paths where path != PendingWork.boardFilePath {
            directories.insert(BoardIndex.split(path).directory)
        }
        if work.listsColumns || work.listsRoot || work.everything {
            for column in columnEntries().directories { directories.insert("cards/" + column) }
            directories.insert(BoardIndex.archiveDirectory)
        }
        var result: [String: FileStamp] = [:]
        for directory in directories {
            _ = SystemCalls.forEachStampedEntry(of: root + "/" + directory, where: CardFileName.isCard) { name, stamp in
                result[directory + "/" + name] = stamp
            }
        }
        if let stamp = SystemCalls.linkStamp(root + "/" + PendingWork.boardFilePath) { result[PendingWork.boardFilePath] = stamp }
        if let stamp = SystemCalls.linkStamp(root + "/cards") { result["cards"] = stamp }
        return result
    }
}
