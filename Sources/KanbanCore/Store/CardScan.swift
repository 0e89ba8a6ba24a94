import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loads a board's cards on every core, in three passes:
///
/// 1. each directory of cards (a column, or the archive) is listed, one directory to a thread, largest first;
/// 2. the files are read (opened relative to their directory, into a buffer each thread reuses) and parsed there,
///    in chunks; each card goes straight into its own slot of one shared buffer, with a small sort key beside it;
/// 3. each directory's keys are sorted, one directory to a thread, and the cards are moved, never copied, from
///    their slots into one array in board order, in chunks on every core.
///
/// Sorting small keys instead of cards, and moving instead of copying, keeps the reference counting of a
/// hundred thousand cards (each a dozen strings and arrays) out of the load.
///
/// A search uses the same passes, with a look at each file's bytes before parsing (``prefilter``) and at each card
/// after (``inspect``), which gives what is kept beside the card (`Extra`) or leaves the card out; ``assemble``
/// then makes each result (`Item`, a search hit) from the card and its extra, moving both.
struct CardScan<Extra: Sendable, Item>: Sendable {
    /// A directory of card files.
    struct Source: Sendable {
        /// Relative to the board: `cards/<id>` or `archive`.
        var path: String
        /// The column id, or nil for the archive.
        var column: String?
    }

    /// What was found: an item (see ``assemble``) for each card kept, in board order; the files that did not
    /// load; and what the checks noticed.
    struct Outcome {
        var items: [Item]
        var diagnostics: [Diagnostic]
        var findings: [Diagnostic]
        /// The entries for a new index, when the scan used ``indexing``: every directory scanned, and the sections
        /// of the old index for those it did not scan.
        var indexContents: IndexContents?
        /// Whether the new index says more than the old one (a file read anew, one gone): worth writing.
        var indexChanged = false
    }

    var root: BoardRoot
    var includeBodies: Bool
    /// The declared labels, to report undeclared ones; nil skips that check.
    var labels: Set<String>?
    /// Archived cards are kept only when their `column:` is one of these; nil keeps them all.
    var archivedColumns: Set<String>?
    /// Looks at a file's bytes before it is parsed: false leaves it out, unparsed and unreported.
    var prefilter: @Sendable (CardFile, UnsafeBufferPointer<UInt8>) -> Bool = { _, _ in true }
    /// Looks at each card that loaded, with its file's bytes and where its body starts in them: nil leaves it out.
    var inspect: @Sendable (Card, UnsafeBufferPointer<UInt8>, Int) -> Extra?
    /// Makes a result from a card and its extra.
    var assemble: @Sendable (consuming Card, consuming Extra) -> Item
    /// The board's index and how to use it, when the scan may take cards from it (and gather a new one).
    var indexing: Indexing? = nil

    /// How a scan uses the board's index: cards whose file's stamp matches their entry are taken from it, and
    /// ``decide`` says what becomes of each without its file's bytes; every card read is gathered for a new index.
    struct Indexing: Sendable {
        /// The index read, or nil when there is none to trust (a new one is gathered all the same).
        var index: CardIndex?
        /// When the scan started, before any file was looked at: the new index's ``CardIndex/builtAt``.
        var startedAt: Int64
        /// See ``CardIndex/racyInterval``.
        var racyInterval: Int64
        /// What becomes of a card taken from the index.
        var decide: @Sendable (Card) -> IndexedDecision<Extra>
        /// A look at a trusted entry's title before its card is made: false leaves the card out, as ``decide``
        /// would (a search for a word the title lacks decodes no card).
        var quickLook: (@Sendable (UnsafeBufferPointer<UInt8>) -> Bool)? = nil
        /// What the board's monitor says changed since the index's token, asked before the scan started: a file
        /// it does not name is taken from its trusted entry without its stat data being looked at.
        var monitor: IndexMonitorAnswer? = nil
    }

