#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A change to one or more files of a board, made all or nothing: the files to write and to remove, each with its
/// bytes before and after.
///
/// ``BoardStore`` makes every change this way. ``BoardJournal`` records the whole transaction before the first file
/// changes, so that a process killed half-way leaves a record from which the next command finishes the change or
/// undoes it (see ``BoardJournal/recover(in:)``).
struct BoardTransaction: Sendable, Equatable {
    /// One file's change.
    struct Step: Sendable, Equatable {
        /// The path relative to the board.
        var path: String
        /// The bytes before the change; nil when the file did not exist (it is created).
        var before: [UInt8]?
        /// The bytes after the change; nil when the file is removed.
        var after: [UInt8]?
    }

    /// What the change is, in a few words (`move fix-login to done`), for a person reading about an interrupted one.
    var summary: String
    /// The files, each once, in the order they were added.
    private(set) var steps: [Step] = []

    init(_ summary: String) {
        self.summary = summary
    }

    init(summary: String, steps: [Step]) {
        self.summary = summary
        self.steps = steps
    }

    /// The bytes this transaction writes to `path`, when it writes it.
    func contents(of path: String) -> [UInt8]? {
        steps.first { $0.path == path }?.after
    }

    /// Writes `bytes` to `path`, whose current bytes are `before` (nil: a new file).
    mutating func write(_ bytes: [UInt8], to path: String, replacing before: [UInt8]?) {
        if let index = steps.firstIndex(where: { $0.path == path }) {
            steps[index].after = bytes
        } else {
            steps.append(Step(path: path, before: before, after: bytes))
        }
        dropUnchanged(path)
    }

    /// Removes `path`, whose current bytes are `before`.
    mutating func remove(_ path: String, before: [UInt8]) {
        if let index = steps.firstIndex(where: { $0.path == path }) {
            steps[index].after = nil
        } else {
            steps.append(Step(path: path, before: before, after: nil))
        }
        dropUnchanged(path)
    }

    /// A step that leaves a file as it was is no step.
    private mutating func dropUnchanged(_ path: String) {
        steps.removeAll { $0.path == path && $0.before == $0.after }
    }

    /// Whether the transaction changes nothing.
    var isEmpty: Bool { steps.isEmpty }

    /// The files written or created, in order.
    var writtenPaths: [String] { steps.filter { $0.after != nil }.map(\.path) }

    /// The files removed, in order.
    var removedPaths: [String] { steps.filter { $0.after == nil }.map(\.path) }
}

/// The record of a transaction in progress: `.kanban-journal` in the board directory, written (atomically, flushed
/// to disk) before the first file of the transaction changes and removed after the last, the way SQLite keeps a
/// rollback journal and git a lock file.
///
/// A command killed at any point leaves either no journal (nothing had changed yet, or everything had) or the
/// whole journal; the next command that changes the board, or that reads it while no one holds the lock, finds it
/// and settles the change (``recover(in:)``):
/// - when every file is as it was before or as it is meant to be after, the change is **finished**;
/// - when some file is neither (a person edited it since), the change is **undone**: the files already changed are
///   put back as they were, and the edited ones are left as the person left them. Nothing anyone wrote is lost, and
///   no card is left in two places.
///
/// The hidden temporary files the transaction writes through (``FileSystem/temporaryName(for:)``) are removed with it.
enum BoardJournal {
    /// The journal's name in the board directory.
    static let name = ".kanban-journal"
    /// Where a journal that cannot be read is put aside (and reported by the checks).
    static let damagedName = ".kanban-journal.damaged"

    /// What settling an interrupted change did.
    struct Recovery: Sendable, Hashable {
        /// Whether the change was finished, or undone because a file had been edited since.
        enum Outcome: String, Sendable, Hashable {
            case finished, undone
        }
        /// What the change was (`move fix-login to done`).
        var summary: String
        var outcome: Outcome
        /// Files edited since the change was interrupted, left as they are.
        var editedPaths: [String]
    }

    // MARK: Applying

    /// Makes `transaction`'s changes in `root`: records it, writes the new files, removes the old ones, flushes
    /// the directories, and removes the record. On a failure the files already changed are put back and the error
    /// is thrown.
    static func apply(_ transaction: BoardTransaction, in root: BoardRoot) throws(KanbanError) {
        guard !transaction.isEmpty else { return }
        try root.directory.writeAtomically(encode(transaction), to: name, path: name)
        root.directory.synchronize()
        do {
            // New and rewritten files first: whoever looks without the journal sees a card twice, never not at all.
            for step in transaction.steps {
                guard let after = step.after else { continue }
                if step.before == nil {
                    try root.create(after, at: step.path)
                } else {
                    try root.write(after, to: step.path)
                }
            }
            for step in transaction.steps where step.after == nil {
                try root.remove(step.path)
            }
            synchronizeDirectories(of: transaction, in: root)
        } catch {
            _ = try? settle(transaction, in: root, forcingUndo: true)
            try? root.directory.remove(name, path: name)
            throw error
        }
        try root.directory.remove(name, path: name)
    }

    // MARK: Recovering

    /// Whether a journal (or the beginning of one) is in `root`: one `fstatat` each, cheap enough for every read.
    static func isPresent(in root: BoardRoot) -> Bool {
        root.directory.kind(of: name) != nil || root.directory.kind(of: FileSystem.temporaryName(for: name)) != nil
    }

