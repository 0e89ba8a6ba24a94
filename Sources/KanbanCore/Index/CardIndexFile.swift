#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where a board's ``CardIndex`` is kept, and how it is read and written.
///
/// The file lives outside the board's tree as git and the app see it: in the git directory of the repository the
/// board is in (`.git/kanban-index/`, or a worktree's own git directory), else in a cache directory the caller
/// names; with neither, the board has no index. Its name is made from the board's path, and its header names the
/// board's path, device and inode, so an index of another board (one made again at the same path) is ignored.
///
/// It is written to a temporary file of a name no other writer uses, then renamed over the old one, so a reader
/// sees a whole index or the one before, and two writers racing leave one of theirs. It is never synced to disk:
/// an index lost or torn by a power cut fails its checksums and is rebuilt from the files.
struct CardIndexFile: Sendable {
    /// The index file's path.
    let path: String
    /// The board directory, absolute.
    let boardPath: String
    let boardDevice: UInt64
    let boardInode: UInt64
    /// See ``CardIndex/racyInterval``.
    let racyInterval: Int64

    /// The index file of the board at `boardPath` (absolute, links resolved), or nil when there is nowhere to keep
    /// one (the board is in no git repository and `cacheDirectory` is nil or inside the board).
    init?(boardPath: String, cacheDirectory: String?, racyInterval: Int64 = CardIndex.racyInterval) {
        var info = stat()
        guard stat(boardPath, &info) == 0 else { return nil }
        let name = "index-" + String(CardIndex.hash(boardPath.utf8), radix: 16)
        if let gitDirectory = Self.gitDirectory(enclosing: boardPath) {
            path = gitDirectory + "/kanban-index/" + name
        } else if let cacheDirectory, !cacheDirectory.isEmpty {
            let resolved = FileSystem.realPath(cacheDirectory) ?? cacheDirectory
            guard resolved != boardPath, !resolved.hasPrefix(boardPath + "/") else { return nil }
            path = resolved + "/kanban/" + name
        } else {
            return nil
        }
        self.boardPath = boardPath
        self.racyInterval = racyInterval
        boardDevice = UInt64(info.st_dev)
        boardInode = UInt64(info.st_ino)
    }

    /// Where the board's monitor (`kanban watch`) answers what changed: beside the index, or, when that path is too
    /// long for a socket's address (about a hundred bytes), in a directory of the user's own in `/tmp`
    /// (`/tmp/kanban-<uid>/`, as tmux keeps its sockets), named after the index; nil when neither fits.
    var monitorSocketPath: String? {
        let socket = path + ".monitor"
        if IndexMonitorClient.socketAddress(socket) != nil { return socket }
        let short = "/tmp/kanban-\(getuid())/" + String(CardIndex.hash(path.utf8), radix: 16) + ".monitor"
        return IndexMonitorClient.socketAddress(short) == nil ? nil : short
    }

    /// The directory where the monitor makes the files it waits for the events of.
    var monitorCookieDirectory: String { path + ".cookies" }

    /// The git directory of the repository holding `directory`: the first `.git` on the way up, a directory or a
    /// file saying `gitdir: <path>` (a worktree, a submodule).
    static func gitDirectory(enclosing directory: String) -> String? {
        var current = directory
        while true {
            let candidate = current + "/.git"
            switch FileSystem.kind(of: candidate) {
            case .directory?:
                return candidate
            case .file?:
                guard let bytes = try? FileSystem.readFile(candidate), let text = String(validating: bytes, as: UTF8.self),
                      text.hasPrefix("gitdir:") else { return nil }
                let target = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
                let absolute = target.hasPrefix("/") ? target : current + "/" + target
                return FileSystem.isDirectory(absolute) ? (FileSystem.realPath(absolute) ?? absolute) : nil
            default:
                break
            }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { return nil }
            current = parent
        }
    }

    // MARK: Reading