    /// The entries of a new index, gathered as references into the old one and new entries, put together only when
    /// the index is written (most loads change nothing, and copying a large index is a good part of a load).
    struct IndexContents: Sendable {
        /// Entries of the old index by directory, and new entries, in runs.
        var parts: [String: [(reused: [Int], fresh: [UInt8], freshCount: Int)]] = [:]
        /// Sections of the old index carried whole (directories the scan did not list).
        var carried: [String: CardIndex.Section] = [:]
        /// The directories listed: their stamps, taken before listing, and the card files listed (a dangling link's
        /// slug too), whose name keys are worked out only when the index is written.
        var listed: [String: (stamp: FileStamp, files: [CardFile], otherSlugs: [String], keys: [UInt64]?)] = [:]
        var old: CardIndex?
        /// See ``CardIndex/monitorToken``.
        var monitorToken: String?

        /// The new index's entries.
        func contents() -> CardIndexFile.Contents {
            var contents = CardIndexFile.Contents()
            contents.monitorToken = monitorToken
            for (directory, runs) in parts {
                var pieces: [ArraySlice<UInt8>] = []
                var count = 0
                let section = old?.sections[directory]
                for run in runs {
                    // Entries of the old section that follow one another are carried as one piece.
                    if let section {
                        var range: Range<Int>?
                        for start in run.reused {
                            let entry = section.rawEntry(at: start)
                            if let current = range, current.upperBound == entry.startIndex {
                                range = current.lowerBound..<entry.endIndex
                            } else {
                                if let current = range { pieces.append(section.bytes[current]) }
                                range = entry.startIndex..<entry.endIndex
                            }
                        }
                        if let range { pieces.append(section.bytes[range]) }
                    }
                    if !run.fresh.isEmpty { pieces.append(run.fresh[...]) }
                    count += run.reused.count + run.freshCount
                }
                contents.sections[directory] = (pieces, count)
            }
            for (directory, section) in carried {
                contents.set(directory, bytes: section.bytes, count: section.count)
                if let listing = old?.listings[directory] { contents.listings[directory] = listing }
            }
            // Each directory's keys on a core of its own: a first index hashes every card's slug here.
            let directories = Array(listed)
            let keys = ParallelMap.map(directories, minimumChunk: 1) { _, listed -> [UInt64] in
                var keys = listed.keys ?? []
                if listed.keys == nil {
                    keys.reserveCapacity(listed.files.count + listed.otherSlugs.count)
                    for file in listed.files { keys.append(CardIndex.nameKey(ofSlug: file.slug)) }
                    for slug in listed.otherSlugs { keys.append(CardIndex.nameKey(ofSlug: slug)) }
                }
                keys.sort()
                return keys
            }
            for ((directory, listed), keys) in zip(directories, keys) {
                contents.listings[directory] = CardIndex.DirectoryListing(stamp: listed.stamp, nameKeys: keys)
            }
            return contents
        }
    }

    /// What becomes of a card taken from the index.
    enum IndexedDecision<Value> {
        /// Kept, with this extra.
        case keep(Value)
        /// Left out.
        case drop
        /// The file's bytes are needed: it is read as without an index.
        case read
    }

