#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A cache of what a board's card files say, validated by each file's stat data, in the manner of git's index: a
/// file whose ``FileStamp`` matches its entry is not read again, anything else is.
///
/// The files stay the truth. An entry is used only when the file's size, modification and change times (in
/// nanoseconds), inode and device all match, and only when the file last changed well before the index was built
/// (git's "racily clean" rule: a file changed in the same clock tick as it was read could change again without its
/// stamp changing). Only cards the checks have nothing to say about are kept, so a card with findings is always
/// read, and reported, as without the index.
///
/// The file is kept outside the board's tree (see ``CardIndexFile``): a header (magic, version, the board's path,
/// device and inode, the time it was built, the board monitor's token (``IndexMonitorAnswer``), a table of sections with a checksum each, and a checksum of the header
/// itself), then one section for each directory of cards (`cards/<column>`, `archive`). A file that is missing,
/// short, corrupt, of another version or of another board is ignored whole; a section whose checksum fails is
/// ignored whole.
final class CardIndex: Sendable {
    static let magic = Array("KANBANIX".utf8)
    static let version: UInt32 = 4
    /// How long before the index was built a file must have last changed for its entry to be trusted: well above
    /// the granularity of any file system's time stamps (a second for some, two for FAT).
    static let racyInterval: Int64 = 2_000_000_000

    /// When the index was built (before any file it holds was looked at), nanoseconds since 1970.
    let builtAt: Int64
    /// The sections read, by directory (`cards/<column>`, `archive`).
    let sections: [String: Section]
    /// Every directory the file has a section for, read or not.
    let directories: Set<String>
    /// How long before ``builtAt`` a file must have last changed for its entry to be trusted.
    let racyInterval: Int64
    /// What the index knows of each directory as a whole, by directory (all of them, read or not).
    let listings: [String: DirectoryListing]
    /// The token of the board monitor's answer the index holds good from (see ``IndexMonitorAnswer``): every entry
    /// matches its file, or the file changed after it. Nil when no monitor answered.
    let monitorToken: String?

    init(builtAt: Int64, sections: [String: Section], directories: Set<String>, racyInterval: Int64 = CardIndex.racyInterval,
         listings: [String: DirectoryListing] = [:], monitorToken: String? = nil) {
        self.builtAt = builtAt
        self.monitorToken = monitorToken
        self.sections = sections
        self.directories = directories
        self.racyInterval = racyInterval
        self.listings = listings
    }

    /// Whether an entry with `stamp` may be used: the file had stopped changing before the index was built.
    func trusts(_ stamp: FileStamp) -> Bool {
        stamp.latest < builtAt - racyInterval
    }

    /// What a directory held when it was last listed, in the manner of git's untracked cache: a directory whose
    /// stamp is unchanged has had no entry added, removed or renamed since (each of those changes the directory's
    /// modification and change times), so its names are known without listing it again. An edit of a file in
    /// place does not change its directory, which is why the names are all this tells.
    struct DirectoryListing: Sendable, Equatable {
        /// The directory's stamp, taken before it was listed.
        var stamp: FileStamp
        /// ``CardIndex/nameKey(ofSlug:)`` of every card file listed (a link too), sorted.
        var nameKeys: [UInt64]

