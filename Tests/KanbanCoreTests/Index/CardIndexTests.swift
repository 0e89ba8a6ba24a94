#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import KanbanTestSupport
import Synchronization
import Testing
@testable import KanbanCore

/// The board index: used when a file's stat data matches its entry, and never otherwise.
///
/// Whether a card came from the index is seen by forging the index: the titles in it are rewritten (checksums and
/// all), so a card that shows the forged title was taken from the index, and one that shows its file's title was read.
@Suite struct CardIndexTests {
    static let forged = "FROM THE INDEX"
    /// Short enough for tests, longer than the kernel's clock tick for file times.
    static let testInterval: Int64 = 30_000_000

    /// A store of `board` whose index lives in `<root>/cache`.
    func store(_ board: TemporaryBoard, racyInterval: Int64 = testInterval) throws -> BoardStore {
        var placement = IndexPlacement.automatic(cacheDirectory: board.root + "/cache")
        placement.racyInterval = racyInterval
        return try BoardStore(directory: board.path, clock: { fixedNow }, index: placement)
    }

    /// A board with `count` cards in `todo`, and its store.
    func makeCards(_ board: TemporaryBoard, count: Int = 5) throws -> BoardStore {
        let store = try store(board)
        for number in 1...count { try store.createCard(title: "Card \(number)", in: "todo") }
        return store
    }