    /// Loads the cards of `sources`, which are in board order.
    /// - Throws: ``KanbanError/Code/fileSystem`` when a directory exists but cannot be listed.
    func run(_ sources: [Source]) throws(KanbanError) -> Outcome {
        let listings = try list(sources)
        let counts = listings.map(\.count)
        let starts = counts.reduce(into: [0]) { $0.append($0.last! + $1) }
        let total = starts.last!
        let bases = Array(starts.dropLast())
        let slots = Slots<Card>(capacity: total)
        let extras = Slots<Extra>(capacity: total)
        let keys = Slots<SortKey>(capacity: total)
        let chunks = Self.chunks(counts, bases: bases)
        let reports = Mutex<[ChunkReport?]>(Array(repeating: nil, count: chunks.count))
        DispatchQueue.concurrentPerform(iterations: chunks.count) { number in
            let report = load(chunks[number], listing: listings[chunks[number].source], into: slots, extras: extras, keys: keys)
            reports.withLock { $0[number] = report }
        }
        DispatchQueue.concurrentPerform(iterations: listings.count) { source in
            let range = bases[source]..<(bases[source] + counts[source])
            keys.sort(range) { Self.precedes($0, $1, cards: slots) }
        }

        var outcome = Outcome(items: [], diagnostics: listings.flatMap(\.diagnostics), findings: [])
        var contents = indexing.map { IndexContents(old: $0.index) }
        var accounted = Array(repeating: 0, count: listings.count)
        for (number, report) in reports.withLock({ $0 }).enumerated() {
            guard let report else { continue }
            outcome.diagnostics += report.diagnostics
            outcome.findings += report.findings
            if contents != nil {
                let directory = listings[chunks[number].source].path
                contents?.parts[directory, default: []].append((report.reused, report.entries, report.entryCount))
                accounted[chunks[number].source] += report.accounted
                outcome.indexChanged = outcome.indexChanged || report.changed
            }
        }
        if let indexing, var gathered = contents {
            let scanned = Set(listings.map(\.path))
            for (number, listing) in listings.enumerated() {
                if gathered.parts[listing.path] == nil { gathered.parts[listing.path] = [] }
                if let stamp = listing.stamp {
                    gathered.listed[listing.path] = (stamp, listing.files, listing.otherSlugs, listing.knownKeys)
                    // A directory changed since, or trusted now and not before: the new listing is worth keeping.
                    let old = indexing.index?.listings[listing.path]
                    if old?.stamp != stamp || (indexing.index?.trusts(stamp) != true && stamp.latest < indexing.startedAt - indexing.racyInterval) {
                        outcome.indexChanged = true
                    }
                }
                // An entry no listed file accounted for is a card gone (or a directory unreadable).
                if let section = indexing.index?.sections[listing.path], section.count != accounted[number] { outcome.indexChanged = true }
            }
            if let index = indexing.index {
                for directory in index.directories where !scanned.contains(directory) {
                    guard let section = index.sections[directory] else { continue }
                    gathered.carried[directory] = section
                }
                // A directory the old index had and this scan would have listed, now gone.
                if !index.directories.isSubset(of: Set(gathered.parts.keys).union(gathered.carried.keys)) { outcome.indexChanged = true }
            } else {
                outcome.indexChanged = true
            }
            // The monitor's new token holds for an index whose every section this scan looked at; sections carried
            // unlooked-at keep the old token, which holds for them and, since the rest was checked after it was
            // given, for the whole.
            gathered.monitorToken = indexing.index?.monitorToken
            if let answer = indexing.monitor, gathered.carried.isEmpty {
                gathered.monitorToken = answer.token
                // A first token (or one after the monitor lost track) is worth writing even when no card changed:
                // it is what lets the next command skip looking at every file.
                if answer.changed == nil && answer.token != indexing.index?.monitorToken { outcome.indexChanged = true }
            }
            outcome.indexContents = gathered
        }
        // Each directory's cards now lead its range of keys, in order, and the rest did not load: the card of a
        // directory's key `i` is item `i` of that directory's run of items, so the items are made on every core.
        let kept = (0..<listings.count).map { source in
            // The first key that did not load, found by bisection.
            var low = bases[source]
            var high = bases[source] + counts[source]
            while low < high {
                let middle = (low + high) / 2
                if keys[middle].loaded { low = middle + 1 } else { high = middle }
            }
            return low - bases[source]
        }
        let keptStarts = kept.reduce(into: [0]) { $0.append($0.last! + $1) }
        let assembly = Self.chunks(kept, bases: Array(keptStarts.dropLast()))
        outcome.items = Array(unsafeUninitializedCapacity: keptStarts.last!) { items, count in
            let items = Slots<Item>(wrapping: items.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: assembly.count) { number in
                let chunk = assembly[number]
                for index in chunk.files {
                    let slot = Int(keys[bases[chunk.source] + index].index)
                    items.initialize(chunk.base + index - chunk.files.lowerBound, to: assemble(slots.take(slot), extras.take(slot)))
                }
            }
            count = keptStarts.last!
        }
        return outcome
    }

    // MARK: Listing