        /// Whether a card file whose slug has the key `key` was listed (a different name with the same hash answers
        /// yes too, which only makes a new slug take a number).
        func holds(_ key: UInt64) -> Bool {
            var low = 0
            var high = nameKeys.count
            while low < high {
                let middle = (low + high) / 2
                if nameKeys[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low < nameKeys.count && nameKeys[low] == key
        }
    }

    /// The listing of `directory` (open as `descriptor`) when the index may stand in for listing it again: its stamp
    /// is the one the index has, and the directory had stopped changing before the index was built.
    func listing(of directory: String, descriptor: Int32) -> DirectoryListing? {
        guard let listing = listings[directory], trusts(listing.stamp) else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, FileStamp(info) == listing.stamp else { return nil }
        return listing
    }

    /// The key under which two slugs collide (``Slug/collisionKey(_:)``, hashed eight bytes at a time): a slug in
    /// plain ASCII is folded here, a word at a time, without making a string.
    static func nameKey(ofSlug slug: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // `A`...`Z` made lowercase: a byte at 0x41 or more (0x3F added sets its high bit) and below 0x5B (0x25 added
        // does not) gets 0x20 added (its high bit moved down two places).
        func lowercased(_ word: UInt64) -> UInt64 {
            let upper = (word &+ 0x3F &* ones) & ~(word &+ 0x25 &* ones) & highs
            return word | upper >> 2
        }
        guard let base = slug.baseAddress, !slug.isEmpty else { return mixed(UnsafeRawBufferPointer(slug), word: { $0 }) }
        var ascii = true
        var offset = 0
        while offset + 8 <= slug.count {
            if UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & highs != 0 { ascii = false; break }
            offset += 8
        }
        while ascii && offset < slug.count { ascii = base[offset] < 0x80; offset += 1 }
        guard ascii else {
            var key = Slug.collisionKey(String(decoding: slug, as: UTF8.self))
            return key.withUTF8 { mixed(UnsafeRawBufferPointer($0), word: { $0 }) }
        }
        return mixed(UnsafeRawBufferPointer(slug), word: lowercased)
    }

    /// A hash of `bytes` taken eight at a time, each word passed through `word` first (the last padded with zeros).
    private static func mixed(_ bytes: UnsafeRawBufferPointer, word: (UInt64) -> UInt64) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ word(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
            hash = (hash ^ word(tail)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
        }
        hash = hash &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 32)
    }

    static func nameKey(ofSlug slug: String) -> UInt64 {
        var slug = slug
        return slug.withUTF8 { nameKey(ofSlug: $0) }
    }

    /// The number of entries in the sections read.
    var count: Int { sections.values.reduce(0) { $0 + $1.count } }

    /// The entries of one directory, with a hash table on their names made when a name is first looked up (a load
    /// that takes the names from the index, in its order, never looks one up).
    struct Section: Sendable {
        /// The entries, one after another; each starts with its length.
        let bytes: [UInt8]
        /// Where each entry starts.
        let starts: [Int]
        /// Open addressing on the hash of the name: entry number + 1, 0 for an empty slot.
        private let names = NameTable()

        var count: Int { starts.count }

        /// The section in `bytes`, or nil when its entries do not fit together.
        init?(bytes: [UInt8], count: Int) {
            var starts: [Int] = []
            starts.reserveCapacity(count)
            var offset = 0
            let ok = bytes.withUnsafeBytes { raw -> Bool in
                while offset < raw.count {
                    guard offset + 4 <= raw.count else { return false }
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
                    guard length >= EntryLayout.minimumLength, offset + length <= raw.count,
                          EntryLayout.name(in: raw, at: offset).map({ offset + 6 + $0.count <= offset + length }) == true else { return false }
                    starts.append(offset)
                    offset += length
                }
                return true
            }
            guard ok, starts.count == count else { return nil }
            self.bytes = bytes
            self.starts = starts
        }

        /// The hash table on the entries' names.
        private func table() -> [Int32] {
            names.table {
                var size = 16
                while size < starts.count * 2 { size <<= 1 }
                var table = [Int32](repeating: 0, count: size)
                bytes.withUnsafeBytes { raw in
                    for (number, start) in starts.enumerated() {
                        guard let name = EntryLayout.name(in: raw, at: start) else { continue }  // checked by init
                        var slot = Int(truncatingIfNeeded: CardIndex.hash(name)) & (size - 1)
                        while table[slot] != 0 { slot = (slot + 1) & (size - 1) }
                        table[slot] = Int32(number + 1)
                    }
                }
                return table
            }
        }

