import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BoardStore {
    /// The key for a card put at the top or the bottom of `column`, worked out from the column's listing and the
    /// positions in the board's index, without opening the column's cards: nil when the index cannot answer, and
    /// the caller reads the column.
    ///
    /// Only the first (or last) card matters for such a key. Each listed name the index has an entry for, and
    /// whose inode (as the listing gives it, without a `stat`) is the entry's, is taken at the entry's position: a
    /// file replaced by a rename (an atomic save, `git checkout`) has another inode and is read, as are the names
    /// the index lacks. The card the new key goes next to is then checked in full: its stamp must still be its
    /// entry's, else the index has no answer. A card edited in place since the index was last brought up to date
    /// (by any command that reads the board) is not checked: should that edit have moved it past the end of the
    /// column, the new card lands beside it instead of beyond it, which is all it can cost.
    ///
    /// With `collisions`, the slugs taken in the column that a new slug could collide with are gathered from the same
    /// listing (their collision keys), so that the column is listed once for both.
    func indexedPlacement(_ placement: Placement, in column: String, moving: CardFile?, root: BoardRoot,
                          collecting collisions: SlugCollisions? = nil) -> (plan: PlacementPlan, taken: Set<String>)? {
        guard let atTop = placement.isTop else { return nil }
        let directoryPath = "cards/" + column
        guard let indexFile, moving?.directoryColumn != column,
              let index = indexFile.read(directories: [directoryPath]), let section = index.sections[directoryPath],
              let opened = try? root.openDirectory(directoryPath) else { return nil }

        // The listing: each card file's name (NUL-terminated, for fstatat, in one buffer for all) and its entry, when
        // the index has one for the file the name leads to now.
        var arena: [UInt8] = []
        var names: [(name: Range<Int>, start: Int?)] = []
        arena.reserveCapacity(section.count * 48)
        names.reserveCapacity(section.count + 64)
        var taken: Set<String> = []
        var answerable = true
        do throws(KanbanError) {
            try opened.forEachEntryWithInode { name, kind, inode in
                guard answerable, CardFile.isCardFileName(name) else { return }
                // A link or something stranger: the column is read as usual.
                guard kind == .file else { answerable = false; return }
                if let collisions, collisions.mightCollide(name, isArchived: false), let text = String(validating: name, as: UTF8.self) {
                    taken.insert(Slug.collisionKey(CardFile.active(name: text, column: column).slug))
                }
                let offset = arena.count
                arena += UnsafeRawBufferPointer(name)
                arena.append(0)
                let start = section.entry(named: UnsafeRawBufferPointer(name)).flatMap { section.stamp(at: $0)?.inode == inode ? $0 : nil }
                names.append((offset..<arena.count, start))
            }
        } catch {
            return nil
        }
        guard answerable else { return nil }
        let unknown = names.indices.filter { names[$0].start == nil }
        guard unknown.count <= 4096 else { return nil }

        /// Whether `position` lies beyond `other`, towards the end the card is put at.
        func isBeyond(_ position: UnsafeRawBufferPointer, _ other: UnsafeRawBufferPointer) -> Bool {
            guard !position.elementsEqual(other) else { return false }
            return position.lexicographicallyPrecedes(other) == atTop
        }
        var extreme: Int?
        let decoded = section.bytes.withUnsafeBytes { raw -> Bool in
            var best: UnsafeRawBufferPointer?
            for number in names.indices where names[number].start != nil {
                var reader = EntryReader(raw, at: names[number].start!)
                guard let read = reader.positionBytes() else { return false }
                guard let position = read else { continue }
                if let best, !isBeyond(position, best) { continue }
                best = position
                extreme = number
            }
            return true
        }
        guard decoded else { return nil }
        let key = extreme.flatMap { section.position(at: names[$0].start!) ?? nil }
        if let extreme {
            // The card the new key goes next to must be as the index has it.
            let stamp = arena.withUnsafeBytes { raw in
                FileStamp(name: (raw.baseAddress! + names[extreme].name.lowerBound).assumingMemoryBound(to: CChar.self), in: opened.descriptor)
            }
            guard let stamp, stamp == section.stamp(at: names[extreme].start!), index.trusts(stamp) else { return nil }
        }
        // The files the index has no standing entry for are read; any of them may lie beyond.
        var files: [CardFile] = []
        for number in unknown {
            // A name that is not UTF-8 is no card; the column is read as usual, which reports it.
            guard let name = String(validating: arena[names[number].name].dropLast(), as: UTF8.self) else { return nil }
            files.append(CardFile.active(name: name, column: column))
        }
        let keys = (key.map { [$0] } ?? []) + PositionReader.read(files, root: root).compactMap(\.position)
        guard let plan = PlacementPlan.atEnd(atTop: atTop, of: keys) else { return nil }
        return (plan, taken)
    }
}