    struct Listing: Sendable {
        /// The directory's path relative to the board.
        var path: String
        var directory: FileSystem.OpenDirectory?
        /// Where the file name starts in each path: the length of `<source path>/`.
        var nameOffset: Int
        var files: [CardFile]
        /// Where the files that are links (inside the board) lead, by index into `files`.
        var linked: [Int: BoardRoot.Place] = [:]
        var diagnostics: [Diagnostic]
        /// The directory's stamp, taken before it was listed; nil when it could not be taken or the directory was
        /// not listed whole.
        var stamp: FileStamp? = nil
        /// The slugs of the dangling links listed, which are no card but may become one without the directory
        /// changing.
        var otherSlugs: [String] = []
        /// Where each file's entry starts in the index's section, when the names came from the index; ``files``
        /// is then empty, each made when it is needed (``file(_:in:)``), since most are not (a search's look at
        /// the titles rules them out first).
        var entryStarts: [Int]? = nil
        /// The column of the directory, nil for the archive.
        var column: String? = nil
        /// The index's keys of the names, when the names came from the index.
        var knownKeys: [UInt64]? = nil

        /// How many card files were listed.
        var count: Int { entryStarts?.count ?? files.count }

        /// The card file `index`, made from its entry's name when the names came from `section`.
        func file(_ index: Int, in section: CardIndex.Section?) -> CardFile {
            guard files.isEmpty, let start = entryStarts?[index], let section else { return files[index] }
            return section.bytes.withUnsafeBytes { raw in
                let name = EntryLayout.name(in: raw, at: start)!.assumingMemoryBound(to: UInt8.self)  // checked when the section was read
                guard let column else { return CardFile.archived(name: String(decoding: name, as: UTF8.self)) }
                var path = self.path
                return path.withUTF8 { CardFile.active(name: name, column: column, directory: $0) }
            }
        }
    }

    private func list(_ sources: [Source]) throws(KanbanError) -> [Listing] {
        var opened: [FileSystem.OpenDirectory?] = []
        var refusals: [[Diagnostic]] = []
        for source in sources {
            do {
                opened.append(try root.openDirectory(source.path))
                refusals.append([])
            } catch where error.code == .outsideBoard {
                opened.append(nil)
                refusals.append([Diagnostic(.error, .outsideBoard, at: SourceLocation(path: source.path),
                                            "link points outside the board directory; not followed")])
            }
        }
        // Largest directory first (a directory's size grows with its entries), so that the cores finish together.
        // The stamps are taken before listing: a change during the listing leaves the directory with another.
        let stamps = opened.map { directory -> FileStamp? in
            var info = stat()
            guard let directory, fstat(directory.descriptor, &info) == 0 else { return nil }
            return FileStamp(info)
        }
        let sizes = stamps.map { Int($0?.size ?? 0) }
        let order = sources.indices.sorted { sizes[$0] > sizes[$1] }
        let directories = opened
        let results = Mutex<[Result<Listing, KanbanError>?]>(Array(repeating: nil, count: sources.count))
        DispatchQueue.concurrentPerform(iterations: sources.count) { turn in
            let index = order[turn]
            let result = Result { () throws(KanbanError) -> Listing in
                if let listing = indexedListing(of: sources[index], in: directories[index], stamp: stamps[index]) { return listing }
                return try list(sources[index], in: directories[index])
            }
            results.withLock { $0[index] = result }
        }
        var listings: [Listing] = []
        for (index, result) in results.withLock({ $0 }).enumerated() {
            guard let result else { continue }
            var listing = try result.get()
            listing.diagnostics = refusals[index] + listing.diagnostics
            if listing.directory != nil { listing.stamp = stamps[index] }
            listings.append(listing)
        }
        return listings
    }

    /// The listing of `source` as the index has it, without reading the directory, when the index may stand in for
    /// it (git's untracked cache makes the same bet): the directory's stamp, taken before, is the one the index's
    /// listing was made under and old enough to trust, so no name was added, removed or renamed since; and every
    /// name listed then has an entry (no link, no file that failed to load), so the entries name the files.
    private func indexedListing(of source: Source, in opened: FileSystem.OpenDirectory?, stamp: FileStamp?) -> Listing? {
        guard let directory = opened, let stamp, let index = indexing?.index, let known = index.listings[source.path],
              known.stamp == stamp, index.trusts(stamp), let section = index.sections[source.path],
              section.count == known.nameKeys.count else { return nil }
        // The names are the entries' (each checked when the section was read), in the entries' order.
        return Listing(path: source.path, directory: directory, nameOffset: source.path.utf8.count + 1, files: [], diagnostics: [],
                       entryStarts: section.starts, column: source.column, knownKeys: known.nameKeys)
    }

