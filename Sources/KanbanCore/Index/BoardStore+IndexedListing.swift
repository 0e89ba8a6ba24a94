#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Synchronization

/// A board's cards in board order as its index holds them, for a listing of slugs, titles, labels and archive
/// dates that makes no ``Card`` (``BoardStore/indexedListing(_:columns:labels:board:)``): one group for each
/// directory listed, in board order, each with its rows in board order.
package struct IndexedListing: Sendable {
    package struct Group: Sendable {
        /// The column of `cards/<column>`; nil for the archive.
        package let column: String?
        /// The directory, relative to the board: `cards/<column>` or `archive`.
        package var directory: String { column.map { "cards/" + $0 } ?? "archive" }
        let section: CardIndex.Section
        let rows: [EntryParts]
        /// How many cards the directory gives, those without the labels asked for included.
        package let unfilteredCount: Int

        package var count: Int { rows.count }
    }

    /// One row's bytes, valid only inside the call that gives them.
    package struct Row {
        package let slug: UnsafeRawBufferPointer
        package let title: UnsafeRawBufferPointer
        /// `YYYY-MM-DD` of an archived card whose file name starts with its date.
        package let archivedOn: UnsafeRawBufferPointer?
        fileprivate let parts: EntryParts
        fileprivate let raw: UnsafeRawBufferPointer

        /// The file name.
        package var name: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: raw[parts.name]) }
        /// The card's `column` (for an archived card, the column it was archived from).
        package var column: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: raw[parts.column]) }
        package var position: UnsafeRawBufferPointer? { parts.position.map { UnsafeRawBufferPointer(rebasing: raw[$0]) } }
        package var created: Date? { date(at: parts.flagsAt + 1, flag: EntryLayout.Flag.hasCreated) }
        package var modified: Date? { date(at: parts.flagsAt + 9, flag: EntryLayout.Flag.hasModified) }
        /// Whether the card has fields besides the ones kanban knows.
        package var hasFields: Bool { raw.loadUnaligned(fromByteOffset: parts.fieldsAt, as: UInt32.self) != 0 }

        /// The card's other fields, as ``Card/fields``.
        package func fields() -> [YAMLMapEntry] {
            var reader = EntryReader(raw, at: parts.start)
            return reader.fields(at: parts.fieldsAt)
        }

        /// The card's other fields, in place: ``fields()`` without making a string or a value.
        package var fieldsInPlace: [IndexedField] {
            var offset = parts.fieldsAt
            return IndexedField.map(in: raw, at: &offset)
        }

        /// Calls `body` with each label's bytes, in the card's order.
        package func forEachLabel(_ body: (UnsafeRawBufferPointer) -> Void) {
            parts.labels(in: raw, body)
        }

        private func date(at offset: Int, flag: UInt8) -> Date? {
            guard raw[parts.flagsAt] & flag != 0 else { return nil }
            return Date(timeIntervalSince1970: Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))))
        }
    }

    package let groups: [Group]
    /// Every column id in display order: the columns `board.md` declares, then directories it does not, by name
    /// (as ``BoardSnapshot/columnIDs``).
    package let columnIDs: [String]

    package var count: Int { groups.reduce(0) { $0 + $1.count } }

    /// Calls `body` with row `row` of group `group`.
    package func withRow<R>(group: Int, row: Int, _ body: (Row) -> R) -> R {
        let group = groups[group]
        let parts = group.rows[row]
        return group.section.bytes.withUnsafeBytes { raw in
            let (slug, archivedOn) = CardFile.slug(ofName: UnsafeRawBufferPointer(rebasing: raw[parts.name]), isArchived: group.column == nil)
            return body(Row(slug: slug, title: UnsafeRawBufferPointer(rebasing: raw[parts.title]), archivedOn: archivedOn,
                            parts: parts, raw: raw))
        }
    }
}

/// A field of a card as the board's index holds it, its key and value read in place (valid only inside the call
/// that gives the row): a ``YAMLMapEntry`` made of bytes.
package struct IndexedField {
    package let key: UnsafeRawBufferPointer
    package let value: IndexedValue

    /// The entries of the map whose count is at `offset`, which is moved past them. Only for an entry checked by
    /// ``EntryReader/parts()``, which walks every value with the same bounds.
    fileprivate static func map(in raw: UnsafeRawBufferPointer, at offset: inout Int) -> [IndexedField] {
        let count = IndexedValue.integer(in: raw, at: &offset)
        var fields: [IndexedField] = []
        fields.reserveCapacity(count)
        for _ in 0..<count {
            let key = IndexedValue.string(in: raw, at: &offset)
            fields.append(IndexedField(key: key, value: IndexedValue(in: raw, at: &offset)))
        }
        return fields
    }
}