        /// Where the entry for the file `name` starts, or nil when there is none.
        func entry(named name: UnsafeRawBufferPointer) -> Int? {
            let table = table()
            let mask = table.count - 1
            var slot = Int(truncatingIfNeeded: CardIndex.hash(name)) & mask
            return bytes.withUnsafeBytes { raw -> Int? in
                while true {
                    let number = Int(table[slot])
                    if number == 0 { return nil }
                    let start = starts[number - 1]
                    if let stored = EntryLayout.name(in: raw, at: start), stored.elementsEqual(name) { return start }
                    slot = (slot + 1) & mask
                }
            }
        }

        func entry(named name: String) -> Int? {
            var name = name
            return name.withUTF8 { entry(named: UnsafeRawBufferPointer($0)) }
        }

        /// The raw bytes of the entry at `start`, to carry into the next index unchanged.
        func rawEntry(at start: Int) -> ArraySlice<UInt8> {
            let length = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt32.self) }.littleEndian)
            return bytes[start..<(start + length)]
        }

        /// The stamp of the entry at `start`.
        func stamp(at start: Int) -> FileStamp? {
            bytes.withUnsafeBytes { raw in
                var reader = EntryReader(raw, at: start)
                return reader.skipToStamp() ? reader.stamp() : nil
            }
        }

        /// The name of the entry at `start`.
        func name(at start: Int) -> String? {
            bytes.withUnsafeBytes { raw in EntryLayout.name(in: raw, at: start).map { String(decoding: $0, as: UTF8.self) } }
        }

        /// The card the entry at `start` holds, for `file`; nil when the entry does not decode.
        func card(at start: Int, file: CardFile) -> Card? {
            bytes.withUnsafeBytes { raw in
                var reader = EntryReader(raw, at: start)
                return reader.card(file: file)
            }
        }

        /// The digest of the body the entry at `start` was made from.
        func bodyDigest(at start: Int) -> UInt64? {
            bytes.withUnsafeBytes { raw in
                var reader = EntryReader(raw, at: start)
                guard reader.skipToStamp(), reader.stamp() != nil else { return nil }
                return reader.integer(UInt64.self)
            }
        }

        /// `body` with the title of the entry at `start`, in place (nil when the entry does not decode).
        func withTitle<R>(at start: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
            bytes.withUnsafeBytes { raw in
                var reader = EntryReader(raw, at: start)
                return body(reader.title().map { $0.assumingMemoryBound(to: UInt8.self) })
            }
        }

        /// Just the position of the entry at `start` (`.some(nil)`: the card has none); nil when it does not decode.
        func position(at start: Int) -> String?? {
            bytes.withUnsafeBytes { raw in
                var reader = EntryReader(raw, at: start)
                return reader.position()
            }
        }
    }

    // MARK: Hashing

    /// FNV-1a, for names in the hash tables and the index's file name.
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// ``checksum(_:)`` of `pieces` put one after another (`length` bytes in all), without putting them together.
    static func checksum(of pieces: [ArraySlice<UInt8>], length: Int) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(length)
        // Bytes of a word that a piece ended in the middle of, little-endian, and how many.
        var carry: UInt64 = 0
        var carried: UInt64 = 0
        for piece in pieces {
            piece.withUnsafeBytes { bytes in
                var offset = 0
                while carried > 0 && carried < 8 && offset < bytes.count {
                    carry |= UInt64(bytes[offset]) << (8 * carried)
                    carried += 1
                    offset += 1
                }
                if carried == 8 {
                    hash = ((hash ^ carry) &* 0xFF51_AFD7_ED55_8CCD)
                    hash ^= hash >> 29
                    carry = 0
                    carried = 0
                }
                while offset + 8 <= bytes.count {
                    let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    hash = ((hash ^ word) &* 0xFF51_AFD7_ED55_8CCD)
                    hash ^= hash >> 29
                    offset += 8
                }
                while offset < bytes.count {
                    carry |= UInt64(bytes[offset]) << (8 * carried)
                    carried += 1
                    offset += 1
                }
            }
        }
        hash = (hash ^ carry) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 32)
    }

    /// A checksum of `bytes` that a torn or altered write fails, eight bytes at a time.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            hash = ((hash ^ word) &* 0xFF51_AFD7_ED55_8CCD)
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 32)
    }
}

