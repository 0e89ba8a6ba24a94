/// What the command line asked for.
struct BenchmarkOptions {
    var sizes = [1_000, 10_000, 100_000]
    /// Runs per measurement; by default 5, and 3 for boards of 100,000 cards or more.
    var runs: Int?
    var keepsBoards = false
    var showsBreakdown = false

    enum Parsed {
        case run(BenchmarkOptions)
        case help
        case usageError(String)
    }

    static let help = """
        OVERVIEW: Measures KanbanCore on generated boards of 1,000, 10,000 and 100,000 cards.

        Loads each board in a child process (median wall time and peak memory), compares the load with
        `grep -r` over the same files, and times single-card operations (lookup, move, set, add, archive).
        Then times the `kanban` command-line tool as whole processes, start-up included, on the same boards:
        `list`, `list --json` and `search` beside `grep -r`, and `move`, `set`, `add` and `archive` on one
        card. Those figures need the `kanban` product built in the same directory as the benchmark
        (`swift build -c release --product kanban`); without it they are skipped, with a note.
        Targets are marked met or MISSED; the exit code is 1 when a target is missed or something is wrong
        (a card goes missing, a child process crashes), so a regression fails the run the day it lands.

        USAGE: kanban-bench [--sizes <n,n,...>] [--runs <n>] [--keep] [--breakdown]
               kanban-bench watch [<options>]
               kanban-bench tui [<options>]
               kanban-bench serve [<options>]
               kanban-bench report [<options>]

        OPTIONS:
          --sizes <n,n,...>   Board sizes in cards (default: 1000,10000,100000).
          --runs <n>          Measured runs per figure, after one warm-up (default: 5, and 3 at 100,000 cards or more).
          --keep              Keep the generated boards and print where they are.
          --breakdown         Also time the parts of a load in-process: listing, reading and parsing (with simpler
                              stand-ins for the loader's own), and estimate the rest (sorting, assembling the snapshot).
          -h, --help          Show this help.

        SUBCOMMANDS:
          watch               Measures KanbanWatch instead; see 'kanban-bench watch --help'.
          tui                 Measures kanban tui: key and edit to redrawn frame; see 'kanban-bench tui --help'.
          serve               Measures kanban serve over loopback: first load, the board's answer, a move, an edit's
                              event, memory; see 'kanban-bench serve --help'.
          report              Measures kanban report on a long generated history; see 'kanban-bench report --help'.

        """

    private static let options = ["--sizes", "--runs", "--keep", "--breakdown", "--help"]

    static func parse(_ arguments: [String]) -> Parsed {
        var options = BenchmarkOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() -> String? { inlineValue ?? remaining.popFirst() }
            switch name {
            case "-h", "--help":
                return .help
            case "--keep":
                options.keepsBoards = true
            case "--breakdown":
                options.showsBreakdown = true
            case "--runs":
                guard let text = value() else { return .usageError("Error: missing value for '--runs <n>'") }
                guard let runs = Int(text), runs >= 1, runs <= 1000 else {
                    return .usageError("Error: '--runs' needs a whole number from 1 to 1000, not '\(text)'")
                }
                options.runs = runs
            case "--sizes":
                guard let text = value() else { return .usageError("Error: missing value for '--sizes <n,n,...>'") }
                var sizes: [Int] = []
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    let digits = part.trimmingCharacters(in: " ").filter { $0 != "_" }
                    guard let size = Int(digits), size >= 1, size <= 10_000_000 else {
                        return .usageError("Error: '--sizes' needs card counts from 1 to 10000000, not '\(part)'")
                    }
                    sizes.append(size)
                }
                options.sizes = sizes
            default:
                if argument.hasPrefix("-") {
                    var message = "Error: unknown option '\(name)'"
                    if let suggestion = closest(to: name) { message += "\nDid you mean '\(suggestion)'?" }
                    return .usageError(message)
                }
                return .usageError("Error: unexpected argument '\(argument)'")
            }
        }
        return .run(options)
    }

    func runs(forSize size: Int) -> Int { runs ?? (size >= 100_000 ? 3 : 5) }

    var operationRuns: Int { runs ?? 5 }

    /// The option nearest `name` in edit distance, when it is near enough to be a typo.
    private static func closest(to name: String) -> String? {
        let scored = options.map { (option: $0, distance: editDistance(Array(name.utf8), Array($0.utf8))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= max(2, name.utf8.count / 3) else {
            return nil
        }
        return best.option
    }

    private static func editDistance(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        var previous = Array(0...rhs.count)
        for (row, left) in lhs.enumerated() {
            var current = [row + 1] + Array(repeating: 0, count: rhs.count)
            for (column, right) in rhs.enumerated() {
                current[column + 1] = min(previous[column + 1] + 1, current[column] + 1, previous[column] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[rhs.count]
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var result = self
        while result.first == character { result.removeFirst() }
        while result.last == character { result.removeLast() }
        return result
    }
}