    /// Settles a change a killed process left half done, if there is one; see the type's description.
    /// The caller holds the board's lock.
    static func recover(in root: BoardRoot) throws(KanbanError) -> Recovery? {
        // A journal never completed: nothing had changed yet.
        try root.directory.remove(FileSystem.temporaryName(for: name), path: name)
        guard let bytes = try root.directory.readRegularFile(name, path: name) else { return nil }
        guard let transaction = decode(bytes) else {
            if renameat(root.directory.descriptor, name, root.directory.descriptor, damagedName) != 0 {
                throw FileSystem.error("put aside", name, errno: errno)
            }
            return nil
        }
        let recovery = try settle(transaction, in: root, forcingUndo: false)
        try root.directory.remove(name, path: name)
        return recovery
    }

    /// Brings every file of `transaction` to its state after (or, when undoing, before) the change.
    private static func settle(_ transaction: BoardTransaction, in root: BoardRoot, forcingUndo: Bool) throws(KanbanError) -> Recovery {
        var current: [[UInt8]?] = []
        for step in transaction.steps {
            current.append(try? root.readIfPresent(step.path))
        }
        let edited = zip(transaction.steps, current).filter { step, bytes in bytes != step.before && bytes != step.after }.map(\.0.path)
        let undo = forcingUndo || !edited.isEmpty
        // Creations and rewrites before removals, in both directions.
        let order = transaction.steps.indices.sorted { lhs, rhs in
            let left = undo ? transaction.steps[lhs].before : transaction.steps[lhs].after
            let right = undo ? transaction.steps[rhs].before : transaction.steps[rhs].after
            return (left != nil ? 0 : 1, lhs) < (right != nil ? 0 : 1, rhs)
        }
        for index in order {
            let step = transaction.steps[index]
            guard !edited.contains(step.path) else { continue }
            let target = undo ? step.before : step.after
            if current[index] == target { continue }
            if let target {
                try root.write(target, to: step.path)
            } else {
                try root.remove(step.path)
            }
        }
        for step in transaction.steps {
            if let place = try? root.place(of: step.path, followingLink: false) {
                try? place.directory.remove(FileSystem.temporaryName(for: place.name), path: step.path)
            }
        }
        synchronizeDirectories(of: transaction, in: root)
        return Recovery(summary: transaction.summary, outcome: undo ? .undone : .finished, editedPaths: edited)
    }

    private static func synchronizeDirectories(of transaction: BoardTransaction, in root: BoardRoot) {
        var seen: Set<String> = []
        for step in transaction.steps {
            let parent = BoardRoot.components(step.path).dropLast().joined(separator: "/")
            if seen.insert(parent).inserted, let directory = try? root.openDirectory(parent) { directory.synchronize() }
        }
    }

    // MARK: The record

    private static let magic = "kanban-journal 1"

    /// The journal's bytes: a header line, the summary, then each step's path and its bytes before and after, each
    /// as `<label> <length>` (`-` for none) followed by that many bytes and a line feed, and a checksum of it all.
    static func encode(_ transaction: BoardTransaction) -> [UInt8] {
        var bytes = Array((magic + "\n").utf8)
        func field(_ label: String, _ value: [UInt8]?) {
            bytes += Array("\(label) \(value.map { String($0.count) } ?? "-")\n".utf8)
            if let value { bytes += value + [0x0A] }
        }
        field("summary", Array(transaction.summary.utf8))
        bytes += Array("steps \(transaction.steps.count)\n".utf8)
        for step in transaction.steps {
            field("path", Array(step.path.utf8))
            field("before", step.before)
            field("after", step.after)
        }
        bytes += Array("checksum \(String(checksum(bytes), radix: 16))\n".utf8)
        return bytes
    }

    /// The transaction a journal records, or nil when the bytes are not a whole, intact journal.
    static func decode(_ bytes: [UInt8]) -> BoardTransaction? {
        var offset = 0
        func line() -> String? {
            guard let end = bytes[offset...].firstIndex(of: 0x0A) else { return nil }
            defer { offset = end + 1 }
            return String(decoding: bytes[offset..<end], as: UTF8.self)
        }
        func field(_ label: String) -> [UInt8]?? {
            guard let header = line(), header.hasPrefix(label + " ") else { return nil }
            let length = header.dropFirst(label.count + 1)
            if length == "-" { return .some(nil) }
            guard let count = Int(length), count >= 0, offset + count < bytes.count, bytes[offset + count] == 0x0A else { return nil }
            defer { offset += count + 1 }
            return .some(Array(bytes[offset..<(offset + count)]))
        }
        guard line() == magic, case .some(.some(let summary)) = field("summary"),
              let stepsLine = line(), stepsLine.hasPrefix("steps "), let count = Int(stepsLine.dropFirst(6)), count >= 0 else { return nil }
        var steps: [BoardTransaction.Step] = []
        for _ in 0..<count {
            guard case .some(.some(let path)) = field("path"), case .some(let before) = field("before"),
                  case .some(let after) = field("after") else { return nil }
            steps.append(BoardTransaction.Step(path: String(decoding: path, as: UTF8.self), before: before, after: after))
        }
        let checked = offset
        guard let sum = line(), sum == "checksum \(String(checksum(Array(bytes[0..<checked])), radix: 16))", offset == bytes.count else { return nil }
        return BoardTransaction(summary: String(decoding: summary, as: UTF8.self), steps: steps)
    }

    /// FNV-1a, 64 bits: enough to tell a whole journal from a damaged one.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