// MARK: Entries

/// How an entry is laid out (little-endian throughout):
///
/// `u32` length of the whole entry · `u16` name length, the name (the file name in its directory) · the stamp
/// (`i64` size, `i64` modified ns, `i64` changed ns, `u64` inode, `u64` device) · `u64` body digest · `u8` flags ·
/// `f64` created, `f64` modified · strings (`u32` length, bytes): title, column, then column field, position and
/// archive date when the flags say · `u32` label count and the labels · `u32` field count and the fields (key
/// string, then a value: `u8` 0 scalar (`u8` style, string), 1 list (`u32` count, values), 2 map (`u32` count, key
/// and value each)).
enum EntryLayout {
    static let minimumLength = 4 + 2 + 40 + 8 + 1 + 16

    enum Flag {
        static let hasFrontmatter: UInt8 = 1
        static let hasColumnField: UInt8 = 2
        static let hasPosition: UInt8 = 4
        static let hasCreated: UInt8 = 8
        static let hasModified: UInt8 = 16
    }

    /// The name of the entry at `start`, in place.
    static func name(in raw: UnsafeRawBufferPointer, at start: Int) -> UnsafeRawBufferPointer? {
        guard start + 6 <= raw.count else { return nil }
        let length = Int(raw.loadUnaligned(fromByteOffset: start + 4, as: UInt16.self).littleEndian)
        guard start + 6 + length <= raw.count else { return nil }
        return UnsafeRawBufferPointer(rebasing: raw[(start + 6)..<(start + 6 + length)])
    }

    /// The entry for `card`, read from the file `name` whose stamp, taken before it was read, is `stamp`.
    static func encode(_ card: Card, name: String, stamp: FileStamp, bodyDigest: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(card, name: name, stamp: stamp, bodyDigest: bodyDigest, appendingTo: &bytes)
        return bytes
    }

    /// Appends the entry for `card` to `bytes` (a section being gathered), making no array of its own.
    static func encode(_ card: Card, name: String, stamp: FileStamp, bodyDigest: UInt64, appendingTo bytes: inout [UInt8]) {
        var name = name
        name.withUTF8 { encode(card, name: UnsafeRawBufferPointer($0), stamp: stamp, bodyDigest: bodyDigest, appendingTo: &bytes) }
    }