    private func list(_ source: Source, in opened: FileSystem.OpenDirectory?) throws(KanbanError) -> Listing {
        let nameOffset = source.path.utf8.count + 1
        guard let directory = opened else {
            return Listing(path: source.path, directory: nil, nameOffset: nameOffset, files: [], diagnostics: [])
        }
        var files: [CardFile] = []
        var linked: [Int: BoardRoot.Place] = [:]
        var diagnostics: [Diagnostic] = []
        var otherSlugs: [String] = []
        var sourcePath = source.path
        let failure = sourcePath.withUTF8 { sourcePath -> KanbanError? in
            do throws(KanbanError) {
                try directory.forEachEntry { name, kind in
                    guard CardFile.isCardFileName(name) else { return }
                    guard UTF8Validation.firstInvalidOffset(in: name) == nil else {
                        diagnostics.append(CardFile.invalidName(name, in: source.path))
                        return
                    }
                    let file = source.column.map { CardFile.active(name: name, column: $0, directory: sourcePath) }
                        ?? CardFile.archived(name: String(decoding: name, as: UTF8.self))
                    switch kind == .file ? .read(nil) : CardAdmission.decide(FileSystem.Entry(name: String(decoding: name, as: UTF8.self), kind: kind), file: file, root: root) {
                    case .read(let place):
                        if let place { linked[files.count] = place }
                        files.append(file)
                    case .skip: otherSlugs.append(file.slug)
                    case .refuse(let diagnostic): diagnostics.append(diagnostic)
                    }
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return Listing(path: source.path, directory: directory, nameOffset: nameOffset, files: files, linked: linked, diagnostics: diagnostics,
                       otherSlugs: otherSlugs)
    }

    // MARK: Reading and parsing

    /// A run of files from one directory.
    struct Chunk {
        var source: Int
        /// Indices into the directory's files.
        var files: Range<Int>
        /// The slot of the first file.
        var base: Int
    }

    /// Chunks of about an eighth of a core's share, so that a slow chunk does not leave a core idle at the end.
    static func chunks(_ counts: [Int], bases: [Int]) -> [Chunk] {
        let total = counts.reduce(0, +)
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let size = max(16, total / (cores * 8))
        var chunks: [Chunk] = []
        for (source, count) in counts.enumerated() {
            var start = 0
            while start < count {
                let end = min(count, start + size)
                chunks.append(Chunk(source: source, files: start..<end, base: bases[source] + start))
                start = end
            }
        }
        return chunks
    }

    /// Whether the file at `path` (its name from `nameOffset` on) is no longer in `directory`.
    private static func isGone(_ path: String, nameOffset: Int, in directory: FileSystem.OpenDirectory) -> Bool {
        var status = stat()
        return path.withCString { fstatat(directory.descriptor, $0 + nameOffset, &status, AT_SYMLINK_NOFOLLOW) } != 0 && errno == ENOENT
    }

    struct ChunkReport: Sendable {
        var diagnostics: [Diagnostic] = []
        var findings: [Diagnostic] = []
        /// Where the entries of the old index that still hold start, for the chunk's files.
        var reused: [Int] = []
        /// New index entries for the chunk's files, one after another.
        var entries: [UInt8] = []
        var entryCount = 0
        /// How many of the chunk's files had an entry in the old index, matching or not.
        var accounted = 0
        /// Whether an entry was made that the old index lacked or had otherwise.
        var changed = false
    }

    private func load(_ chunk: Chunk, listing: Listing, into slots: Slots<Card>, extras: Slots<Extra>, keys: Slots<SortKey>) -> ChunkReport {
        var report = ChunkReport()
        let scratch = FileSystem.ReadBuffer()
        let section = indexing?.index?.sections[listing.path]
        // What the monitor vouches for in this directory: a file it does not name is as its trusted entry says.
        let changedHere = indexing?.monitor?.changedPaths(in: listing.path)
        // With no entries to reuse, every card makes one (a couple of hundred bytes for most).
        if indexing != nil && section == nil { report.entries.reserveCapacity(chunk.files.count * 224) }
        for index in chunk.files {
            let slot = chunk.base + index - chunk.files.lowerBound
            // A name from the index whose entry the monitor vouches for and whose title rules the card out: left out
            // before even its card file is made (the same decision as below, for the common case of a search).
            if listing.files.isEmpty, let start = listing.entryStarts?[index], let section, let quickLook = indexing?.quickLook,
               changedHere?.isEmpty == true, let entryStamp = section.stamp(at: start), indexing?.index?.trusts(entryStamp) == true,
               !section.withTitle(at: start, { $0.map(quickLook) ?? true }) {
                report.accounted += 1
                keys.initialize(slot, to: SortKey(failedSlot: slot))
                report.reused.append(start)
                continue
            }
            let file = listing.file(index, in: section)
            // The stamp is taken before the file is read: a change after it gives the file another stamp, or (in
            // the same clock tick) one too recent to trust.
            var stamp: FileStamp?
            var old: (start: Int, stamp: FileStamp?)?
            if let indexing, listing.linked[index] == nil, let directory = listing.directory {
                var path = file.path
                if let section, let start = listing.entryStarts?[index]
                    ?? path.withUTF8({ section.entry(named: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer($0)[listing.nameOffset...])) }) {
                    report.accounted += 1
                    let entryStamp = section.stamp(at: start)
                    old = (start, entryStamp)
                    if let entryStamp, let changedHere, changedHere.isEmpty || !changedHere.contains(file.path),
                       indexing.index?.trusts(entryStamp) == true {
                        // Untouched since the index's token: the entry still describes the file.
                        stamp = entryStamp
                    } else {
                        stamp = file.path.withCString { FileStamp(name: $0 + listing.nameOffset, in: directory.descriptor) }
                    }
                }
                // A trusted entry whose title rules the card out is left out before its card is made.
                let isTrusted = stamp.map { old?.stamp == $0 && indexing.index?.trusts($0) == true } ?? false
                if isTrusted, let old, let section, let quickLook = indexing.quickLook,
                   !section.withTitle(at: old.start, { $0.map(quickLook) ?? true }) {
                    keys.initialize(slot, to: SortKey(failedSlot: slot))
                    report.reused.append(old.start)
                    continue
                }
                // A file the index does not know is read at once; its stamp comes from the descriptor it is read by.
                if isTrusted, let old, let section,
                   let card = section.card(at: old.start, file: file), labels.map({ card.labels.allSatisfy($0.contains) }) ?? true {
                    switch indexing.decide(card) {
                    case .keep(let extra):
                        if let archivedColumns, card.isArchived, !archivedColumns.contains(card.column) {
                            keys.initialize(slot, to: SortKey(failedSlot: slot))
                        } else {
                            keys.initialize(slot, to: SortKey(card, slot: slot, skipping: listing.nameOffset))
                            slots.initialize(slot, to: card)
                            extras.initialize(slot, to: extra)
                        }
                        report.reused.append(old.start)
                        continue
                    case .drop:
                        keys.initialize(slot, to: SortKey(failedSlot: slot))
                        report.reused.append(old.start)
                        continue
                    case .read:
                        break
                    }
                }
            }
            do throws(KanbanError) {
                guard let directory = listing.directory else { throw KanbanError(.fileSystem, "directory went away") }
                if let place = listing.linked[index] {
                    try place.directory.withContents(of: place.name, nameOffset: 0, fullPath: file.path, scratch: scratch) { bytes in
                        _ = load(file, bytes: bytes, slot: slot, nameOffset: listing.nameOffset, into: slots, extras: extras, keys: keys, report: &report)
                    }
                } else {
                    try directory.withContentsAndStatus(of: file.path, nameOffset: listing.nameOffset, fullPath: file.path,
                                                        scratch: scratch) { bytes, status in
                        if indexing != nil && old == nil { stamp = FileStamp(status) }
                        let loaded = load(file, bytes: bytes, slot: slot, nameOffset: listing.nameOffset, into: slots, extras: extras,
                                          keys: keys, report: &report, stamp: stamp)
                        guard let indexing, let stamp else { return }
                        if loaded.madeEntry {
                            // New to the index, changed since, or trusted now and not before.
                            let trustedBefore = old?.stamp == stamp && indexing.index?.trusts(stamp) == true
                            if old?.stamp != stamp || (!trustedBefore && stamp.latest < indexing.startedAt - indexing.racyInterval) {
                                report.changed = true
                            }
                        } else if let old, old.stamp == stamp, section != nil, !loaded.wasParsed {
                            // Left out before parsing (a search's look at the bytes): the old entry still holds.
                            report.reused.append(old.start)
                        } else if old != nil {
                            report.changed = true
                        }
                    }
                }
            } catch {
                keys.initialize(slot, to: SortKey(failedSlot: slot))
                if old != nil { report.changed = true }
                // A file removed since the directory was listed (a delete, `git checkout`) is simply not on the board
                // now, as if the listing had come after: no card stands in for it, no warning.
                if listing.linked[index] == nil, let directory = listing.directory, Self.isGone(file.path, nameOffset: listing.nameOffset, in: directory) {
                    continue
                }
                report.diagnostics += CardLoader.unreadable(file, error).diagnostics
            }
        }
        return report
    }

    /// Loads one file, `bytes`, into `slot`.
    /// - Parameter stamp: The file's stamp, when the scan gathers an index.
    /// - Returns: Whether an index entry was added to the report (none for a card the checks have something to say
    ///   about), and whether the file was parsed at all.
    @discardableResult
    private func load(_ file: CardFile, bytes: UnsafeBufferPointer<UInt8>, slot: Int, nameOffset: Int, into slots: Slots<Card>,
                      extras: Slots<Extra>, keys: Slots<SortKey>, report: inout ChunkReport,
                      stamp: FileStamp? = nil) -> (madeEntry: Bool, wasParsed: Bool) {
        guard prefilter(file, bytes) else {
            keys.initialize(slot, to: SortKey(failedSlot: slot))
            return (false, false)
        }
        let loaded = CardLoader.loadOne(file, bytes: bytes, includeBodies: includeBodies, labels: labels)
        guard let card = loaded.card else {
            keys.initialize(slot, to: SortKey(failedSlot: slot))
            report.diagnostics += loaded.diagnostics
            return (false, true)
        }
        var madeEntry = false
        if let stamp, loaded.diagnostics.isEmpty {
            let body = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[min(loaded.bodyOffset, bytes.count)...])
            var path = file.path
            path.withUTF8 { path in
                let name = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(path)[min(nameOffset, path.count)...])
                EntryLayout.encode(card, name: name, stamp: stamp, bodyDigest: CardIndex.checksum(body), appendingTo: &report.entries)
            }
            report.entryCount += 1
            madeEntry = true
        }
        if let archivedColumns, card.isArchived, !archivedColumns.contains(card.column) {
            keys.initialize(slot, to: SortKey(failedSlot: slot))
            report.findings += loaded.diagnostics
            return (madeEntry, true)
        }
        guard let extra = inspect(card, bytes, loaded.bodyOffset) else {
            keys.initialize(slot, to: SortKey(failedSlot: slot))
            return (madeEntry, true)
        }
        keys.initialize(slot, to: SortKey(card, slot: slot, skipping: nameOffset))
        slots.initialize(slot, to: card)
        extras.initialize(slot, to: extra)
        report.findings += loaded.diagnostics
        return (madeEntry, true)
    }

