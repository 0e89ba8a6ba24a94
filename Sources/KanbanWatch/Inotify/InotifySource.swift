#if os(Linux)
import Glibc
import KanbanCore

/// Failures to inject into inotify calls, so tests can see the watcher fall back to polling when the
/// system is out of inotify instances (`EMFILE` on init) or watches (`ENOSPC` on add_watch).
struct InotifyFaults: Sendable {
    /// The `errno` that `inotify_init1` fails with, if any.
    var initializeError: Int32?
    /// The `errno` that `inotify_add_watch` fails with for a directory (relative to the board: "" for the
    /// board directory, `cards`, `cards/<column>`, `archive`), if any.
    var addWatchError: (@Sendable (String) -> Int32?)?

    init(initializeError: Int32? = nil, addWatchError: (@Sendable (String) -> Int32?)? = nil) {
        self.initializeError = initializeError
        self.addWatchError = addWatchError
    }
}

/// One inotify event as read from the descriptor.
struct InotifyEvent: Sendable, Hashable {
    var watch: Int32
    var mask: UInt32
    var cookie: UInt32
    var name: String

    func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
}

/// The inotify descriptor and its watches: the board directory, `cards/`, every column directory and
/// `archive/`. It turns raw events into hints for the engine (see ``HintSource``). Lives on the watcher's thread only.
final class InotifySource {
    let descriptor: Int32
    private let root: String
    private let faults: InotifyFaults
    private var directoryByWatch: [Int32: String] = [:]
    private var watchByDirectory: [String: Int32] = [:]
    private var buffer: UnsafeMutableRawBufferPointer
    /// Set when a watch could not be added for lack of resources: the watcher must fall back to polling.
    private(set) var exhaustion: SystemCallError?
    private var isClosed = false
    /// Paths open for writing (`IN_MODIFY` seen, `IN_CLOSE_WRITE` not yet), since when.
    var writing: [String: ContinuousClock.Instant] = [:]
    /// Whether an overflow was reported since the last round, so that it is reported once.
    var overflowNoticed = false

    /// What every watch asks for. `IN_ONLYDIR | IN_DONT_FOLLOW`: a watch never follows a link out of the board.
    static let mask = UInt32(bitPattern: IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(bitPattern: IN_ONLYDIR) | UInt32(bitPattern: IN_DONT_FOLLOW)
        | UInt32(bitPattern: IN_EXCL_UNLINK)

    private init(descriptor: Int32, root: String, faults: InotifyFaults) {
        self.descriptor = descriptor
        self.root = root
        self.faults = faults
        // Room for many events at once; the kernel never splits one event across reads.
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: MemoryLayout<inotify_event>.alignment)
    }

    static func open(root: String, faults: InotifyFaults) -> Result<InotifySource, SystemCallError> {
        if let code = faults.initializeError { return .failure(SystemCallError(call: "inotify_init1", code: code)) }
        return SystemCalls.inotifyInitialize().map { InotifySource(descriptor: $0, root: root, faults: faults) }
    }

    /// Watches the board directory, `cards/` and `archive/`. Column directories are watched as the engine
    /// finds them, before it lists them. Returns false when inotify ran out of resources.
    func watchBoard() -> Bool {
        _ = watch("")
        _ = watch("cards")
        _ = watch(BoardIndex.archiveDirectory)
        return exhaustion == nil && watchByDirectory[""] != nil
    }

    /// Adds a watch on `directory` (relative to the board). A directory that is gone is not an error; a lack
    /// of resources is recorded in ``exhaustion``.
    @discardableResult
    func watch(_ directory: String) -> Bool {
        let path = directory.isEmpty ? root : root + "/" + directory
        let result: Result<Int32, SystemCallError>
        if let code = faults.addWatchError?(directory) {
            result = .failure(SystemCallError(call: "inotify_add_watch", path: path, code: code))
        } else {
            result = SystemCalls.inotifyAddWatch(descriptor, path: path, mask: Self.mask)
        }
        switch result {
        case .success(let watch):
            if let previous = watchByDirectory[directory], previous != watch, directoryByWatch[previous] == directory {
                directoryByWatch[previous] = nil
            }
            // A renamed directory keeps its watch: the same number comes back for the new name.
            directoryByWatch[watch] = directory
            watchByDirectory[directory] = watch
            return true
        case .failure(let error):
            if error.code == ENOSPC || error.code == ENOMEM || error.code == EMFILE || error.code == ENFILE {
                exhaustion = exhaustion ?? error
            }
            return false
        }
    }