    /// The same with the file name's UTF-8 bytes: its length is worked out first, and every part stored in place (a
    /// first index encodes a hundred thousand of these, each name in place in its card's path).
    static func encode(_ card: Card, name: UnsafeRawBufferPointer, stamp: FileStamp, bodyDigest: UInt64, appendingTo bytes: inout [UInt8]) {
        func stringSize(_ text: String) -> Int { 4 + text.utf8.count }
        func valueSize(_ value: YAMLValue) -> Int {
            switch value {
            case .scalar(let scalar): return 2 + stringSize(scalar.value)
            case .list(let items): return 5 + items.reduce(0) { $0 + valueSize($1) }
            case .map(let entries): return 5 + entries.reduce(0) { $0 + stringSize($1.key) + valueSize($1.value) }
            }
        }
        var size = 4 + 2 + name.count + 40 + 8 + 1 + 16 + stringSize(card.title) + stringSize(card.column)
        if let field = card.columnField { size += stringSize(field) }
        if let position = card.position { size += stringSize(position) }
        size += 4 + card.labels.reduce(0) { $0 + stringSize($1) }
        size += 4 + card.fields.reduce(0) { $0 + stringSize($1.key) + valueSize($1.value) }

        var flags: UInt8 = 0
        if card.hasFrontmatter { flags |= Flag.hasFrontmatter }
        if card.columnField != nil { flags |= Flag.hasColumnField }
        if card.position != nil { flags |= Flag.hasPosition }
        if card.created != nil { flags |= Flag.hasCreated }
        if card.modified != nil { flags |= Flag.hasModified }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: size))
        bytes.withUnsafeMutableBytes { raw in
            var entry = EntryCursor(raw: raw, offset: start)
            entry.integer(UInt32(size))
            entry.integer(UInt16(name.count))
            entry.bytes(name)
            entry.integer(stamp.size)
            entry.integer(stamp.modified)
            entry.integer(stamp.changed)
            entry.integer(stamp.inode)
            entry.integer(stamp.device)
            entry.integer(bodyDigest)
            entry.integer(flags)
            entry.integer((card.created?.timeIntervalSince1970 ?? 0).bitPattern)
            entry.integer((card.modified?.timeIntervalSince1970 ?? 0).bitPattern)
            entry.string(card.title)
            entry.string(card.column)
            if let field = card.columnField { entry.string(field) }
            if let position = card.position { entry.string(position) }
            entry.integer(UInt32(card.labels.count))
            for label in card.labels { entry.string(label) }
            entry.integer(UInt32(card.fields.count))
            for field in card.fields {
                entry.string(field.key)
                entry.value(field.value)
            }
            assert(entry.offset == start + size, "an entry's length worked out wrong")
        }
    }
}

/// Stores an entry's parts in place, in room made for them (see ``EntryLayout/encode(_:name:stamp:bodyDigest:appendingTo:)``).
private struct EntryCursor {
    let raw: UnsafeMutableRawBufferPointer
    var offset: Int

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
    }

    mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        UnsafeMutableRawBufferPointer(rebasing: raw[offset..<(offset + bytes.count)]).copyMemory(from: bytes)
        offset += bytes.count
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            integer(UInt32(utf8.count))
            bytes(UnsafeRawBufferPointer(utf8))
        }
    }

    mutating func value(_ value: YAMLValue) {
        switch value {
        case .scalar(let scalar):
            integer(UInt8(0))
            integer(EntryWriter.styleNumber(scalar.style))
            string(scalar.value)
        case .list(let items):
            integer(UInt8(1))
            integer(UInt32(items.count))
            for item in items { self.value(item) }
        case .map(let entries):
            integer(UInt8(2))
            integer(UInt32(entries.count))
            for entry in entries {
                string(entry.key)
                self.value(entry.value)
            }
        }
    }
}

/// The index file's header and listing blocks, appended part by part.
struct EntryWriter {
    var bytes: [UInt8] = []

    mutating func integer<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func string(_ text: String) {
        integer(UInt32(text.utf8.count))
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A scalar style's number in an entry.
    static func styleNumber(_ style: YAMLScalar.Style) -> UInt8 {
        switch style {
        case .plain: 0
        case .singleQuoted: 1
        case .doubleQuoted: 2
        case .literal: 3
        case .folded: 4
        }
    }
}

/// Reads one entry, checking every length against its bounds: a bad entry reads as nil, never as a trap.
struct EntryReader {
    private let raw: UnsafeRawBufferPointer
    private var offset: Int
    private let end: Int