    // MARK: Sorting

    /// A card's place in its directory, small enough to sort quickly: the first eight bytes of its position
    /// (of its file name in the archive) as one integer, and the string's length.
    struct SortKey: Sendable {
        var prefix: UInt64
            /// The length of the sort string in bytes; -1 when the card has no position, -2 when there is no card
        /// (the file did not load, or was left out).
        var length: Int32
        /// The card's slot.
        var index: Int32

        var loaded: Bool { length > -2 }

        /// - Parameter skipping: Leading bytes every card of the directory shares (`archive/` in archived paths).
        init(_ card: Card, slot: Int, skipping: Int) {
            let text = card.isArchived ? card.path : card.position
            prefix = 0
            length = -1
            index = Int32(slot)
            guard let bytes = text?.utf8.dropFirst(card.isArchived ? skipping : 0) else { return }
            var count = 0
            for byte in bytes.prefix(8) {
                prefix = prefix << 8 | UInt64(byte)
                count += 1
            }
            if count < 8 { prefix <<= UInt64(8 * (8 - count)) }
            length = Int32(bytes.count)
        }

        init(failedSlot slot: Int) {
            prefix = 0
            length = -2
            index = Int32(slot)
        }
    }

    /// Board order inside one directory, as ``Card/precedes(_:_:)`` defines it (archived cards by path); cards
    /// that did not load last.
    static func precedes(_ lhs: SortKey, _ rhs: SortKey, cards: Slots<Card>) -> Bool {
        if lhs.length < 0 || rhs.length < 0 {
            if lhs.length != rhs.length { return lhs.length > rhs.length }
            if !lhs.loaded { return lhs.index < rhs.index }
        } else if lhs.prefix != rhs.prefix {
            return lhs.prefix < rhs.prefix
        } else if min(lhs.length, rhs.length) <= 8 {
            // Equal first bytes and one string no longer than eight: that one is a prefix of the other.
            if lhs.length != rhs.length { return lhs.length < rhs.length }
        } else {
            let left = Int(lhs.index)
            let right = Int(rhs.index)
            let order = cards[left].isArchived ? cards[left].path.utf8Compare(cards[right].path)
                : (cards[left].position ?? "").utf8Compare(cards[right].position ?? "")
            if order != 0 { return order < 0 }
        }
        let order = cards[Int(lhs.index)].slug.utf8Compare(cards[Int(rhs.index)].slug)
        return order != 0 ? order < 0 : lhs.index < rhs.index
    }
}

