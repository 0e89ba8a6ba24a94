import KanbanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What `kanban-bench report` was asked for.
struct ReportBenchmarkOptions {
    var cards = 5_000
    var commits = 20_000
    var runs = 3
    var keepsBoard = false

    static let help = """
        OVERVIEW: Measures kanban report on a board with a long git history: the history is generated with
        git fast-import (one commit per card made, the rest moves from column to column, some archives), then
        'kanban report --json' and 'kanban report' are timed as whole processes: the first run (no history
        cache), the next after one new commit (the cache brought up to date), and one with HEAD unchanged; and
        'git log --raw' over the same history as the first run's baseline (and git log as kanban runs it, its floor).

        USAGE: kanban-bench report [--cards <n>] [--commits <n>] [--runs <n>] [--keep]

        OPTIONS:
          --cards <n>     Cards in the history (default: 5000).
          --commits <n>   Commits in the history, at least one per card (default: 20000).
          --runs <n>      Timed runs of each command; the median is printed (default: 3).
          --keep          Keep the generated repository and print where it is.
          -h, --help      Show this help.

        Targets for 5,000 cards and 20,000 commits: a first run at most 1.2 times git log --raw, a run after
        one new commit at most 0.2 s. Needs git, and the kanban product built beside the benchmark.

        """

    /// Parses `arguments` (after `report`); nil when help was asked for.
    static func parse(_ arguments: [String]) throws(BenchmarkError) -> ReportBenchmarkOptions? {
        var options = ReportBenchmarkOptions()
        var remaining = SubcommandArguments(arguments)
        while let argument = remaining.next() {
            switch argument {
            case "-h", "--help": return nil
            case "--cards": options.cards = try remaining.number(of: argument, in: 1...1_000_000)
            case "--commits": options.commits = try remaining.number(of: argument, in: 1...10_000_000)
            case "--runs": options.runs = try remaining.number(of: argument, in: 1...100)
            case "--keep": options.keepsBoard = true
            default: throw BenchmarkError("Error: unknown option '\(argument)' for 'kanban-bench report'; see --help")
            }
        }
        guard options.commits >= options.cards else {
            throw BenchmarkError("Error: '--commits' must be at least '--cards' (one commit makes each card)")
        }
        return options
    }
}