/// A field's value as the board's index holds it, read in place: a ``YAMLValue`` made of bytes.
package enum IndexedValue {
    /// A scalar's text, and whether it was written plain (no quotes, no block), as ``YAMLScalar/Style/plain``.
    case scalar(UnsafeRawBufferPointer, isPlain: Bool)
    case list([IndexedValue])
    case map([IndexedField])

    fileprivate init(in raw: UnsafeRawBufferPointer, at offset: inout Int) {
        let tag = raw[offset]
        offset += 1
        switch tag {
        case 0:
            let isPlain = raw[offset] == 0
            offset += 1
            self = .scalar(Self.string(in: raw, at: &offset), isPlain: isPlain)
        case 1:
            let count = Self.integer(in: raw, at: &offset)
            var items: [IndexedValue] = []
            items.reserveCapacity(count)
            for _ in 0..<count { items.append(IndexedValue(in: raw, at: &offset)) }
            self = .list(items)
        default:
            self = .map(IndexedField.map(in: raw, at: &offset))
        }
    }

    fileprivate static func integer(in raw: UnsafeRawBufferPointer, at offset: inout Int) -> Int {
        defer { offset += 4 }
        return Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    fileprivate static func string(in raw: UnsafeRawBufferPointer, at offset: inout Int) -> UnsafeRawBufferPointer {
        let length = integer(in: raw, at: &offset)
        defer { offset += length }
        return UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
    }
}

extension CardFile {
    /// The slug in a card file's name, and for an archived card the date before it, as ``active(name:column:)`` and
    /// ``archived(name:)`` read them, in place.
    static func slug(ofName name: UnsafeRawBufferPointer, isArchived: Bool) -> (slug: UnsafeRawBufferPointer, archivedOn: UnsafeRawBufferPointer?) {
        var stem = name
        if stem.count >= 3 { stem = UnsafeRawBufferPointer(rebasing: stem.dropLast(3)) }  // ".md"
        guard isArchived, startsWithDate(stem) else { return (stem, nil) }
        return (UnsafeRawBufferPointer(rebasing: stem.dropFirst(11)), UnsafeRawBufferPointer(rebasing: stem.prefix(10)))
    }

    /// Whether an archived card's file name (without `.md`) is `YYYY-MM-DD-` and a slug, as ``archived(name:)`` reads it.
    static func startsWithDate(_ stem: UnsafeRawBufferPointer) -> Bool {
        func digit(_ index: Int) -> Bool { stem[index] >= 0x30 && stem[index] <= 0x39 }
        return stem.count > 11 && (0..<4).allSatisfy(digit) && stem[4] == UInt8(ascii: "-") && digit(5) && digit(6)
            && stem[7] == UInt8(ascii: "-") && digit(8) && digit(9) && stem[10] == UInt8(ascii: "-")
    }
}

extension BoardStore {
    /// The cards of `scope` (of `columns` only, and archived ones from them, when given) that carry every label of
    /// `labels`, straight from the board's index, when it can answer for every one of them without a file being
    /// read; nil when it cannot, and the caller loads the board (``load(_:columns:includeBodies:)``), which reads
    /// what changed and brings the index up to date.
    ///
    /// The index answers when it has every directory listed, and the listing it made is still the directory's
    /// (its stamp unchanged, and old enough to trust), with an entry for every name listed then (so no link, no
    /// file that failed to load or that the checks had something to say about), and when every entry is trusted
    /// and still its file's: the board's monitor names no file of these directories as changed since the index's
    /// token, or, with no monitor, each file's stamp is its entry's (a monitor's first answer is left to the load, which
    /// writes its token into the index, when the listing covers every directory). Cards with labels `board.md` no longer
    /// declares, and a label asked for that it does not declare, are left to the load, which reports them.
    /// The rows are in board order, as ``load(_:columns:includeBodies:)`` orders cards.
    package func indexedListing(_ scope: CardScope, columns: Set<String>?, labels: [String], board: Board) throws(KanbanError) -> IndexedListing? {
        guard let indexFile else { return nil }
        let declared = Set(board.labels.map(\.id))
        guard labels.allSatisfy(declared.contains) else { return nil }
        let declaredBytes = board.labels.map { Array($0.id.utf8) }
        let root = try openRoot()
        settleIfUnlocked(root)
        let (directories, refusals) = columnDirectories(in: root)
        guard refusals.isEmpty else { return nil }
        var wantedSources: [(path: String, column: String?)] = []
        let columnIDs = Self.columnOrder(board, directories: directories)
        if scope.contains(.active) {
            let present = Set(directories)
            for column in columnIDs where present.contains(column) && columns?.contains(column) ?? true {
                wantedSources.append(("cards/" + column, column))
            }
        }
        if scope.contains(.archived) {
            guard refusal(of: "archive", in: root) == nil else { return nil }
            wantedSources.append(("archive", nil))
        }
        let sources = wantedSources
        guard let index = indexFile.read(directories: Set(sources.map(\.path))) else { return nil }
        // Asked before any file is looked at, as a load asks it.
        let monitor = indexFile.monitorSocketPath.flatMap { IndexMonitorClient.ask($0, since: index.monitorToken) }
        // A monitor that cannot yet vouch for the index (its first answer): a load of every directory the index
        // has writes its token into the index, so that the next listing looks at no file.
        if let monitor, monitor.changed == nil, index.directories.isSubset(of: Set(sources.map(\.path))) { return nil }
        var openedSources: [(directory: FileSystem.OpenDirectory, section: CardIndex.Section, vouched: Bool)] = []
        for source in sources {
            guard let directory = try? root.openDirectory(source.path), let listing = index.listing(of: source.path, descriptor: directory.descriptor),
                  let section = index.sections[source.path], section.count == listing.nameKeys.count else { return nil }
            // The monitor vouches for every file here, or names one as changed (the load reads it), or cannot tell.
            var vouched = false
            if let changed = monitor?.changedPaths(in: source.path) {
                let prefix = source.path + "/"
                guard !changed.contains(where: { $0.hasPrefix(prefix) }) else { return nil }
                vouched = true
            }
            openedSources.append((directory, section, vouched))
        }
        let opened = openedSources
        let wanted = labels.map { Array($0.utf8) }

        // Each entry is read and checked in chunks on every core; any that cannot be answered for stops the lot.
        struct Chunk { var source: Int; var entries: Range<Int> }
        let chunks = opened.enumerated().flatMap { number, item in
            stride(from: 0, to: item.section.count, by: 2_048).map { Chunk(source: number, entries: $0..<min(item.section.count, $0 + 2_048)) }
        }
        let results = Mutex<[(rows: [EntryParts], unfiltered: Int)?]>(Array(repeating: nil, count: chunks.count))
        let failed = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: chunks.count) { number in
            guard !failed.load(ordering: .relaxed) else { return }
            let chunk = chunks[number]
            let (directory, section, vouched) = opened[chunk.source]
            let isArchive = sources[chunk.source].column == nil
            let rows = section.bytes.withUnsafeBytes { raw -> (rows: [EntryParts], unfiltered: Int)? in
                var rows: [EntryParts] = []
                var unfiltered = 0
                rows.reserveCapacity(chunk.entries.count)
                var name: [CChar] = []
                for start in section.starts[chunk.entries] {
                    var reader = EntryReader(raw, at: start)
                    guard let (parts, stamp) = reader.parts(), index.trusts(stamp) else { return nil }
                    if !vouched {
                        name.removeAll(keepingCapacity: true)
                        for byte in raw[parts.name] { name.append(CChar(bitPattern: byte)) }
                        name.append(0)
                        guard FileStamp(name: name, in: directory.descriptor) == stamp else { return nil }
                    }
                    var carried = Array(repeating: false, count: wanted.count)
                    var undeclared = false
                    parts.labels(in: raw) { label in
                        // Labels compare as strings do (as a load compares them): the same bytes, or the same text. The
                        // bytes of a declared label (asked for, when any is) settle it without making a string.
                        let wantedBytes = wanted.firstIndex { $0.elementsEqual(label) }
                        if let wantedBytes { carried[wantedBytes] = true }
                        if (wantedBytes != nil || wanted.isEmpty) && declaredBytes.contains(where: { $0.elementsEqual(label) }) { return }
                        let text = String(decoding: label, as: UTF8.self)
                        if let found = wantedBytes ?? labels.firstIndex(of: text) { carried[found] = true }
                        if !declared.contains(text) { undeclared = true }
                    }
                    guard !undeclared else { return nil }
                    if isArchive, let columns, !columns.contains(String(decoding: raw[parts.column], as: UTF8.self)) { continue }
                    unfiltered += 1
                    guard !carried.contains(false) else { continue }
                    rows.append(parts)
                }
                return (rows, unfiltered)
            }
            guard let rows else {
                failed.store(true, ordering: .relaxed)
                return
            }
            results.withLock { $0[number] = rows }
        }
        guard !failed.load(ordering: .relaxed) else { return nil }
        let gathered = results.withLock { $0 }
        var rowsBySource = Array(repeating: [EntryParts](), count: opened.count)
        var unfiltered = Array(repeating: 0, count: opened.count)
        for (number, chunk) in chunks.enumerated() {
            guard let gathered = gathered[number] else { return nil }
            rowsBySource[chunk.source] += gathered.rows
            unfiltered[chunk.source] += gathered.unfiltered
        }
        let sorted = Mutex(rowsBySource)
        DispatchQueue.concurrentPerform(iterations: opened.count) { number in
            var rows = sorted.withLock { rows in
                defer { rows[number] = [] }
                return rows[number]
            }
            Self.sortInBoardOrder(&rows, in: opened[number].section, isArchive: sources[number].column == nil)
            sorted.withLock { $0[number] = rows }
        }
        let groups = sorted.withLock { $0 }.enumerated().map { number, rows in
            IndexedListing.Group(column: sources[number].column, section: opened[number].section, rows: rows, unfilteredCount: unfiltered[number])
        }
        return IndexedListing(groups: groups, columnIDs: columnIDs)
    }

    /// Sorts one directory's rows as ``Card/precedes(_:_:)`` orders cards (archived ones by file name): by position,
    /// cards without one last, then by slug, then by file name.
    private static func sortInBoardOrder(_ rows: inout [EntryParts], in section: CardIndex.Section, isArchive: Bool) {
        section.bytes.withUnsafeBytes { raw in
            func key(_ parts: EntryParts) -> Range<Int>? { isArchive ? parts.name : parts.position }
            func slug(_ parts: EntryParts) -> UnsafeRawBufferPointer {
                CardFile.slug(ofName: UnsafeRawBufferPointer(rebasing: raw[parts.name]), isArchived: isArchive).slug
            }
            // The first eight bytes of each key as one integer, so that most comparisons read no entry; the small
            // keys are sorted, and the rows put in their order once.
            var keys: [(prefix: UInt64, length: Int32, row: Int32)] = rows.enumerated().map { number, parts in
                guard let range = key(parts) else { return (0, -1, Int32(number)) }
                var prefix: UInt64 = 0
                for offset in 0..<8 { prefix = prefix << 8 | UInt64(offset < range.count ? raw[range.lowerBound + offset] : 0) }
                return (prefix, Int32(range.count), Int32(number))
            }
            /// The order of two rows whose keys' first eight bytes (or lack of a key) are the same.
            func precedes(_ lhs: (prefix: UInt64, length: Int32, row: Int32), _ rhs: (prefix: UInt64, length: Int32, row: Int32)) -> Bool {
                let left = rows[Int(lhs.row)], right = rows[Int(rhs.row)]
                if lhs.length >= 0 {
                    let order = Self.compare(UnsafeRawBufferPointer(rebasing: raw[key(left)!]), UnsafeRawBufferPointer(rebasing: raw[key(right)!]))
                    if order != 0 { return order < 0 }
                }
                let order = Self.compare(slug(left), slug(right))
                if order != 0 { return order < 0 }
                return Self.compare(UnsafeRawBufferPointer(rebasing: raw[left.name]), UnsafeRawBufferPointer(rebasing: raw[right.name])) < 0
            }
            // Rows with a key first; most pairs are told apart by the prefixes alone, without reading a row.
            keys.sort { lhs, rhs in
                let lhsHasKey = lhs.length >= 0
                if lhsHasKey != (rhs.length >= 0) { return lhsHasKey }
                if lhsHasKey && lhs.prefix != rhs.prefix { return lhs.prefix < rhs.prefix }
                return precedes(lhs, rhs)
            }
            rows = keys.map { rows[Int($0.row)] }
        }
    }

    /// Byte order, a prefix first.
    private static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int {
        let common = min(lhs.count, rhs.count)
        if common > 0, let left = lhs.baseAddress, let right = rhs.baseAddress {
            let order = memcmp(left, right, common)
            if order != 0 { return Int(order) }
        }
        return lhs.count - rhs.count
    }
}