    func watchColumn(_ name: String) {
        watch("cards/" + name)
    }

    /// Removes the watches of column directories the engine no longer has.
    func forgetColumns(notIn columns: Set<String>) {
        for (directory, watch) in watchByDirectory where directory.hasPrefix("cards/") {
            guard !columns.contains(String(directory.dropFirst(6))) else { continue }
            watchByDirectory[directory] = nil
            if directoryByWatch[watch] == directory {
                directoryByWatch[watch] = nil
                SystemCalls.inotifyRemoveWatch(descriptor, watch: watch)
            }
        }
    }

    /// Reads every event waiting on the descriptor.
    func readEvents() -> Result<[InotifyEvent], SystemCallError> {
        var events: [InotifyEvent] = []
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let count: Int
            switch SystemCalls.readAvailable(descriptor, into: buffer) {
            case .success(let read): count = read
            case .failure(let error): return .failure(error)
            }
            if count == 0 { break }
            var offset = 0
            while offset + headerSize <= count {
                let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let cookie = buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = offset + headerSize
                guard nameStart + length <= count else { break }
                var name = ""
                if length > 0 {
                    let bytes = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<(nameStart + length)])
                    let end = bytes.firstIndex(of: 0) ?? length
                    name = String(decoding: bytes[..<end], as: UTF8.self)
                }
                events.append(InotifyEvent(watch: watch, mask: mask, cookie: cookie, name: name))
                offset = nameStart + length
            }
        }
        return .success(events)
    }

    /// What one event means for the engine.
    struct Interpretation {
        /// Whether the event is about the board at all (editor litter is not).
        var isRelevant = false
        var isRootLost = false
        var isOverflow = false
    }

    /// Turns `event` into hints in `work`, and keeps `writing` (paths open for writing since when) up to date.
    func interpret(_ event: InotifyEvent, into work: inout PendingWork,
                   writing: inout [String: ContinuousClock.Instant], now: ContinuousClock.Instant) -> Interpretation {
        var result = Interpretation()
        if event.has(IN_Q_OVERFLOW) {
            work.everything = true
            writing.removeAll()
            result.isRelevant = true
            result.isOverflow = true
            return result
        }
        guard let directory = directoryByWatch[event.watch] else { return result }
        let isDirectory = event.has(IN_ISDIR)
        let arrived = event.has(IN_CREATE) || event.has(IN_MOVED_TO)

        if event.has(IN_IGNORED) {
            directoryByWatch[event.watch] = nil
            if watchByDirectory[directory] == event.watch { watchByDirectory[directory] = nil }
        }
        let selfGone = event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) || event.has(IN_IGNORED) || event.has(IN_UNMOUNT)

        switch directory {
        case "":
            if selfGone {
                result.isRootLost = true
                result.isRelevant = true
                return result
            }
            switch event.name {
            case PendingWork.boardFilePath:
                work.paths.insert(PendingWork.boardFilePath)
                result.isRelevant = true
            case "cards":
                if isDirectory && arrived { watch("cards") }
                work.listsColumns = true
                result.isRelevant = true
            case BoardIndex.archiveDirectory:
                if isDirectory && arrived { watch(BoardIndex.archiveDirectory) }
                work.directories.insert(BoardIndex.archiveDirectory)
                result.isRelevant = true
            default:
                break
            }
        case "cards":
            if selfGone {
                work.listsRoot = true
                result.isRelevant = true
            } else if isDirectory || arrived || event.has(IN_DELETE) || event.has(IN_MOVED_FROM) {
                // A column directory (or a link in the place of one) came or went.
                if !(isDirectory && event.has(IN_ATTRIB)) {
                    work.listsColumns = true
                    result.isRelevant = true
                }
            }
        default:
            if selfGone {
                if directory == BoardIndex.archiveDirectory { work.listsRoot = true } else { work.listsColumns = true }
                work.directories.insert(directory)
                result.isRelevant = true
                return result
            }
            guard !isDirectory, CardFile.isCardFileName(event.name) else { return result }
            let path = directory + "/" + event.name
            work.paths.insert(path)
            if event.has(IN_MODIFY) {
                if writing[path] == nil { writing[path] = now }
            }
            if event.has(IN_CLOSE_WRITE) || event.has(IN_DELETE) || event.has(IN_MOVED_FROM) || event.has(IN_MOVED_TO) {
                writing[path] = nil
            }
            result.isRelevant = true
        }
        return result
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        SystemCalls.closeDescriptor(descriptor)
        buffer.deallocate()
    }

    deinit {
        close()
    }
}
#endif