/// `kanban-bench report ...`: generates the history, times the command, prints the figures beside the target.
func runReportBenchmark(arguments: [String]) throws {
    guard let options = try ReportBenchmarkOptions.parse(arguments) else {
        print(ReportBenchmarkOptions.help, terminator: "")
        return
    }
    guard let kanban = KanbanExecutable.besideBenchmark() else {
        throw BenchmarkError("no kanban executable beside the benchmark; build it first: \(KanbanExecutable.buildCommand)")
    }
    let parent = POSIX.environmentValue("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let root = try POSIX.makeTemporaryDirectory(in: parent, prefix: "kanban-bench-report")
    defer {
        if options.keepsBoard {
            print("repository kept in \(root)/board")
        } else {
            try? POSIX.removeTree(root)
        }
    }
    let history = GeneratedHistory(cards: options.cards, commits: options.commits)
    let (_, generation) = try wallTime { () throws(BenchmarkError) in try history.write(to: root + "/board", scratch: root) }
    var loadAverage = "unknown"
    if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
        loadAverage = text.split(separator: " ").prefix(3).joined(separator: " ")
    }
    print("kanban-bench report: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage); a history of \(grouped(options.cards)) cards "
          + "and \(grouped(options.commits)) commits generated in \(formatSeconds(generation))")
    let board = root + "/board"
    // The baseline the issue names: git listing the same history as a person would ask it to.
    let baseline = try measure(["git", "-C", board, "log", "--raw", "HEAD"], runs: options.runs)
    print("\("git log --raw".padding(toLength: 38, withPad: " ", startingAt: 0)) \(baseline.description(runs: options.runs))")
    // kanban's own `git log` (HistoryLog.arguments: no rename detection, merges against all parents): its floor.
    let ownLog = ["git", "-C", board, "log", "--reverse", "--topo-order", "--full-history", "--no-renames", "-c", "--raw", "-z", "--no-abbrev",
                  "--relative", "--format=%x01%H %at %P%x02%an%x02%ae%x02%(trailers:key=Kanban-Agent,valueonly,unfold,separator=%x2C)", "HEAD"]
    let floor = try measure(ownLog, runs: options.runs)
    print("\("git log as kanban runs it".padding(toLength: 38, withPad: " ", startingAt: 0)) \(floor.description(runs: options.runs))")
    var added = 0
    // The HTML document is what the page's Report view serves.
    for arguments in [["report", "--json"], ["report"], ["report", "--html", "-"]] {
        let command = [kanban.path, "--board", board] + arguments
        let name = KanbanExecutable.commandLine(arguments)
        let first = try measure(command, runs: options.runs) { () throws(BenchmarkError) in try removeHistoryCache(board) }
        let limit = 1.2 * baseline.time
        print("\((name + ", first run").padding(toLength: 38, withPad: " ", startingAt: 0)) \(first.description(runs: options.runs))"
              + "   (target ≤ 1.2 × git log = \(formatSeconds(limit)): \(verdict(first.time <= limit)))")
        let next = try measure(command, runs: options.runs) { () throws(BenchmarkError) in
            added += 1
            try GeneratedHistory.addCard(number: added, in: board)
        }
        print("\((name + ", one new commit").padding(toLength: 38, withPad: " ", startingAt: 0)) \(next.description(runs: options.runs))"
              + "   (target ≤ 0.2 s: \(verdict(next.time <= 0.2)))")
        let same = try measure(command, runs: options.runs)
        print("\((name + ", HEAD unchanged").padding(toLength: 38, withPad: " ", startingAt: 0)) \(same.description(runs: options.runs))")
    }
}

/// The median of `runs` runs of a whole process, each after `prepare` (not timed).
private func measure(_ command: [String], runs: Int, prepare: () throws(BenchmarkError) -> Void = {}) throws(BenchmarkError) -> Measurement {
    var times: [Double] = []
    var processor: [Double] = []
    var memory = 0
    for _ in 0..<runs {
        try prepare()
        let result = try ChildProcess.run(command, keepsOutput: false)
        guard result.succeeded else { throw BenchmarkError("\(command.joined(separator: " ")) \(result.statusDescription)") }
        times.append(result.seconds)
        processor.append(result.processorSeconds)
        memory = max(memory, result.peakMemoryKiB)
    }
    return Measurement(time: median(times), processorTime: median(processor), memoryKiB: memory)
}

private struct Measurement {
    var time: Double
    var processorTime: Double
    var memoryKiB: Int

    func description(runs: Int) -> String {
        "\(formatSeconds(time)) (median of \(runs); processor time \(formatSeconds(processorTime)) with git's; \(memoryKiB / 1024) MB)"
    }
}

/// Removes the board's history cache (`.git/kanban-index/history-*`), leaving the board index.
private func removeHistoryCache(_ board: String) throws(BenchmarkError) {
    let directory = board + "/.git/kanban-index"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names where name.hasPrefix("history-") {
        try? FileManager.default.removeItem(atPath: directory + "/" + name)
    }
}

/// A board's git history made up for the benchmark, written with `git fast-import`: columns backlog, todo,
/// in-progress, review, done; each card made in the backlog by a commit of its own, then moved on, one commit per
/// move, now and then back a column, some archived from done. Author dates spread over a year, an hour or more apart.
struct GeneratedHistory {
    var cards: Int
    var commits: Int

    static let columns = ["backlog", "todo", "in-progress", "review", "done"]