    init(_ raw: UnsafeRawBufferPointer, at start: Int) {
        self.raw = raw
        offset = start
        if start + 4 <= raw.count {
            let length = Int(raw.loadUnaligned(fromByteOffset: start, as: UInt32.self).littleEndian)
            end = min(raw.count, start + length)
        } else {
            end = start
        }
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard offset + size <= end else { return nil }
        defer { offset += size }
        return T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    mutating func string() -> String? {
        guard let length = integer(UInt32.self).map(Int.init), offset + length <= end else { return nil }
        defer { offset += length }
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)]), as: UTF8.self)
    }

    mutating func skipString() -> Bool {
        guard let length = integer(UInt32.self).map(Int.init), offset + length <= end else { return false }
        offset += length
        return true
    }

    /// Moves past the length and the name.
    mutating func skipToStamp() -> Bool {
        guard integer(UInt32.self) != nil, let length = integer(UInt16.self).map(Int.init), offset + length <= end else { return false }
        offset += length
        return true
    }

    mutating func stamp() -> FileStamp? {
        guard let size = integer(Int64.self), let modified = integer(Int64.self), let changed = integer(Int64.self),
              let inode = integer(UInt64.self), let device = integer(UInt64.self) else { return nil }
        return FileStamp(size: size, modified: modified, changed: changed, inode: inode, device: device)
    }

    /// The position, from the start of the entry (`.some(nil)`: none).
    mutating func position() -> String?? {
        guard skipToStamp(), stamp() != nil, integer(UInt64.self) != nil, let flags = integer(UInt8.self),
              integer(UInt64.self) != nil, integer(UInt64.self) != nil, skipString(), skipString() else { return nil }
        if flags & EntryLayout.Flag.hasColumnField != 0 { guard skipString() else { return nil } }
        guard flags & EntryLayout.Flag.hasPosition != 0 else { return .some(nil) }
        guard let position = string() else { return nil }
        return .some(position)
    }

    /// The title's bytes in place, from the start of the entry.
    mutating func title() -> UnsafeRawBufferPointer? {
        guard skipToStamp(), stamp() != nil, integer(UInt64.self) != nil, integer(UInt8.self) != nil,
              integer(UInt64.self) != nil, integer(UInt64.self) != nil,
              let length = integer(UInt32.self).map(Int.init), offset + length <= end else { return nil }
        return UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
    }

    /// The position's bytes in place, from the start of the entry (`.some(nil)`: none).
    mutating func positionBytes() -> UnsafeRawBufferPointer?? {
        guard skipToStamp(), stamp() != nil, integer(UInt64.self) != nil, let flags = integer(UInt8.self),
              integer(UInt64.self) != nil, integer(UInt64.self) != nil, skipString(), skipString() else { return nil }
        if flags & EntryLayout.Flag.hasColumnField != 0 { guard skipString() else { return nil } }
        guard flags & EntryLayout.Flag.hasPosition != 0 else { return .some(nil) }
        guard let length = integer(UInt32.self).map(Int.init), offset + length <= end else { return nil }
        return .some(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)]))
    }

    /// Where the parts a listing shows are, from the start of the entry, as offsets into the section; nil when
    /// the entry does not decode (its labels are checked to fit, and are read again by ``EntryParts/labels(in:)``).
    mutating func parts() -> (parts: EntryParts, stamp: FileStamp)? {
        let start = offset
        // Offsets are kept in 32 bits: a section past 2 GiB is listed by loading it.
        guard end < Int(Int32.max), skipToStamp(), let stamp = stamp(), integer(UInt64.self) != nil, let flags = integer(UInt8.self),
              integer(UInt64.self) != nil, integer(UInt64.self) != nil else { return nil }
        let nameLength = Int(raw.loadUnaligned(fromByteOffset: start + 4, as: UInt16.self).littleEndian)
        guard let title = stringRange(), let column = stringRange() else { return nil }
        if flags & EntryLayout.Flag.hasColumnField != 0 { guard skipString() else { return nil } }
        var position: Range<Int>?
        if flags & EntryLayout.Flag.hasPosition != 0 { guard let range = stringRange() else { return nil }; position = range }
        let labelsAt = offset
        guard let labelCount = integer(UInt32.self), Int(labelCount) <= end - offset else { return nil }
        for _ in 0..<labelCount { guard skipString() else { return nil } }
        // The fields are walked too, so that ``card(file:)`` and ``fields(at:)`` of this entry cannot fail.
        let fieldsAt = offset
        guard let fieldCount = integer(UInt32.self), Int(fieldCount) <= end - offset else { return nil }
        for _ in 0..<fieldCount { guard skipString(), skipValue(depth: 0) else { return nil } }
        return (EntryParts(start: start, name: (start + 6)..<(start + 6 + nameLength), title: title, column: column, position: position,
                           labelsAt: labelsAt, fieldsAt: fieldsAt),
                stamp)
    }

    /// The fields, read from `fieldsAt` (an entry checked by ``parts()``).
    mutating func fields(at fieldsAt: Int) -> [YAMLMapEntry] {
        offset = fieldsAt
        guard let count = integer(UInt32.self) else { return [] }
        var fields: [YAMLMapEntry] = []
        for _ in 0..<count {
            guard let key = string(), let value = value(depth: 0) else { return fields }
            fields.append(YAMLMapEntry(key: key, value: value))
        }
        return fields
    }

    /// Moves past one field value, checking it as ``value(depth:)`` does, without making it.
    private mutating func skipValue(depth: Int) -> Bool {
        guard depth < 64, let tag = integer(UInt8.self) else { return false }
        switch tag {
        case 0:
            guard let style = integer(UInt8.self), Int(style) < Self.styles.count else { return false }
            return skipString()
        case 1:
            guard let count = integer(UInt32.self), Int(count) <= end - offset else { return false }
            for _ in 0..<count { guard skipValue(depth: depth + 1) else { return false } }
            return true
        case 2:
            guard let count = integer(UInt32.self), Int(count) <= end - offset else { return false }
            for _ in 0..<count { guard skipString(), skipValue(depth: depth + 1) else { return false } }
            return true
        default:
            return false
        }
    }

    private mutating func stringRange() -> Range<Int>? {
        guard let length = integer(UInt32.self).map(Int.init), offset + length <= end else { return nil }
        defer { offset += length }
        return offset..<(offset + length)
    }

    /// The card, from the start of the entry; its path, slug and archive facts come from `file`.
    mutating func card(file: CardFile) -> Card? {
        guard skipToStamp(), stamp() != nil, integer(UInt64.self) != nil, let flags = integer(UInt8.self),
              let created = integer(UInt64.self), let modified = integer(UInt64.self),
              let title = string(), let column = string() else { return nil }
        var columnField: String?
        var position: String?
        if flags & EntryLayout.Flag.hasColumnField != 0 { guard let field = string() else { return nil }; columnField = field }
        if flags & EntryLayout.Flag.hasPosition != 0 { guard let value = string() else { return nil }; position = value }
        guard let labelCount = integer(UInt32.self), Int(labelCount) <= end - offset else { return nil }
        var labels: [String] = []
        labels.reserveCapacity(Int(labelCount))
        for _ in 0..<labelCount {
            guard let label = string() else { return nil }
            labels.append(label)
        }
        guard let fieldCount = integer(UInt32.self), Int(fieldCount) <= end - offset else { return nil }
        var fields: [YAMLMapEntry] = []
        for _ in 0..<fieldCount {
            guard let key = string(), let value = value(depth: 0) else { return nil }
            fields.append(YAMLMapEntry(key: key, value: value))
        }
        return Card(slug: file.slug, title: title, column: column, columnField: columnField, position: position,
                    created: flags & EntryLayout.Flag.hasCreated != 0 ? Date(timeIntervalSince1970: Double(bitPattern: created)) : nil,
                    modified: flags & EntryLayout.Flag.hasModified != 0 ? Date(timeIntervalSince1970: Double(bitPattern: modified)) : nil,
                    labels: labels, fields: fields, path: file.path, isArchived: file.isArchived, archivedOn: file.archivedOn,
                    hasFrontmatter: flags & EntryLayout.Flag.hasFrontmatter != 0, body: nil)
    }

    /// The scalar styles by their number in an entry (one array for all, not one per value read).
    private static let styles: [YAMLScalar.Style] = [.plain, .singleQuoted, .doubleQuoted, .literal, .folded]

    private mutating func value(depth: Int) -> YAMLValue? {
        guard depth < 64, let tag = integer(UInt8.self) else { return nil }
        switch tag {
        case 0:
            guard let style = integer(UInt8.self), let text = string(), Int(style) < Self.styles.count else { return nil }
            return .scalar(YAMLScalar(text, style: Self.styles[Int(style)]))
        case 1:
            guard let count = integer(UInt32.self), Int(count) <= end - offset else { return nil }
            var items: [YAMLValue] = []
            for _ in 0..<count {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
            }
            return .list(items)
        case 2:
            guard let count = integer(UInt32.self), Int(count) <= end - offset else { return nil }
            var entries: [YAMLMapEntry] = []
            for _ in 0..<count {
                guard let key = string(), let item = value(depth: depth + 1) else { return nil }
                entries.append(YAMLMapEntry(key: key, value: item))
            }
            return .map(entries)
        default:
            return nil
        }
    }
}

