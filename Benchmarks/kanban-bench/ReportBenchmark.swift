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
        'kanban report --json' and 'kanban report' are timed as whole processes: beside 'git log --raw' over the
        same history with no history cache (the first run), after one new commit with the cache of the run
        before (the second run), and with nothing new.

        USAGE: kanban-bench report [--cards <n>] [--commits <n>] [--runs <n>] [--keep]

        OPTIONS:
          --cards <n>     Cards in the history (default: 5000).
          --commits <n>   Commits in the history, at least one per card (default: 20000).
          --runs <n>      Timed runs of each command; the median is printed (default: 3).
          --keep          Keep the generated repository and print where it is.
          -h, --help      Show this help.

        Targets for 5,000 cards and 20,000 commits: a first run within 1.2 times git log --raw, a second run
        with one new commit within 0.2 s. Needs git, and the kanban product built beside the benchmark.

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
    /// Runs `command` (a kanban command line, or git's with `git: true`) `options.runs` times, each after `before`.
    func measure(_ command: [String], git: Bool = false, before: () throws -> Void = {}) throws -> (seconds: Double, processor: Double, memoryMB: Int) {
        var times: [Double] = []
        var processor: [Double] = []
        var memory = 0
        for _ in 0..<options.runs {
            try before()
            let line = git ? ["/usr/bin/env", "git", "-C", board] + command : [kanban.path, "--board", board] + command
            let result = try ChildProcess.run(line, keepsOutput: false)
            guard result.succeeded else { throw BenchmarkError("\(command.joined(separator: " ")) \(result.statusDescription)") }
            times.append(result.seconds)
            processor.append(result.processorSeconds)
            memory = max(memory, result.peakMemoryKiB)
        }
        return (median(times), median(processor), memory / 1024)
    }
    func line(_ label: String, _ figures: (seconds: Double, processor: Double, memoryMB: Int), _ target: String) {
        print("\(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(formatSeconds(figures.seconds)) (median of \(options.runs); "
              + "processor time \(formatSeconds(figures.processor)) with git's; \(figures.memoryMB) MB)   \(target)")
    }
    // The baseline: git listing the same history, as a person would (`git log --raw`, renames and all).
    let gitLog = try measure(["log", "--raw", "HEAD"], git: true)
    line("git log --raw", gitLog, "(the baseline)")
    let removeCache = { () throws in
        let directory = board + "/.git/kanban-index"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix("history-") {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }
    for arguments in [["report", "--json"], ["report"]] {
        let first = try measure(arguments, before: removeCache)
        let ratio = first.seconds / max(gitLog.seconds, 0.001)
        line("\(KanbanExecutable.commandLine(arguments)), first run", first,
             "(\(String(format: "%.2f", ratio))× git log; target ≤ 1.2×: \(verdict(ratio <= 1.2)))")
    }
    // One more commit before each run, the cache warm from the run before it.
    var moved = 0
    let commitOneMove = { () throws in
        guard let name = try FileManager.default.contentsOfDirectory(atPath: board + "/cards/backlog").sorted().dropFirst(moved).first else {
            throw BenchmarkError("no card left in the backlog to move")
        }
        moved += 1
        try GeneratedHistory.git(["mv", "cards/backlog/" + name, "cards/todo/" + name], in: board)
        try GeneratedHistory.git(["-c", "user.name=kanban-bench", "-c", "user.email=bench@example.com", "commit", "--quiet", "-m", "Move " + name], in: board)
    }
    for arguments in [["report", "--json"], ["report"]] {
        _ = try measure(arguments)
        let second = try measure(arguments, before: commitOneMove)
        line("\(KanbanExecutable.commandLine(arguments)), one new commit", second, "(target ≤ 0.2 s: \(verdict(second.seconds <= 0.2)))")
        let same = try measure(arguments)
        line("\(KanbanExecutable.commandLine(arguments)), nothing new", same, "")
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