    /// The git repository, with the board checked out at its top.
    func write(to directory: String, scratch: String) throws(BenchmarkError) {
        var random = SeededGenerator(seed: 22)
        var column = Array(repeating: 0, count: cards)
        var archived = Array(repeating: false, count: cards)
        var made = 0
        var stream = ""
        stream.reserveCapacity(commits * 400)
        var time = 1_767_225_600  // 2026-01-01
        let step = max(60, 365 * 86_400 / commits)
        let board = "---\ntitle: Generated\ncolumns:\n" + Self.columns.map { "  - id: \($0)\n    name: \($0)\n" }.joined() + "---\n"
        func commit(_ message: String, _ operations: String) {
            time += step / 2 + random.below(step)
            stream += "commit refs/heads/main\nauthor Bench <bench@example.com> \(time) +0000\ncommitter Bench <bench@example.com> \(time) +0000\n"
            stream += "data \(message.utf8.count)\n\(message)\n"
            stream += operations
            stream += "\n"
        }
        func card(_ index: Int) -> String {
            "---\ntitle: Card \(index)\ncolumn: \(Self.columns[column[index]])\nposition: a\(index)\nlabels: [\(index % 3 == 0 ? "bug" : "feature")]\n---\n\nWork item \(index).\n"
        }
        func inline(_ path: String, _ text: String) -> String {
            "M 100644 inline \(path)\ndata \(text.utf8.count)\n\(text)\n"
        }
        func path(_ index: Int) -> String {
            archived[index] ? "archive/2026-01-01-card-\(index).md" : "cards/\(Self.columns[column[index]])/card-\(index).md"
        }
        commit("Start the board", inline("board.md", board))
        let moves = commits - cards - 1
        for index in 0..<(cards + max(0, moves)) {
            // Adds and moves interleave: card k is made once about k of every (cards + moves) commits have passed.
            let addDue = made < cards && (made * (cards + moves) <= index * cards || index - made >= moves)
            if addDue {
                column[made] = 0
                commit("Add card \(made)", inline(path(made), card(made)))
                made += 1
                continue
            }
            // Move a card among the most recent ones that is not archived.
            let window = min(made, 400)
            var chosen = made - 1 - random.below(window)
            var tries = 0
            while archived[chosen] && tries < 8 {
                chosen = made - 1 - random.below(window)
                tries += 1
            }
            let old = path(chosen)
            if column[chosen] == Self.columns.count - 1 || archived[chosen] {
                if archived[chosen] {
                    archived[chosen] = false
                } else {
                    archived[chosen] = true
                }
            } else if column[chosen] > 1 && random.chance(10) {
                column[chosen] -= 1
            } else {
                column[chosen] += 1
            }
            commit("Move card \(chosen)", "D \(old)\n" + inline(path(chosen), card(chosen)))
        }
        try POSIX.makeDirectory(directory)
        let streamPath = scratch + "/history.fast-import"
        try POSIX.writeFile(streamPath, Array(stream.utf8))
        try Self.git(["init", "--quiet", "-b", "main", directory], in: scratch)
        try Self.git(["fast-import", "--quiet"], in: directory, input: streamPath)
        try Self.git(["reset", "--quiet", "--hard"], in: directory)
    }

    /// Commits one new card to the backlog of the board in `directory` (a commit made after a report).
    static func addCard(number: Int, in directory: String) throws(BenchmarkError) {
        let path = "cards/backlog/new-card-\(number).md"
        try POSIX.writeFile(directory + "/" + path, Array("---\ntitle: New card \(number)\ncolumn: backlog\nlabels: []\n---\n".utf8))
        try git(["add", "--", path], in: directory)
        try git(["-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "--quiet", "-m", "Add new card \(number)"],
                in: directory)
    }

    static func git(_ arguments: [String], in directory: String, input: String? = nil) throws(BenchmarkError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        if let input { process.standardInput = FileHandle(forReadingAtPath: input) }
        do {
            try process.run()
        } catch {
            throw BenchmarkError("cannot run git: \(error)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("git \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
    }
}
