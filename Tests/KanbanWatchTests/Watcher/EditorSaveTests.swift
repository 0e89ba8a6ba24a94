#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import KanbanWatch

extension BoardWatcherTests {
    /// How editors and tools save a file, step by step as they do it: each save is one `modified` and
    /// nothing else, and the card is never seen empty or half-written.
    @Suite struct EditorSaveTests {
        static let card = "cards/todo/fix-login.md"
        static let newText = WatchedBoard.cardText(title: "fix-login", column: "todo", body: "Saved by an editor, with a longer body.")

        /// The one event every save below must produce.
        func expectOneModification(_ board: WatchedBoard, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            let seen = board.recorder.wait { $0.contains { $0.kind == .modified && $0.slug == "fix-login" } }
            #expect(seen, "the save was not reported", sourceLocation: sourceLocation)
            try board.barrier(sourceLocation: sourceLocation)
            let events = board.recorder.cardEvents
            #expect(events.summaries == ["modified fix-login"], "\(events)", sourceLocation: sourceLocation)
            #expect(events.first?.changes == [.body], sourceLocation: sourceLocation)
            #expect(events.allSatisfy { $0.title == "fix-login" }, "a card seen empty or half-written: \(events)", sourceLocation: sourceLocation)
            #expect(try board.text(Self.card) == Self.newText, sourceLocation: sourceLocation)
        }

        @Test(arguments: Mechanism.allCases)
        func vimSave(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.write("swap 1", to: "cards/todo/.fix-login.md.swp")
            try board.start(mechanism)
            try board.write("swap 2", to: "cards/todo/.fix-login.md.swp")
            // `:w` with 'writebackup': the 4913 probe, the old file renamed to a backup, a new file written
            // in two chunks, its mode set, the backup removed, the swap file updated.
            try board.write("", to: "cards/todo/4913")
            try board.remove("cards/todo/4913")
            try board.rename(Self.card, Self.card + "~")
            let bytes = Array(Self.newText.utf8)
            let descriptor = open(board.path(Self.card), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            #expect(descriptor >= 0)
            _ = bytes[..<20].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            _ = bytes[20...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            fsync(descriptor)
            close(descriptor)
            try FileSystemTestSupport.check(chmod(board.path(Self.card), 0o644), "chmod")
            try board.remove(Self.card + "~")
            try board.write("swap 3", to: "cards/todo/.fix-login.md.swp")
            try expectOneModification(board)
        }

        @Test(arguments: Mechanism.allCases)
        func jetBrainsSafeWrite(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            try board.write(Self.newText, to: Self.card + "___jb_tmp___")
            try board.rename(Self.card, Self.card + "___jb_old___")
            try board.rename(Self.card + "___jb_tmp___", Self.card)
            try board.remove(Self.card + "___jb_old___")
            try expectOneModification(board)
        }

        @Test(arguments: Mechanism.allCases)
        func truncateThenWriteSlowly(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            // A writer that truncates, then takes longer than the settle window to write the new bytes.
            let bytes = Array(Self.newText.utf8)
            let descriptor = open(board.path(Self.card), O_WRONLY | O_TRUNC | O_CLOEXEC)
            #expect(descriptor >= 0)
            usleep(150_000)  // the slow writer being simulated, not a wait for the watcher
            _ = bytes[..<30].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            usleep(60_000)
            _ = bytes[30...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            try expectOneModification(board)
        }

        @Test(arguments: Mechanism.allCases)
        func sedInPlace(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            try board.shell("sed -i 's/^Body\\.$/Saved by an editor, with a longer body./' \(Self.card)")
            try expectOneModification(board)
        }

        @Test(arguments: Mechanism.allCases)
        func emacsSaveWithLockAndAutoSaveFiles(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            // The lock is a dangling symbolic link; the auto-save file comes and goes; the old file becomes the backup.
            try FileSystemTestSupport.check(symlink("someone@host.4242:1700000000", board.path("cards/todo/.#fix-login.md")), "symlink")
            try board.write("auto-saved", to: "cards/todo/#fix-login.md#")
            try board.rename(Self.card, Self.card + "~")
            try board.write(Self.newText, to: Self.card)
            try board.remove("cards/todo/#fix-login.md#")
            try board.remove("cards/todo/.#fix-login.md")
            try expectOneModification(board)
        }

        @Test(arguments: Mechanism.allCases)
        func ourOwnAtomicWrite(_ mechanism: Mechanism) throws {
            let board = try WatchedBoard()
            try board.start(mechanism)
            try board.write(Self.newText, to: "cards/todo/.fix-login.md.4242.0.kanban-tmp")
            try board.rename("cards/todo/.fix-login.md.4242.0.kanban-tmp", Self.card)
            try expectOneModification(board)
        }
    }
}
