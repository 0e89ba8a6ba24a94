import Foundation
import KanbanCore
import KanbanGit

/// An app that keeps its board in git does what `kanban` does, through the libraries: it makes its changes through a
/// `BoardSession` (each committed, as `--commit` would) and syncs with the same call as `kanban sync`, showing the
/// same lines. Returns those lines; throws when git is missing or a step fails.
func commitAndSync(boardAt directory: String) throws -> [String] {
    let environment = ProcessInfo.processInfo.environment.merging([
        "GIT_AUTHOR_NAME": "Board App", "GIT_AUTHOR_EMAIL": "app@example.com",
        "GIT_COMMITTER_NAME": "Board App", "GIT_COMMITTER_EMAIL": "app@example.com",
    ]) { _, example in example }
    guard let program = GitConfiguration.locate(in: environment) else {
        throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "git is not installed"])
    }
    let git = GitConfiguration(executable: program, environment: environment)
    // A repository for the board and a remote to sync with, as a person would have made them.
    let remote = directory + ".git-remote"
    try run(program, ["init", "--quiet", "--bare", remote])
    try run(program, ["-C", directory, "init", "--quiet", "--initial-branch=main"])
    try run(program, ["-C", directory, "remote", "add", "origin", remote])

    let store = try BoardStore(directory: directory)
    let session = BoardSession(store: store, sync: GitSyncProvider(store: store, configuration: git), commitPolicy: .always)
    var lines: [String] = []
    let board = try store.loadBoard()
    // The first sync commits the board as it is, then stops: the branch has no upstream yet. Its error says what to do,
    // in the same words as `kanban sync`; the app does it.
    let first = Result { try session.sync() }
    switch first {
    case .success(let report):
        lines += report.lines(board: board).map(\.text)
    case .failure(let error):
        guard let error = error as? SyncError, error.code == .noUpstream else { throw error }
        lines += error.lines
        try run(program, ["-C", directory, "push", "--quiet", "-u", "origin", "main"])
    }
    let column = board.columns.first?.id ?? "todo"
    let (_, outcome) = try session.change { store in ((), [try store.createCard(title: "Committed by the app", in: column)]) }
    if let commit = outcome.commit { lines.append("committed \(commit.shortCommit) \(commit.message.subject)") }
    lines += try session.sync().lines(board: board).map(\.text)
    return lines
}

private func run(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "git \(arguments.joined(separator: " ")) failed"])
    }
}
