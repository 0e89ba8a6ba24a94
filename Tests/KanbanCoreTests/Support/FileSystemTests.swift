import Foundation
import Testing
@testable import KanbanCore

@Suite struct FileSystemTests {
    private func contents(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func leftovers(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".kanban-tmp") }
    }

    @Test func writeAtomicallyCreatesAndReplacesAFile() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/card.md"
            try FileSystem.writeAtomically(Array("first".utf8), to: path)
            #expect(try contents(path) == Array("first".utf8))
            try FileSystem.writeAtomically(Array("second, longer".utf8), to: path)
            #expect(try contents(path) == Array("second, longer".utf8))
            try FileSystem.writeAtomically([], to: path)
            #expect(try contents(path).isEmpty)
            #expect(try leftovers(in: directory).isEmpty)
        }
    }

    @Test func writeAtomicallyKeepsThePermissionsOfTheFileItReplaces() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/private.md"
            try FileSystem.writeAtomically(Array("a".utf8), to: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            try FileSystem.writeAtomically(Array("b".utf8), to: path)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        }
    }

    @Test func writeAtomicallyReplacesTheFileRatherThanWritingIntoIt() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/card.md"
            try FileSystem.writeAtomically(Array("old".utf8), to: path)
            let before = try FileState(path: path)
            try FileSystem.writeAtomically(Array("new".utf8), to: path)
            let after = try FileState(path: path)
            // A reader holding the old file keeps the old bytes: the new content arrives under a new inode.
            #expect(before.inode != after.inode)
        }
    }

    @Test func writeAtomicallyIntoAMissingDirectoryFailsAndNamesTheFile() throws {
        try withTemporaryDirectory { directory in
            let error = expectKanbanError(.fileSystem) {
                try FileSystem.writeAtomically(Array("x".utf8), to: directory + "/missing/card.md")
            }
            #expect(error?.message.contains("missing/card.md") == true)
        }
    }

    @Test func createRefusesAnExistingFileAndKeepsIt() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/card.md"
            let root = try BoardRoot(path: directory)
            try root.create(Array("original".utf8), at: "card.md")
            #expect(try contents(path) == Array("original".utf8))
            expectKanbanError(.alreadyExists) {
                try root.create(Array("intruder".utf8), at: "card.md")
            }
            #expect(try contents(path) == Array("original".utf8))
            #expect(try leftovers(in: directory).isEmpty)
            let hidden = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".") }
            #expect(hidden.isEmpty)
        }
    }

    @Test func readFileReadsLargeFilesWhole() throws {
        try withTemporaryDirectory { directory in
            let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/big.md"))
            #expect(try FileSystem.readFile(directory + "/big.md") == bytes)
        }
    }

    @Test func readFileOfAMissingFileFailsAndNamesIt() throws {
        try withTemporaryDirectory { directory in
            let error = expectKanbanError(.fileSystem) { try FileSystem.readFile(directory + "/nope.md") }
            #expect(error?.message.contains("nope.md") == true)
        }
    }

    @Test func entriesListsFilesDirectoriesAndLinks() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.writeAtomically([], to: directory + "/file.md")
            try FileSystem.makeDirectory(directory + "/sub")
            try FileManager.default.createSymbolicLink(atPath: directory + "/link.md", withDestinationPath: "file.md")
            let root = try BoardRoot(path: directory)
            let entries = try root.entries(of: "")
            let kinds = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.kind) })
            #expect(kinds == ["file.md": .file, "sub": .directory, "link.md": .symbolicLink])
            #expect(try root.entries(of: "missing").isEmpty)
        }
    }

    @Test func makeDirectoryToleratesAnExistingDirectory() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.makeDirectory(directory + "/cards")
            try FileSystem.makeDirectory(directory + "/cards")
            #expect(FileSystem.isDirectory(directory + "/cards"))
        }
    }

    @Test func removeDirectoryIfEmptyKeepsADirectoryWithFiles() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.makeDirectory(directory + "/full")
            try FileSystem.writeAtomically([], to: directory + "/full/a.md")
            #expect(!FileSystem.removeDirectoryIfEmpty(directory + "/full"))
            #expect(FileSystem.exists(directory + "/full/a.md"))
            try FileSystem.makeDirectory(directory + "/empty")
            #expect(FileSystem.removeDirectoryIfEmpty(directory + "/empty"))
            #expect(!FileSystem.exists(directory + "/empty"))
        }
    }

    @Test func removeToleratesAMissingFile() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.remove(directory + "/never-existed.md")
        }
    }

    @Test func realPathResolvesLinksAndRejectsMissingPaths() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.makeDirectory(directory + "/target")
            try FileManager.default.createSymbolicLink(atPath: directory + "/alias", withDestinationPath: directory + "/target")
            #expect(FileSystem.realPath(directory + "/alias") == directory + "/target")
            #expect(FileSystem.realPath(directory + "/alias/../target") == directory + "/target")
            #expect(FileSystem.realPath(directory + "/missing") == nil)
        }
    }
}
