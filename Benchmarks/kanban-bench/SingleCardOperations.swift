import KanbanCore

/// Median times of the commands that touch one card, each measured as a command would run it (open the
/// store, do the one thing) minus process start-up.
struct SingleCardTimings {
    var lookup: Double
    var move: Double
    var set: Double
    var add: Double
    var archive: Double
    /// The most files any one operation wrote or removed (more than 2 means neighbours were re-keyed).
    var mostPathsTouched: Int

    var named: [(name: String, seconds: Double)] {
        [("card lookup", lookup), ("move", move), ("set", set), ("add", add), ("archive", archive)]
    }
}

/// Runs each single-card operation `runs` times on the board and puts every file it changed back as generated
/// after each run, so every run starts from the same board and the board is unchanged afterwards.
enum SingleCardOperations {
    static let moveTarget = "doing"
    static let sourceColumn = "todo"
    static let newTitle = "Renamed by kanban-bench"
    static let probeTitle = "Probe card from kanban-bench"

    static func measure(on board: GeneratedBoard, runs: Int) throws(BenchmarkError) -> SingleCardTimings {
        guard let index = middleCard(of: board, in: sourceColumn) else {
            throw BenchmarkError("the \(board.cardCount)-card board has no active card in '\(sourceColumn)' to operate on")
        }
        let slug = board.card(index).slug
        var samples: [String: [Double]] = [:]
        var mostPathsTouched = 0

        func timed(_ name: String, _ body: (BoardStore) throws(KanbanError) -> BoardChange?) throws(BenchmarkError) {
            let change: BoardChange?
            do {
                let (result, seconds) = try wallTime { () throws(KanbanError) -> BoardChange? in
                    try body(BoardStore(directory: board.directory))
                }
                change = result
                samples[name, default: []].append(seconds)
            } catch {
                throw BenchmarkError("\(name) on the \(board.cardCount)-card board failed: \(error)")
            }
            guard let change else { return }
            mostPathsTouched = max(mostPathsTouched, change.paths.count)
            for path in change.paths { try board.restore(path) }
        }

        for _ in 0..<runs {
            var found = ""
            try timed("lookup") { store throws(KanbanError) in
                found = try store.card(slug).slug
                return nil
            }
            guard found == slug else { throw BenchmarkError("looking up '\(slug)' gave '\(found)'") }
            try timed("move") { store throws(KanbanError) in try store.moveCard(slug, to: moveTarget) }
            try timed("set") { store throws(KanbanError) in try store.updateCard(slug, CardUpdate(title: newTitle)) }
            try timed("add") { store throws(KanbanError) in try store.createCard(title: probeTitle, in: sourceColumn) }
            try timed("archive") { store throws(KanbanError) in try store.archiveCard(slug) }
        }

        let remaining = try GeneratedBoard.cardFilePaths(in: board.directory).count
        guard remaining == board.cardCount else {
            throw BenchmarkError("after the single-card operations the \(board.cardCount)-card board has \(remaining) card files; restoring failed")
        }
        func middle(_ name: String) -> Double { median(samples[name] ?? [0]) }
        return SingleCardTimings(lookup: middle("lookup"), move: middle("move"), set: middle("set"), add: middle("add"),
                                 archive: middle("archive"), mostPathsTouched: mostPathsTouched)
    }

    /// The active card of `column` nearest the middle of the generation order: the card every single-card
    /// operation, and command, works on.
    static func middleCard(of board: GeneratedBoard, in column: String) -> Int? {
        let start = board.cardCount / 2
        for index in start..<board.cardCount where !board.isArchived(index) && board.column(of: index) == column {
            return index
        }
        for index in stride(from: start - 1, through: 0, by: -1) where !board.isArchived(index) && board.column(of: index) == column {
            return index
        }
        return nil
    }
}