    /// The index, with the sections of `directories` read (all when nil); nil when there is none, or it is not
    /// whole and of this board and version.
    func read(directories: Set<String>? = nil) -> CardIndex? {
        let descriptor = FileSystem.retrying { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size > 0, var head = Self.read(descriptor, at: 0, count: min(size, 65_536)) else { return nil }
        var parsed = Header.parse(head)
        if case .needsMore = parsed, size > head.count {
            guard let whole = Self.read(descriptor, at: 0, count: size) else { return nil }
            head = whole
            parsed = Header.parse(head)
        }
        guard case .parsed(let header) = parsed, header.boardPath == boardPath, header.boardDevice == boardDevice,
              header.boardInode == boardInode else { return nil }
        // The sections are read, checked and walked on every core, one section each (a column's can be megabytes).
        let wanted = header.sections.filter { directories?.contains($0.directory) ?? true }
        let read = ParallelMap.map(wanted, minimumChunk: 1) { entry -> CardIndex.Section? in
            guard entry.offset + entry.length <= size, let bytes = Self.read(descriptor, at: entry.offset, count: entry.length),
                  bytes.withUnsafeBytes(CardIndex.checksum) == entry.checksum else { return nil }
            return CardIndex.Section(bytes: bytes, count: entry.count)
        }
        var sections: [String: CardIndex.Section] = [:]
        for (entry, section) in zip(wanted, read) {
            guard let section else { return nil }
            sections[entry.directory] = section
        }
        var listings: [String: CardIndex.DirectoryListing] = [:]
        for entry in header.sections {
            // A listing that fails its checksum is only left out: the directory is listed again.
            if let listing = entry.listing, listing.keysOffset + listing.keyCount * 8 <= size,
               let bytes = Self.read(descriptor, at: listing.keysOffset, count: listing.keyCount * 8),
               bytes.withUnsafeBytes(CardIndex.checksum) == listing.keysChecksum {
                let keys = bytes.withUnsafeBytes { raw in
                    (0..<listing.keyCount).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
                }
                listings[entry.directory] = CardIndex.DirectoryListing(stamp: listing.stamp, nameKeys: keys)
            }
        }
        return CardIndex(builtAt: header.builtAt, sections: sections, directories: Set(header.sections.map(\.directory)),
                         racyInterval: racyInterval, listings: listings, monitorToken: header.monitorToken)
    }

    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var ok = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let got = FileSystem.retrying { pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done)) }
                if got <= 0 {
                    ok = false
                    break
                }
                done += got
            }
            // Bytes a short read left unset are never looked at: the array is thrown away.
            initialized = ok ? count : done
        }
        return ok ? bytes : nil
    }

    /// The fixed part of the file.
    struct Header {
        struct SectionEntry {
            var directory: String
            var offset: Int
            var length: Int
            var count: Int
            var checksum: UInt64
            var listing: ListingEntry?
        }

        /// Where a directory's ``CardIndex/DirectoryListing`` is kept.
        struct ListingEntry {
            var stamp: FileStamp
            var keysOffset: Int
            var keyCount: Int
            var keysChecksum: UInt64
        }

        var builtAt: Int64
        var boardPath: String
        var boardDevice: UInt64
        var boardInode: UInt64
        var monitorToken: String?
        var sections: [SectionEntry]

        enum Parsed {
            case parsed(Header)
            /// The header runs past the bytes given.
            case needsMore
            case invalid
        }

        static func parse(_ bytes: [UInt8]) -> Parsed {
            bytes.withUnsafeBytes { raw -> Parsed in
                var cursor = Cursor(raw: raw)
                guard raw.count >= 8, raw.prefix(8).elementsEqual(CardIndex.magic) else { return .invalid }
                cursor.offset = 8
                guard let version = cursor.integer(UInt32.self) else { return .needsMore }
                guard version == CardIndex.version else { return .invalid }
                guard let count = cursor.integer(UInt32.self), let builtAt = cursor.integer(Int64.self),
                      let device = cursor.integer(UInt64.self), let inode = cursor.integer(UInt64.self),
                      let boardPath = cursor.string(), let token = cursor.string() else { return cursor.isShort ? .needsMore : .invalid }
                guard count <= 100_000 else { return .invalid }
                var sections: [SectionEntry] = []
                for _ in 0..<count {
                    guard let directory = cursor.string(), let offset = cursor.integer(UInt64.self), let length = cursor.integer(UInt64.self),
                          let entries = cursor.integer(UInt32.self), let checksum = cursor.integer(UInt64.self)
                    else { return cursor.isShort ? .needsMore : .invalid }
                    guard offset < UInt64(Int.max / 2), length < UInt64(Int.max / 2) else { return .invalid }
                    guard let hasListing = cursor.integer(UInt8.self) else { return .needsMore }
                    var listing: ListingEntry?
                    if hasListing != 0 {
                        guard let size = cursor.integer(Int64.self), let modified = cursor.integer(Int64.self),
                              let changed = cursor.integer(Int64.self), let inode = cursor.integer(UInt64.self),
                              let device = cursor.integer(UInt64.self), let keysOffset = cursor.integer(UInt64.self),
                              let keyCount = cursor.integer(UInt32.self), let keysChecksum = cursor.integer(UInt64.self)
                        else { return .needsMore }
                        guard keysOffset < UInt64(Int.max / 2) else { return .invalid }
                        listing = ListingEntry(stamp: FileStamp(size: size, modified: modified, changed: changed, inode: inode, device: device),
                                               keysOffset: Int(keysOffset), keyCount: Int(keyCount), keysChecksum: keysChecksum)
                    }
                    sections.append(SectionEntry(directory: directory, offset: Int(offset), length: Int(length), count: Int(entries),
                                                 checksum: checksum, listing: listing))
                }
                let checked = cursor.offset
                guard let stored = cursor.integer(UInt64.self) else { return .needsMore }
                guard CardIndex.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<checked])) == stored else { return .invalid }
                return .parsed(Header(builtAt: builtAt, boardPath: boardPath, boardDevice: device, boardInode: inode,
                                      monitorToken: token.isEmpty ? nil : token, sections: sections))
            }
        }

        private struct Cursor {
            let raw: UnsafeRawBufferPointer
            var offset = 0
            var isShort = false

            mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
                let size = MemoryLayout<T>.size
                guard offset + size <= raw.count else { isShort = true; return nil }
                defer { offset += size }
                return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
            }

            mutating func string() -> String? {
                guard let length = integer(UInt32.self).map(Int.init) else { return nil }
                guard length <= 1 << 20 else { return nil }
                guard offset + length <= raw.count else { isShort = true; return nil }
                defer { offset += length }
                return String(decoding: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)]), as: UTF8.self)
            }
        }
    }

    // MARK: Writing

    /// The entries of a new index, by directory, in pieces: runs of an old index's section and new entries, put
    /// one after another only as they are written.
    struct Contents: Sendable {
        var sections: [String: (pieces: [ArraySlice<UInt8>], count: Int)] = [:]
        /// What each directory held when listed (none for a directory not listed as a whole).
        var listings: [String: CardIndex.DirectoryListing] = [:]
        /// See ``CardIndex/monitorToken``.
        var monitorToken: String?

        mutating func append(_ entry: some Collection<UInt8>, to directory: String) {
            sections[directory, default: ([], 0)].pieces.append(ArraySlice(entry))
            sections[directory, default: ([], 0)].count += 1
        }

        /// Makes `directory`'s section `bytes`, holding `count` entries.
        mutating func set(_ directory: String, bytes: some Collection<UInt8>, count: Int) {
            sections[directory] = ([ArraySlice(bytes)], count)
        }

        /// Makes sure `directory` has a section, empty if nothing is added to it.
        mutating func touch(_ directory: String) {
            if sections[directory] == nil { sections[directory] = ([], 0) }
        }
    }

    /// The bytes of the index file holding `contents`, built at `builtAt`: the header, the sections, then the name
    /// keys of the directory listings, in pieces (a section is not copied to make one array).
    func pieces(of contents: Contents, builtAt: Int64) -> [ArraySlice<UInt8>] {
        let directories = contents.sections.keys.sorted()
        var header = EntryWriter()
        header.bytes += CardIndex.magic
        header.integer(CardIndex.version)
        header.integer(UInt32(directories.count))
        header.integer(builtAt)
        header.integer(boardDevice)
        header.integer(boardInode)
        header.string(boardPath)
        header.string(contents.monitorToken ?? "")
        var headerLength = header.bytes.count + 8
        for directory in directories {
            headerLength += 4 + directory.utf8.count + 8 + 8 + 4 + 8 + 1
            if contents.listings[directory] != nil { headerLength += 40 + 8 + 4 + 8 }
        }
        let lengths = directories.map { contents.sections[$0]!.pieces.reduce(0) { $0 + $1.count } }
        // Each section's checksum on a core of its own (a first index of a big board checksums megabytes).
        let sectionChecksums = ParallelMap.map(Array(directories.indices), minimumChunk: 1) { number in
            CardIndex.checksum(of: contents.sections[directories[number]]!.pieces, length: lengths[number])
        }
        var offset = headerLength
        var keysOffset = headerLength + lengths.reduce(0, +)
        var keys: [UInt8] = []
        for (number, (directory, length)) in zip(directories, lengths).enumerated() {
            let section = contents.sections[directory]!
            header.string(directory)
            header.integer(UInt64(offset))
            header.integer(UInt64(length))
            header.integer(UInt32(section.count))
            header.integer(sectionChecksums[number])
            offset += length
            guard let listing = contents.listings[directory] else {
                header.bytes.append(0)
                continue
            }
            header.bytes.append(1)
            header.integer(listing.stamp.size)
            header.integer(listing.stamp.modified)
            header.integer(listing.stamp.changed)
            header.integer(listing.stamp.inode)
            header.integer(listing.stamp.device)
            var block = EntryWriter()
            block.bytes = [UInt8](unsafeUninitializedCapacity: listing.nameKeys.count * 8) { buffer, initialized in
                for (number, key) in listing.nameKeys.enumerated() {
                    UnsafeMutableRawBufferPointer(buffer).storeBytes(of: key.littleEndian, toByteOffset: number * 8, as: UInt64.self)
                }
                initialized = listing.nameKeys.count * 8
            }
            header.integer(UInt64(keysOffset))
            header.integer(UInt32(listing.nameKeys.count))
            header.integer(block.bytes.withUnsafeBytes(CardIndex.checksum))
            keysOffset += block.bytes.count
            keys += block.bytes
        }
        header.integer(header.bytes.withUnsafeBytes(CardIndex.checksum))
        return [header.bytes[...]] + directories.flatMap { contents.sections[$0]!.pieces } + [keys[...]]
    }

    /// Writes the index holding `contents` in place of the one there, atomically; an index that cannot be written
    /// is no error (the board reads the same without it).
    func write(_ contents: Contents, builtAt: Int64) {
        Self.replace(path, with: pieces(of: contents, builtAt: builtAt))
    }

    /// Puts `pieces` in the file at `path` in place of what was there, atomically: written to a temporary file of a
    /// name no other writer uses, then renamed over it, so a reader sees the whole new file or the old one, and two
    /// writers racing leave one of theirs. Makes the directory if needed and removes temporaries of writers killed
    /// half-way. A file that cannot be written is no error (the board index and the history cache are rebuilt);
    /// nothing is synced to disk, so a file torn by a power cut must fail its checksum.
    static func replace(_ path: String, with pieces: [ArraySlice<UInt8>]) {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileSystem.makeDirectory(directory)
        let prefix = "." + (path as NSString).lastPathComponent + "."
        removeAbandonedTemporaries(in: directory, prefix: prefix)
        let temporary = "\(directory)/\(prefix)\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = FileSystem.retrying { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { return }
        func send(_ bytes: some Collection<UInt8>) -> Bool {
            bytes.withContiguousStorageIfAvailable { buffer -> Bool in
                var written = 0
                while written < buffer.count {
                    let count = FileSystem.retrying { Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written) }
                    if count <= 0 { return false }
                    written += count
                }
                return true
            } ?? send(Array(bytes))
        }
        // Small pieces (single entries of a changed index) are gathered into writes of a megabyte or so.
        var pending: [UInt8] = []
        var complete = true
        for piece in pieces where complete {
            if piece.count < 65_536 {
                if pending.isEmpty { pending.reserveCapacity(1 << 20) }
                pending += piece
                if pending.count >= 1 << 20 {
                    complete = send(pending)
                    pending.removeAll(keepingCapacity: true)
                }
            } else {
                complete = (pending.isEmpty || send(pending)) && send(piece)
                pending.removeAll(keepingCapacity: true)
            }
        }
        if complete && !pending.isEmpty { complete = send(pending) }
        close(descriptor)
        if !complete || rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// Removes the temporary files of writes whose process is gone (killed half-way): `<prefix><pid>.<random>.tmp`
    /// (the history cache's too).
    static func removeAbandonedTemporaries(in directory: String, prefix: String) {
        guard let entries = try? FileSystem.OpenDirectory(directory)?.entries() else { return }
        for entry in entries where entry.name.hasPrefix(prefix) && entry.name.hasSuffix(".tmp") {
            let fields = entry.name.dropFirst(prefix.count).split(separator: ".")
            guard let pid = fields.first.flatMap({ pid_t($0) }), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory + "/" + entry.name)
        }
    }

    /// Removes the index file (nothing when there is none).
    func remove() {
        unlink(path)
    }
}
