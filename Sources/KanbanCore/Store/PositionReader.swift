/// Reads just the `position:` of card files, for placing a card in a large column without parsing every file.
///
/// A plain `position: value` line inside the frontmatter is read directly; anything less simple (quotes, a `#`, a
/// value continued on an indented line, frontmatter that may not close) falls back to the full parser, so the answer
/// is always the one the loader gives.
enum PositionReader {
    /// The files that parse, with their positions, in board order (position bytes, then slug, then path).
    ///
    /// The files of one column are opened relative to the open column directory, a run of them to a thread. A file
    /// whose stamp matches its entry in `index` (trusted) is not opened: its position is the entry's.
    static func ordered(_ files: [CardFile], root: BoardRoot, index: CardIndex? = nil) -> [(file: CardFile, position: String?)] {
        read(files, root: root, index: index).sorted { lhs, rhs in
            switch (lhs.position, rhs.position) {
            case let (left?, right?):
                let order = left.utf8Compare(right)
                if order != 0 { return order < 0 }
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): break
            }
            let order = lhs.file.slug.utf8Compare(rhs.file.slug)
            return order != 0 ? order < 0 : lhs.file.path.utf8Precedes(rhs.file.path)
        }
    }

    /// The files that parse, with their positions, in no particular order (as ``ordered(_:root:index:)`` reads them).
    static func read(_ files: [CardFile], root: BoardRoot, index: CardIndex? = nil) -> [(file: CardFile, position: String?)] {
        let size = 256
        let runs = stride(from: 0, to: files.count, by: size).map { $0..<min(files.count, $0 + size) }
        let read = ParallelMap.map(runs, minimumChunk: 1) { run -> [(file: CardFile, position: String?)] in
            let scratch = FileSystem.ReadBuffer()
            var opened: (path: Substring, directory: FileSystem.OpenDirectory?)?
            var result: [(file: CardFile, position: String?)] = []
            for file in files[run] {
                let slash = file.path.utf8.lastIndex(of: UInt8(ascii: "/")) ?? file.path.startIndex
                let parent = file.path[..<slash]
                if opened?.path != parent { opened = (parent, try? root.openDirectory(String(parent))) }
                if let index, let directory = opened?.directory, let section = index.sections[String(parent)] {
                    let nameOffset = parent.utf8.count + 1
                    var path = file.path
                    let stamp = path.withCString { FileStamp(name: $0 + nameOffset, in: directory.descriptor) }
                    if let stamp, index.trusts(stamp),
                       let start = path.withUTF8({ section.entry(named: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0)[nameOffset...])) }),
                       section.stamp(at: start) == stamp, let position = section.position(at: start) {
                        result.append((file, position))
                        continue
                    }
                }
                // A card that is a link inside the board is read through the link.
                guard let directory = opened?.directory,
                      let bytes = (try? directory.readFile(file.path, nameOffset: parent.utf8.count + 1,
                                                           fullPath: file.path, scratch: scratch)) ?? (try? root.read(file.path))
                else { continue }
                if case .known(let position) = quickPosition(in: bytes) {
                    result.append((file, position))
                } else if let card = try? CardReader.read(bytes, file: file, includeBody: false).0 {
                    result.append((file, card.position))
                }
            }
            return result
        }
        return read.flatMap { $0 }
    }

    /// What a quick look at a file says about its position.
    enum QuickLook: Equatable {
        /// The file plainly has this position (nil: none).
        case known(String?)
        /// The full parser must decide.
        case undecided
    }

    /// The position when the file makes it plain, else `.undecided`.
    static func quickPosition(in bytes: [UInt8]) -> QuickLook {
        var index = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        func line(from start: Int) -> (content: ArraySlice<UInt8>, next: Int)? {
            guard start < bytes.count else { return nil }
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var content = bytes[start..<end]
            if content.last == 0x0D { content = content.dropLast() }
            return (content, end + 1)
        }
        func isDelimiter(_ content: ArraySlice<UInt8>) -> Bool {
            var trimmed = content
            while let last = trimmed.last, last == 0x20 || last == 0x09 { trimmed = trimmed.dropLast() }
            return trimmed.elementsEqual("---".utf8)
        }
        guard let first = line(from: index) else { return .known(nil) }
        guard isDelimiter(first.content) else { return first.content.starts(with: "---".utf8) ? .undecided : .known(nil) }
        var cursor = first.next
        var found: String?
        while let current = line(from: cursor) {
            if isDelimiter(current.content) { return .known(found) }
            if current.content.starts(with: "<<<<<<<".utf8) { return .undecided }
            if current.content.starts(with: "position:".utf8) {
                var value = current.content.dropFirst("position:".count)
                while let head = value.first, head == 0x20 || head == 0x09 { value = value.dropFirst() }
                while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
                guard found == nil, let head = value.first,
                      !"\"'#&*!|>[{%@`-?:,".utf8.contains(head),
                      !value.contains(0x23),  // '#': maybe a comment; let the parser decide
                      let text = String(validating: value, as: UTF8.self)
                else { return .undecided }
                // An indented line below continues the value (YAML folds it in): the parser reads that.
                if let next = line(from: current.next), let head = next.content.first, head == 0x20 || head == 0x09 {
                    return .undecided
                }
                found = text
            }
            cursor = current.next
        }
        return .undecided  // not closed: the parser reports it
    }
}
