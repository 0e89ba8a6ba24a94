/// Median wall times of the single-card commands, each run as a whole `kanban` process.
struct SingleCardCommandTimings {
    var move: Double
    var set: Double
    var add: Double
    var archive: Double
    var show: Double
    var ready: Double
    var claim: Double

    /// The commands that touch one card's file: held to the single-card target.
    var named: [(name: String, seconds: Double)] {
        [("move", move), ("set", set), ("add", add), ("archive", archive)]
    }

    /// The agents' commands, which read the whole board (what waits for a card, the ready queue, the card a claim
    /// takes): compared with `list`, not held to the single-card target.
    var boardWide: [(name: String, seconds: Double)] {
        [("show", show), ("ready", ready), ("claim", claim)]
    }
}

/// Runs `kanban move`, `set`, `add`, `archive`, `show`, `ready` and `claim` as processes, `runs` times each, on the card
/// ``SingleCardOperations`` works on, and puts every file a command wrote or removed back as generated after it,
/// so that every run starts from the same board and the board is unchanged afterwards.
enum SingleCardCommands {
    /// The slug `kanban add` gives ``SingleCardOperations/probeTitle``.
    static let probeSlug = "probe-card-from-kanban-bench"

    static func measure(_ kanban: KanbanExecutable, on board: GeneratedBoard, runs: Int)
        throws(BenchmarkError) -> SingleCardCommandTimings
    {
        let column = SingleCardOperations.sourceColumn
        guard let index = SingleCardOperations.middleCard(of: board, in: column) else {
            throw BenchmarkError("the \(board.cardCount)-card board has no active card in '\(column)' to operate on")
        }
        let slug = board.card(index).slug
        let source = "cards/\(column)/\(slug).md"
        let moved = "cards/\(SingleCardOperations.moveTarget)/\(slug).md"
        let probe = "cards/\(column)/\(probeSlug).md"
        var samples: [String: [Double]] = [:]

        func run(_ arguments: [String]) throws(BenchmarkError) {
            let child = try kanban.run(["--quiet"] + arguments, on: board)
            guard child.succeeded else {
                throw BenchmarkError(KanbanExecutable.commandLine(["--board", board.directory, "--quiet"] + arguments)
                                     + " \(child.statusDescription)")
            }
            samples[arguments[0], default: []].append(child.seconds)
        }
        func check(_ holds: Bool, _ failure: @autoclosure () -> String) throws(BenchmarkError) {
            guard holds else { throw BenchmarkError("on the \(grouped(board.cardCount))-card board, \(failure())") }
        }
        func exists(_ path: String) -> Bool { POSIX.isFile(board.directory + "/" + path) }

        for _ in 0..<runs {
            try run(["move", slug, SingleCardOperations.moveTarget])
            try check(exists(moved) && !exists(source), "`kanban move` did not move \(source) to \(moved)")
            try board.restore(source)
            try board.restore(moved)

            try run(["set", slug, "--title", SingleCardOperations.newTitle])
            let text = String(decoding: try POSIX.readFile(board.directory + "/" + source), as: UTF8.self)
            try check(text.contains(SingleCardOperations.newTitle), "`kanban set` did not write the new title to \(source)")
            try board.restore(source)

            try run(["add", SingleCardOperations.probeTitle, "--column", column])
            try check(exists(probe), "`kanban add` did not create \(probe)")
            try board.restore(probe)

            try run(["archive", slug])
            let archived = try archivedFile(of: slug, on: board)
            try check(archived != nil && !exists(source), "`kanban archive` did not move \(source) to archive/<date>-\(slug).md")
            try board.restore(source)
            if let archived { try board.restore(archived) }

            // Reading one card (with where it stands for agents: the whole board's dependencies), the ready queue,
            // and a claim (chosen and written under the board's lock), put back as generated.
            try run(["show", slug, "--json"])
            try run(["ready", "--json"])
            try run(["claim", slug, "--as", "bench"])
            try check(exists(moved) && !exists(source), "`kanban claim` did not move \(source) to \(moved)")
            try board.restore(source)
            try board.restore(moved)
        }

        let remaining = try GeneratedBoard.cardFilePaths(in: board.directory).count
        guard remaining == board.cardCount else {
            throw BenchmarkError("after the single-card commands the \(board.cardCount)-card board has \(remaining) card files; restoring failed")
        }
        func middle(_ name: String) -> Double { median(samples[name] ?? [0]) }
        return SingleCardCommandTimings(move: middle("move"), set: middle("set"), add: middle("add"), archive: middle("archive"),
                                        show: middle("show"), ready: middle("ready"), claim: middle("claim"))
    }

    /// The file `kanban archive` made for `slug`: `archive/<today>-<slug>.md`, which is no generated card.
    private static func archivedFile(of slug: String, on board: GeneratedBoard) throws(BenchmarkError) -> String? {
        for entry in try POSIX.entries(of: board.directory + "/archive") where entry.name.hasSuffix("-\(slug).md") {
            let path = "archive/\(entry.name)"
            if board.index(ofPath: path) == nil { return path }
        }
        return nil
    }
}