/// Where the parts of an entry that a listing shows are in its section (see ``EntryReader/parts()``), small enough
/// to keep one for each of a hundred thousand cards.
struct EntryParts: Sendable {
    /// Where the entry starts.
    private let entryStart: Int32
    private let nameStart: Int32, nameLength: Int32
    private let titleStart: Int32, titleLength: Int32
    private let columnStart: Int32, columnLength: Int32
    /// -1: no position.
    private let positionStart: Int32, positionLength: Int32
    /// Where the label count is, the labels after it.
    private let labelsAt: Int32
    /// Where the field count is, the fields after it.
    private let fieldsStart: Int32

    init(start: Int, name: Range<Int>, title: Range<Int>, column: Range<Int>, position: Range<Int>?, labelsAt: Int, fieldsAt: Int) {
        fieldsStart = Int32(fieldsAt)
        entryStart = Int32(start)
        nameStart = Int32(name.lowerBound)
        nameLength = Int32(name.count)
        titleStart = Int32(title.lowerBound)
        titleLength = Int32(title.count)
        columnStart = Int32(column.lowerBound)
        columnLength = Int32(column.count)
        positionStart = Int32(position?.lowerBound ?? -1)
        positionLength = Int32(position?.count ?? -1)
        self.labelsAt = Int32(labelsAt)
    }

