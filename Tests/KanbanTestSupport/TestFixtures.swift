import Foundation

/// The sample board and the fixtures, found from this file's path so that tests run from any directory.
public enum TestFixtures {
    /// The package root: this file is `<root>/Tests/KanbanTestSupport/TestFixtures.swift`.
    public static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .path

    /// `SampleBoards/product-launch`.
    public static var sampleBoard: String { packageRoot + "/SampleBoards/product-launch" }

    /// `Tests/Fixtures/boards/<name>` (`messy`, `simplekanban`, ...).
    public static func board(_ name: String) -> String { packageRoot + "/Tests/Fixtures/boards/" + name }

    /// `Tests/Fixtures/cards/<name>`.
    public static func card(_ name: String) -> String { packageRoot + "/Tests/Fixtures/cards/" + name }

    /// `Tests/Fixtures/import/<name>` (`trello-board.json`, `backlog`, ...).
    public static func importFixture(_ name: String) -> String { packageRoot + "/Tests/Fixtures/import/" + name }

    /// The bytes of `Tests/Fixtures/import/<name>`; empty when the file cannot be read (the test then fails on them).
    public static func importBytes(_ name: String) -> [UInt8] {
        (FileManager.default.contents(atPath: importFixture(name))).map { Array($0) } ?? []
    }
}