/// Whether a listed file is read, skipped quietly, or refused with a diagnostic.
enum CardAdmission: Sendable {
    /// Read it: from its own directory, or (a link inside the board) from the place it leads.
    case read(BoardRoot.Place?)
    case skip
    case refuse(Diagnostic)

    /// What to do with a listed card file: a plain file is read; a link is followed when it leads to a regular file
    /// inside the board; a dangling link (an editor's lock) is skipped; anything else (a FIFO, a socket, a device, a
    /// directory, a link out of the board) is refused with a diagnostic.
    static func decide(_ entry: FileSystem.Entry, file: CardFile, root: BoardRoot) -> CardAdmission {
        switch entry.kind {
        case .file:
            return .read(nil)
        case .directory, .other:
            return .refuse(Diagnostic(.warning, .notRegularFile, at: SourceLocation(path: file.path), "not a regular file; skipped"))
        case .symbolicLink:
            do {
                guard let place = try root.place(of: file.path), let kind = place.directory.kind(of: place.name) else {
                    return .skip  // dangling: editor lock or litter
                }
                guard kind == .file else {
                    return .refuse(Diagnostic(.warning, .notRegularFile, at: SourceLocation(path: file.path), "not a regular file; skipped"))
                }
                return .read(place)
            } catch where error.code == .outsideBoard {
                return .refuse(Diagnostic(.error, .outsideBoard, at: SourceLocation(path: file.path),
                                          "link points outside the board directory; not followed"))
            } catch {
                return .refuse(Diagnostic(.error, .invalidFile, at: SourceLocation(path: file.path), error.message))
            }
        }
    }
}