    var start: Int { Int(entryStart) }
    var fieldsAt: Int { Int(fieldsStart) }
    /// Where the flags are: after the name, the stamp (40 bytes) and the body's digest (8).
    var flagsAt: Int { Int(nameStart + nameLength) + 48 }
    /// The file name.
    var name: Range<Int> { Int(nameStart)..<Int(nameStart + nameLength) }
    var title: Range<Int> { Int(titleStart)..<Int(titleStart + titleLength) }
    /// The `column` the card says (for an archived card, where it was).
    var column: Range<Int> { Int(columnStart)..<Int(columnStart + columnLength) }
    var position: Range<Int>? { positionLength < 0 ? nil : Int(positionStart)..<Int(positionStart + positionLength) }

    /// Calls `body` with each label's bytes, in order (the entry was checked by ``EntryReader/parts()``).
    func labels(in raw: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var offset = Int(labelsAt)
        let count = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
        offset += 4
        for _ in 0..<count {
            let length = Int(raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian)
            body(UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 4 + length)]))
            offset += 4 + length
        }
    }
}

/// A section's hash table on its entries' names, made once, by whichever thread first needs it.
final class NameTable: Sendable {
    private let made = Mutex<[Int32]?>(nil)

    func table(_ make: () -> [Int32]) -> [Int32] {
        made.withLock { table in
            if let table { return table }
            let new = make()
            table = new
            return new
        }
    }
}