    /// Waits (with a generous bound) until every card file last changed longer ago than the test interval, so that
    /// an index built now trusts them all.
    func waitUntilSettled(_ board: TemporaryBoard) throws {
        var latest: Int64 = 0
        for directory in ["cards/todo", "cards/doing", "cards/done", "archive"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: board.path + "/" + directory)) ?? [] {
                var info = stat()
                if lstat(board.path + "/" + directory + "/" + name, &info) == 0 { latest = max(latest, FileStamp(info).latest) }
            }
        }
        let deadline = Date().addingTimeInterval(10)
        while FileStamp.now() <= latest + Self.testInterval + 5_000_000 {
            try #require(Date() < deadline)
            usleep(5_000)
        }
    }

    /// Builds the index afresh and rewrites every title in it to ``forged``.
    func buildAndForge(_ store: BoardStore) throws {
        try #require(try store.rebuildIndex() != nil)
        try forge(store) { card in card.title = Self.forged }
    }

    /// Rewrites every card in the index with `change`, keeping stamps, digests and the build time.
    func forge(_ store: BoardStore, _ change: (inout Card) -> Void) throws {
        let file = try #require(store.indexFile)
        let index = try #require(file.read())
        var contents = CardIndexFile.Contents()
        for (directory, section) in index.sections {
            contents.touch(directory)
            for start in section.starts {
                let name = try #require(section.name(at: start))
                let cardFile = directory == "archive" ? CardFile.archived(name: name)
                    : CardFile.active(name: name, column: String(directory.dropFirst("cards/".count)))
                var card = try #require(section.card(at: start, file: cardFile))
                change(&card)
                contents.append(EntryLayout.encode(card, name: name, stamp: try #require(section.stamp(at: start)),
                                                   bodyDigest: try #require(section.bodyDigest(at: start))), to: directory)
            }
        }
        file.write(contents, builtAt: index.builtAt)
    }

    func titles(_ store: BoardStore) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try store.load(.all).cards.map { ($0.slug, $0.title) })
    }

    /// Rewrites `path` with `text` (which must be as long as what is there) and puts its old modification time back.
    func rewriteKeepingSizeAndTime(_ path: String, _ transform: (String) -> String) throws {
        var info = stat()
        try #require(lstat(path, &info) == 0)
        let old = try String(contentsOfFile: path, encoding: .utf8)
        let new = transform(old)
        try #require(new.utf8.count == old.utf8.count)
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        try #require(descriptor >= 0)
        _ = new.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
        var times = [info.st_atim, info.st_mtim]
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        try #require(lstat(path, &after) == 0)
        #expect(after.st_size == info.st_size && after.st_mtim.tv_sec == info.st_mtim.tv_sec && after.st_mtim.tv_nsec == info.st_mtim.tv_nsec)
    }

    // MARK: Entries

    @Test(arguments: ["simplekanban.md", "extra-keys.md", "nested.md", "literal-block.md", "quoted-title.md", "no-frontmatter.md",
                      "bom-crlf.md", "single-quoted.md", "block-list-labels.md", "simplekanban-empty-body.md"])
    func anEntryGivesBackTheCardItWasMadeFrom(fixture: String) throws {
        let file = CardFile.active(name: "card.md", column: "todo")
        let bytes = try Fixtures.cardBytes(fixture)
        let card = try #require(CardLoader.loadOne(file, bytes: bytes, includeBodies: false, labels: nil).card)
        let stamp = FileStamp(size: 1, modified: 2, changed: 3, inode: 4, device: 5)
        let entry = EntryLayout.encode(card, name: "card.md", stamp: stamp, bodyDigest: 42)
        let section = try #require(CardIndex.Section(bytes: entry, count: 1))
        let start = try #require(section.entry(named: "card.md"))
        #expect(section.entry(named: "other.md") == nil)
        #expect(section.card(at: start, file: file) == card)
        #expect(section.stamp(at: start) == stamp)
        #expect(section.bodyDigest(at: start) == 42)
        #expect(section.position(at: start) == .some(card.position))
    }

    @Test func theChecksumOfPiecesIsTheChecksumOfTheWhole() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 63, 64, 65, 1_000, 4_097] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = bytes.withUnsafeBytes(CardIndex.checksum)
            for _ in 0..<20 {
                var cuts = (0..<Int.random(in: 0...6, using: &generator)).map { _ in Int.random(in: 0...length, using: &generator) }
                cuts = ([0] + cuts + [length]).sorted()
                let pieces = zip(cuts, cuts.dropFirst()).map { bytes[$0..<$1] }
                #expect(CardIndex.checksum(of: pieces, length: length) == whole, "\(length) bytes cut at \(cuts)")
            }
        }
    }

    @Test func aTruncatedEntryDecodesAsNothing() throws {
        let file = CardFile.active(name: "card.md", column: "todo")
        let card = try #require(CardLoader.loadOne(file, bytes: try Fixtures.cardBytes("nested.md"), includeBodies: false, labels: nil).card)
        var entry = EntryLayout.encode(card, name: "card.md", stamp: FileStamp(size: 1, modified: 2, changed: 3, inode: 4, device: 5), bodyDigest: 0)
        entry.removeLast(3)
        #expect(CardIndex.Section(bytes: entry, count: 1) == nil)
    }

    // MARK: Used when the stamps match, and only then

    @Test func cardsComeFromTheIndexWhenTheirStatDataMatches() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            #expect(try titles(store).values.allSatisfy { $0 == Self.forged })
            // A search on titles is answered from the index too; one on body words reads the files it needs.
            #expect(try store.search(CardQuery(parsing: "title:index")).hits.count == 5)
            #expect(try store.search(CardQuery(parsing: "title:card")).hits.isEmpty)
            // Without an index, the files say what they say.
            let plain = try BoardStore(directory: board.path, index: .none)
            #expect(try plain.load().cards.map(\.title).sorted() == (1...5).map { "Card \($0)" })
        }
    }

    @Test func aSameSizeEditInTheSameSecondIsReadAgain() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            try rewriteKeepingSizeAndTime(board.path + "/cards/todo/card-2.md") { $0.replacingOccurrences(of: "title: Card 2", with: "title: Cord 2") }
            let titles = try titles(store)
            #expect(titles["card-2"] == "Cord 2")
            #expect(titles["card-1"] == Self.forged)
        }
    }

    @Test func aTouchWithAnOldTimeIsReadAgain() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
            try #require(utimensat(AT_FDCWD, board.path + "/cards/todo/card-3.md", &times, 0) == 0)
            let titles = try titles(store)
            #expect(titles["card-3"] == "Card 3")
            #expect(titles["card-1"] == Self.forged)
        }
    }

    @Test func aFileReplacedByARenameIsReadAgain() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            let path = board.path + "/cards/todo/card-4.md"
            var info = stat()
            try #require(lstat(path, &info) == 0)
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "title: Card 4", with: "title: Cord 4")
            try text.write(toFile: path + ".new", atomically: false, encoding: .utf8)
            var times = [info.st_atim, info.st_mtim]
            try #require(utimensat(AT_FDCWD, path + ".new", &times, 0) == 0)
            try #require(rename(path + ".new", path) == 0)
            #expect(try titles(store)["card-4"] == "Cord 4")
        }
    }

    @Test func aFileMadeAgainUnderTheSameNameIsReadAgain() throws {
        // Removing a file and making another frees its inode for reuse: the change time still tells them apart.
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            let path = board.path + "/cards/todo/card-5.md"
            var info = stat()
            try #require(lstat(path, &info) == 0)
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "title: Card 5", with: "title: Cord 5")
            try #require(unlink(path) == 0)
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            var times = [info.st_atim, info.st_mtim]
            try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
            #expect(try titles(store)["card-5"] == "Cord 5")
        }
    }

    @Test func filesThatChangedJustBeforeTheIndexWasBuiltAreNotTrusted() throws {
        // git's "racily clean" rule: a file changed in the tick the index was built could change again unseen.
        try withTemporaryBoard(.team) { board in
            _ = try makeCards(board)
            let store = try store(board, racyInterval: 60_000_000_000)
            try buildAndForge(store)
            #expect(try titles(store).values.allSatisfy { $0.hasPrefix("Card ") })
        }
    }

    @Test func removedAndAddedCardsAreSeen() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            try FileManager.default.removeItem(atPath: board.path + "/cards/todo/card-1.md")
            try store.createCard(title: "Fresh", in: "doing")
            let titles = try titles(store)
            #expect(titles["card-1"] == nil)
            #expect(titles["fresh"] == "Fresh")
            #expect(titles.count == 5)
        }
    }

    @Test func cardsWithFindingsAreReadEveryTime() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board, count: 2)
            try store.updateCard("card-1", CardUpdate(labels: ["bug"]))
            try waitUntilSettled(board)
            try store.rebuildIndex()
            // The label is declared when the index is built; once board.md drops it, the card is reported.
            let text = try String(contentsOfFile: board.path + "/board.md", encoding: .utf8)
            try text.replacingOccurrences(of: "  - id: bug\n    name: Bug\n    color: \"#e74c3c\"\n", with: "")
                .write(toFile: board.path + "/board.md", atomically: true, encoding: .utf8)
            for _ in 0..<2 {
                let found = try store.check().filter { $0.code == .undeclaredLabel }.map(\.location.path)
                #expect(found == ["cards/todo/card-1.md"])
            }
        }
    }

    // MARK: Ignored whole when damaged

    @Test(arguments: [0, 7, 20, -1, -2])
    func aTruncatedIndexIsIgnoredAndBuiltAgain(keep: Int) throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            let path = try #require(store.indexFile?.path)
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let length = keep >= 0 ? keep : keep == -1 ? size / 2 : size - 1
            try #require(truncate(path, off_t(length)) == 0)
            #expect(try titles(store).values.allSatisfy { $0.hasPrefix("Card ") })
            #expect(store.indexFile?.read()?.count == 5)
        }
    }

    @Test func aCorruptIndexIsIgnored() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            let path = try #require(store.indexFile?.path)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            for offset in [12, bytes.count / 2, bytes.count - 3] {
                var damaged = bytes
                damaged[offset] ^= 0x20
                try Data(damaged).write(to: URL(fileURLWithPath: path))
                #expect(try titles(store).values.allSatisfy { $0.hasPrefix("Card ") }, "byte \(offset)")
            }
            bytes = Array(repeating: 0xFF, count: 4096)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try titles(store).values.allSatisfy { $0.hasPrefix("Card ") })
        }
    }

    @Test func anIndexOfAnotherVersionIsIgnored() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            let path = try #require(store.indexFile?.path)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[8] &+= 1  // the version
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(store.indexFile?.read() == nil)
            #expect(try titles(store).values.allSatisfy { $0.hasPrefix("Card ") })
        }
    }

    @Test func anIndexOfAnotherBoardIsIgnored() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            // The other board: a copy of this one elsewhere, given this board's index.
            let other = board.root + "/other"
            try FileManager.default.copyItem(atPath: board.path, toPath: other)
            let otherStore = try BoardStore(directory: other, index: { var placement = IndexPlacement.automatic(cacheDirectory: board.root + "/cache"); placement.racyInterval = Self.testInterval; return placement }())
            try FileManager.default.copyItem(atPath: try #require(store.indexFile?.path), toPath: try #require(otherStore.indexFile?.path))
            #expect(otherStore.indexFile?.read() == nil)
            #expect(try otherStore.load().cards.allSatisfy { $0.title.hasPrefix("Card ") })
            // A board made again at the same path has new files (and maybe the old directory's inode).
            try FileManager.default.removeItem(atPath: board.path)
            try FileManager.default.moveItem(atPath: other, toPath: board.path)
            #expect(try titles(store).values.allSatisfy { $0.hasPrefix("Card ") })
        }
    }

    // MARK: Writers

    @Test func racingWritersLeaveAnIndexThatAgreesWithTheFiles() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board, count: 40)
            let failures = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 6) { worker in
                do {
                    let mine = try self.store(board)
                    for round in 0..<15 {
                        if worker % 2 == 0 {
                            _ = try mine.load(.all)
                        } else {
                            let slug = "card-\(1 + (worker * 7 + round) % 40)"
                            try mine.updateCard(slug, CardUpdate(title: "Card by \(worker) round \(round)"))
                        }
                    }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
            #expect(failures.withLock { $0 } == 0)
            try waitUntilSettled(board)
            let expected = try BoardStore(directory: board.path, index: .none).load(.all).cards
            #expect(try store.load(.all).cards == expected)
            #expect(try store.load(.all).cards == expected)
            #expect(try store.checkIndex().disagreeingPaths.isEmpty)
            #expect(try store.checkIndex().isPresent)
        }
    }

    @Test func aWriterLeavesNoTemporaryFilesBehind() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            _ = try store.load()
            let directory = try #require(store.indexFile.map { ($0.path as NSString).deletingLastPathComponent })
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
        }
    }

    @Test func aWriteKilledHalfWayIsNeverTrustedAndItsLeftoverGoes() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try buildAndForge(store)
            let path = try #require(store.indexFile?.path)
            let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // What a writer killed before its rename leaves: half a file under a temporary name of a process gone.
            var gone: pid_t = 4_000_000
            while kill(gone, 0) == 0 || errno != ESRCH { gone -= 1 }
            let directory = (path as NSString).deletingLastPathComponent
            let leftover = "\(directory)/.\((path as NSString).lastPathComponent).\(gone).7.tmp"
            try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: leftover))
            // And the index itself torn in the middle, as a file system may leave it after a power cut.
            try Data(whole.prefix(whole.count / 2) + Array(repeating: 0, count: whole.count - whole.count / 2)).write(to: URL(fileURLWithPath: path))
            #expect(try titles(store).values.allSatisfy { $0.hasPrefix("Card ") })
            #expect(!FileManager.default.fileExists(atPath: leftover))
            #expect(store.indexFile?.read()?.count == 5)
        }
    }

    // MARK: One-card commands

    @Test func addPlacesTheCardFromTheIndex() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try store.rebuildIndex()
            // Forge the last card's position in the index only: a card added at the bottom goes after it.
            try forge(store) { card in if card.slug == "card-5" { card.position = "x" } }
            // Without the index, the files decide.
            let plain = try BoardStore(directory: board.path, clock: { fixedNow }, index: .none)
            let earlier = try plain.createCard(title: "Earlier", in: "todo")
            #expect(try #require(earlier.card?.position).utf8Precedes("x"))
            let added = try store.createCard(title: "Last", in: "todo")
            #expect(try #require(added.card?.position).utf8Precedes("x") == false)
        }
    }

    @Test func oneCardCommandsAgreeWithAndWithoutTheIndex() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board, count: 8)
            try waitUntilSettled(board)
            try store.rebuildIndex()
            try store.moveCard("card-2", to: "doing")
            try store.moveCard("card-3", placement: .before("card-1"))
            try store.moveCard("card-8", placement: .top)
            try store.createCard(title: "Between", placement: .after("card-3"))
            try store.createCard(title: "First", in: "doing", placement: .top)
            try store.moveCard("card-7", to: "doing", placement: .top)
            try store.moveCard("card-7", to: "todo")
            try store.archiveCard("card-4")
            try store.unarchiveCard("card-4")
            try store.updateCard("card-5", CardUpdate(title: "Renamed"))
            try store.deleteCard("card-6")
            let plain = try BoardStore(directory: board.path, index: .none)
            #expect(try store.load(.all).cards == plain.load(.all).cards)
            #expect(try plain.load().cards(inColumn: "todo").map(\.slug) == ["card-8", "card-3", "between", "card-1", "card-5", "card-7", "card-4"])
        }
    }

    /// The index says the column's last card is at "x"; its file changed since, so `add` must not go by that:
    /// replaced by a rename (the same bytes under a new inode, as an atomic save leaves them), its entry is not the
    /// file's; edited in place (same inode, another stamp), it is the card the new key goes next to, which is
    /// checked in full, and the column is read.
    @Test(arguments: ["replaced by a rename", "edited in place"])
    func aCardChangedSinceTheIndexIsReadForItsPosition(change: String) throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try store.rebuildIndex()
            try forge(store) { card in if card.slug == "card-5" { card.position = "x" } }
            let path = board.path + "/cards/todo/card-5.md"
            if change == "replaced by a rename" {
                try Data(contentsOf: URL(fileURLWithPath: path)).write(to: URL(fileURLWithPath: path + ".new"))
                try #require(rename(path + ".new", path) == 0)
            } else {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                try text.replacingOccurrences(of: "title: Card 5", with: "title: Card five").write(toFile: path, atomically: false, encoding: .utf8)
            }
            let added = try store.createCard(title: "Last", in: "todo")
            #expect(try #require(added.card?.position).utf8Precedes("x"))
            let plain = try BoardStore(directory: board.path, index: .none)
            #expect(try plain.load().cards(inColumn: "todo").map(\.slug) == ["card-1", "card-2", "card-3", "card-4", "card-5", "last"])
        }
    }

    @Test func aCardFileTheIndexLacksIsReadForItsPosition() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try store.rebuildIndex()
            try "---\ntitle: By hand\nposition: zz\n---\n".write(toFile: board.path + "/cards/todo/by-hand.md", atomically: false, encoding: .utf8)
            let added = try store.createCard(title: "Last", in: "todo")
            #expect(try #require(added.card?.position).utf8Precedes("zz") == false)
            let first = try store.createCard(title: "First", in: "todo", placement: .top)
            let plain = try BoardStore(directory: board.path, index: .none)
            #expect(try plain.load().cards(inColumn: "todo").map(\.slug) == ["first", "card-1", "card-2", "card-3", "card-4", "card-5", "by-hand", "last"])
            #expect(first.card?.slug == "first")
        }
    }

    /// Adds `slug` to what the index says `directory` held when it was last listed.
    func forgeListing(_ store: BoardStore, _ directory: String, adding slug: String) throws {
        let file = try #require(store.indexFile)
        let index = try #require(file.read())
        var contents = CardIndexFile.Contents()
        for (name, section) in index.sections { contents.set(name, bytes: section.bytes, count: section.count) }
        contents.listings = index.listings
        var listing = try #require(index.listings[directory])
        listing.nameKeys = (listing.nameKeys + [CardIndex.nameKey(ofSlug: slug)]).sorted()
        contents.listings[directory] = listing
        file.write(contents, builtAt: index.builtAt)
    }

    /// Two slugs get one name key exactly when they collide (``Slug/collisionKey(_:)``): an ASCII slug folded a word
    /// at a time, any other through its collision key; generated slugs of every length around the eight-byte words.
    @Test func nameKeysAreEqualExactlyWhenSlugsCollide() {
        var random = SeededGenerator(seed: 25)
        let letters = Array("abcxyzABCXYZ019-@[`{é".unicodeScalars)
        var byKey: [UInt64: String] = [:]
        for _ in 0..<20_000 {
            let slug = String(String.UnicodeScalarView((0..<Int.random(in: 1...27, using: &random)).map { _ in letters.randomElement(using: &random)! }))
            let collision = Slug.collisionKey(slug)
            let key = CardIndex.nameKey(ofSlug: slug)
            #expect(key == CardIndex.nameKey(ofSlug: collision), "\(slug)")
            #expect(key == CardIndex.nameKey(ofSlug: slug.uppercased()) || Slug.collisionKey(slug.uppercased()) != collision, "\(slug)")
            if let other = byKey[key] { #expect(Slug.collisionKey(other) == collision, "\(other) and \(slug) share a key") }
            byKey[key] = slug
        }
    }

    @Test func aSlugTheIndexListedIsTakenWithoutListingItsDirectoryAgain() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try waitUntilSettled(board)
            try store.rebuildIndex()
            // Only the index says 'ghost' is in 'doing': a slug found taken shows that the listing came from it.
            try forgeListing(store, "cards/doing", adding: "Ghost")
            #expect(try store.checkIndex().disagreeingPaths == ["cards/doing"])
            #expect(try store.createCard(title: "Ghost", in: "todo").card?.slug == "ghost-2")
            // A directory changed since is listed again, and the forged name goes with the index's listing.
            try "---\ntitle: Fresh\n---\n".write(toFile: board.path + "/cards/doing/Fresh.md", atomically: false, encoding: .utf8)
            #expect(try store.createCard(title: "Ghost", in: "todo").card?.slug == "ghost")
            // And a name added since in another case is seen.
            #expect(try store.createCard(title: "fresh", in: "todo").card?.slug == "fresh-2")
        }
    }

    @Test func aListingIsKeptForEveryDirectoryAndTrustedOnlyWhenItsDirectoryIsUnchanged() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board)
            try store.archiveCard("card-1")
            try waitUntilSettled(board)
            try store.rebuildIndex()
            let index = try #require(store.indexFile?.read())
            #expect(Set(index.listings.keys) == ["cards/todo", "cards/doing", "cards/done", "archive"])
            #expect(index.listings["cards/todo"]?.nameKeys.count == 4)
            #expect(index.listings["archive"]?.holds(CardIndex.nameKey(ofSlug: "CARD-1")) == true)
            let todo = try #require(try FileSystem.OpenDirectory(board.path + "/cards/todo"))
            #expect(index.listing(of: "cards/todo", descriptor: todo.descriptor) != nil)
            try "x".write(toFile: board.path + "/cards/todo/new.md", atomically: false, encoding: .utf8)
            #expect(index.listing(of: "cards/todo", descriptor: todo.descriptor) == nil)
            // The next load notices and keeps the new listing.
            try waitUntilSettled(board)
            _ = try store.load()
            #expect(try #require(store.indexFile?.read()).listings["cards/todo"]?.nameKeys.count == 5)
        }
    }

    @Test func addFindsSlugsTakenInAnyCaseColumnOrTheArchive() throws {
        try withTemporaryBoard(.team) { board in
            let store = try store(board)
            for (path, title) in [("cards/doing/Fix-Login.md", "A"), ("archive/2026-01-01-fix-login-2.md", "B"),
                                  ("archive/fix-login-3.md", "C"), ("cards/done/fix-logins.md", "D"),
                                  ("cards/todo/Ünïcode.md", "E")] {
                try "---\ntitle: \(title)\nposition: a\n---\n".write(toFile: board.path + "/" + path, atomically: false, encoding: .utf8)
            }
            #expect(try store.createCard(title: "Fix login").card?.slug == "fix-login-4")
            #expect(try store.createCard(title: "Fix logins").card?.slug == "fix-logins-2")
            expectKanbanError(.alreadyExists) { try store.restoreCard(Array("x\n".utf8), slug: "ünïcode", in: "doing") }
            #expect(try store.createCard(title: "2026 01 01 fix login 2").card?.slug == "2026-01-01-fix-login-2")
        }
    }

    // MARK: Where it is kept, and checking it

    @Test func theIndexIsKeptInTheGitDirectoryOrTheCacheAndNeverInTheBoard() throws {
        try withTemporaryBoard(.team) { board in
            #expect(try BoardStore(directory: board.path).indexFile == nil)
            #expect(try BoardStore(directory: board.path, index: .automatic(cacheDirectory: board.path + "/.cache")).indexFile == nil)
            #expect(try BoardStore(directory: board.path, index: .none).indexFile == nil)
            let cached = try #require(try BoardStore(directory: board.path, index: .automatic(cacheDirectory: board.root + "/cache")).indexFile)
            #expect(cached.path.hasPrefix(board.root + "/cache/kanban/index-"))
            try FileManager.default.createDirectory(atPath: board.root + "/.git", withIntermediateDirectories: true)
            let inGit = try #require(try BoardStore(directory: board.path, index: .automatic(cacheDirectory: board.root + "/cache")).indexFile)
            #expect(inGit.path.hasPrefix(board.root + "/.git/kanban-index/index-"))
        }
    }

    @Test func checkingFindsAWrongIndexAndRebuildingMendsIt() throws {
        try withTemporaryBoard(.team) { board in
            let store = try makeCards(board, count: 3)
            try waitUntilSettled(board)
            try store.rebuildIndex()
            var check = try store.checkIndex()
            #expect(check.isPresent && check.entryCount == 3 && check.disagreeingPaths.isEmpty && check.staleCount == 0)
            try forge(store) { card in if card.slug == "card-2" { card.labels = ["ui"] } }
            check = try store.checkIndex()
            #expect(check.disagreeingPaths == ["cards/todo/card-2.md"])
            try store.rebuildIndex()
            #expect(try store.checkIndex().disagreeingPaths.isEmpty)
            try store.updateCard("card-1", CardUpdate(title: "Changed"))
            #expect(try store.checkIndex().staleCount == 1)
        }
    }
}