/// Memory that worker threads fill at distinct indices, and that one thread then empties, taking or discarding
/// each filled slot exactly once.
final class Slots<Element>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Element>
    private let ownsMemory: Bool

    init(capacity: Int) {
        base = .allocate(capacity: max(capacity, 1))
        ownsMemory = true
    }

    /// Slots in memory that something else allocated and frees (the uninitialized storage of an array being made).
    init(wrapping base: UnsafeMutablePointer<Element>) {
        self.base = base
        ownsMemory = false
    }

    deinit {
        if ownsMemory { base.deallocate() }
    }

    func initialize(_ index: Int, to value: consuming Element) {
        (base + index).initialize(to: value)
    }

    /// The value in a filled slot, read in place.
    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(base + index) }
    }

    /// Moves the value out; the slot is empty afterwards.
    func take(_ index: Int) -> Element {
        (base + index).move()
    }

    /// Destroys the value; the slot is empty afterwards.
    func discard(_ index: Int) {
        (base + index).deinitialize(count: 1)
    }

    /// Sorts the filled slots `range` in place.
    func sort(_ range: Range<Int>, by areInIncreasingOrder: (Element, Element) -> Bool) {
        var buffer = UnsafeMutableBufferPointer(start: base + range.lowerBound, count: range.count)
        buffer.sort(by: areInIncreasingOrder)
    }
}
