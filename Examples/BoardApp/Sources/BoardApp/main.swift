// A headless stand-in for a Mac or iPad app: it opens a copy of the sample board in a live board model, prints
// every change the model applies, makes a change through the model, writes a card as another program would,
// and exits once the model has shown both; then it merges two copies of a card with the sync rules, and commits
// and syncs the board with git as `kanban` does. Run it with `swift run --package-path Examples/BoardApp [board]`.
import Foundation
import KanbanCore
import KanbanWatch

/// `SampleBoards/product-launch`, from this file's place in the repository, or the board named on the command line.
let sample = CommandLine.arguments.dropFirst().first ?? URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("SampleBoards/product-launch").path

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BoardApp: \(message)\n".utf8))
    exit(1)
}

let copy = FileManager.default.temporaryDirectory.appendingPathComponent("BoardApp-\(UUID().uuidString)").path
do {
    try FileManager.default.copyItem(atPath: sample, toPath: copy)
} catch {
    fail("cannot copy the board at \(sample): \(error)")
}
defer { try? FileManager.default.removeItem(atPath: copy) }

let source = ImportSource()
let model: LiveBoardModel
do {
    model = LiveBoardModel(store: try BoardStore(directory: copy), watching: .source(source),
                           options: WatchOptions(settle: .milliseconds(50)))
    try await model.start()
} catch {
    fail("\(error)")
}
print("\(model.board.board.title): \(model.board.cardCount) cards")
for column in model.board.columns {
    print("  \(column.name): \(column.cards.count)")
}

// What a view would get from Observation, as a stream: print each change, and note the two this run waits for.
let changes = model.changes()
let printer = Task { @MainActor in
    var seen: Set<String> = []
    for await change in changes {
        switch change {
        case .loaded: print("loaded")
        case .made(let change): print("made: \(change.card.map { "\($0.title) in \($0.column)" } ?? "a deletion")")
        case .observed(let event): print("observed: \(event)")
        case .notice(let notice): print("notice: \(notice.message)")
        case .stopped: return seen
        }
        if case .made(let change) = change, let slug = change.card?.slug { seen.insert(slug) }
        if case .observed(let event) = change, let slug = event.slug { seen.insert(slug) }
        if seen.isSuperset(of: ["try-the-example", "imported-card"]) { return seen }
    }
    return seen
}

let firstColumn = model.board.columns.first { !$0.isCollapsed }?.id ?? "todo"
do {
    // A change through the model: the store runs off the main actor; the board shows it when the call returns.
    try await model.addCard(title: "Try the example", in: firstColumn)
    // A change the app makes behind the store's back, which its change source reports.
    let imported = "cards/\(firstColumn)/imported-card.md"
    try "---\ntitle: Imported card\n---\n\nWritten by another program.\n".write(toFile: copy + "/" + imported, atomically: true, encoding: .utf8)
    source.didWrite(imported)
} catch {
    fail("\(error)")
}

let timeout = Task {
    try await Task.sleep(for: .seconds(30))
    model.stop()
}
let seen = await printer.value
timeout.cancel()
model.stop()
guard seen.contains("imported-card") else { fail("the imported card was never observed") }
let titles = model.board.columns.first { $0.id == firstColumn }?.cards.map(\.title) ?? []
print("\(firstColumn): \(titles.joined(separator: ", "))")

// The merge rules, as an app that syncs through a shared folder would use them.
guard let merged = mergeTwoCopies(ofCardIn: copy) else { fail("no card to merge") }
guard merged.contains("example") && merged.contains("A line added on the other copy.") else { fail("the merge lost a change:\n\(merged)") }
print("merged two copies of a card: the label and the line are both in it")

// The same commits and sync as `kanban`, through the libraries (skipped where git is not installed).
do {
    for line in try commitAndSync(boardAt: copy) { print("git: \(line)") }
} catch {
    print("git: skipped (\(error))")
}
defer { try? FileManager.default.removeItem(atPath: copy + ".git-remote") }
