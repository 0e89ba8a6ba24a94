#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What `kanban-bench import` was asked for.
struct ImportBenchmarkOptions {
    var cards = 10_000
    var runs = 3
    var keepsBoard = false

    static let help = """
        OVERVIEW: Measures kanban import on a generated CSV table (four columns, three labels, a body and a key on
        every card): the dry run, the import into a new board (--apply), the same import again (nothing changes),
        and one with every tenth title changed (those cards updated), each as a whole process; and 'cp -r' of the
        imported board, the cost of writing its files without kanban, as the baseline.

        USAGE: kanban-bench import [--cards <n>] [--runs <n>] [--keep]

        OPTIONS:
          --cards <n>     Rows of the table (default: 10000).
          --runs <n>      Timed runs of each command; the median is printed (default: 3).
          --keep          Keep the generated table and board and print where they are.
          -h, --help      Show this help.

        Target for 10,000 cards: a dry run and an import that changes nothing at most 1 s. Needs the kanban
        product built beside the benchmark.

        """

    /// Parses `arguments` (after `import`); nil when help was asked for.
    static func parse(_ arguments: [String]) throws(BenchmarkError) -> ImportBenchmarkOptions? {
        var options = ImportBenchmarkOptions()
        var remaining = SubcommandArguments(arguments)
        while let argument = remaining.next() {
            switch argument {
            case "-h", "--help": return nil
            case "--cards": options.cards = try remaining.number(of: argument, in: 1...1_000_000)
            case "--runs": options.runs = try remaining.number(of: argument, in: 1...100)
            case "--keep": options.keepsBoard = true
            default: throw BenchmarkError("Error: unknown option '\(argument)' for 'kanban-bench import'; see --help")
            }
        }
        return options
    }
}

/// `kanban-bench import ...`: writes the table, times the commands, prints the figures beside the target.
func runImportBenchmark(arguments: [String]) throws {
    guard let options = try ImportBenchmarkOptions.parse(arguments) else {
        print(ImportBenchmarkOptions.help, terminator: "")
        return
    }
    guard let kanban = KanbanExecutable.besideBenchmark() else {
        throw BenchmarkError("no kanban executable beside the benchmark; build it first: \(KanbanExecutable.buildCommand)")
    }
    let parent = POSIX.environmentValue("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let root = try POSIX.makeTemporaryDirectory(in: parent, prefix: "kanban-bench-import")
    defer {
        if options.keepsBoard {
            print("table and board kept in \(root)")
        } else {
            try? POSIX.removeTree(root)
        }
    }
    let table = root + "/cards.csv"
    try importTable(cards: options.cards, changingEvery: nil).write(toFile: table, atomically: true, encoding: .utf8)
    var loadAverage = "unknown"
    if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
        loadAverage = text.split(separator: " ").prefix(3).joined(separator: " ")
    }
    print("kanban-bench import: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage); a table of \(grouped(options.cards)) rows")
    let board = root + "/board"
    func line(_ name: String, _ seconds: Double, _ note: String = "") {
        print("\(name.padding(toLength: 40, withPad: " ", startingAt: 0)) \(formatSeconds(seconds)) (median of \(options.runs))\(note)")
    }
    func timed(_ arguments: [String], prepare: () throws -> Void = {}) throws -> Double {
        var times: [Double] = []
        for _ in 0..<options.runs {
            try prepare()
            let result = try ChildProcess.run([kanban.path, "--board", board] + arguments, keepsOutput: false)
            guard result.succeeded else { throw BenchmarkError("kanban \(arguments.joined(separator: " ")) \(result.statusDescription)") }
            times.append(result.seconds)
        }
        return median(times)
    }
    let plan = try timed(["import", "csv", table])
    line("import csv (dry run, new board)", plan, "   (target ≤ 1 s: \(verdict(plan <= 1)))")
    let apply = try timed(["import", "csv", table, "--apply"]) { try? POSIX.removeTree(board) }
    line("import csv --apply (new board)", apply)
    let copy = try ChildProcess.run(["cp", "-r", board, root + "/copy"], keepsOutput: false)
    print("\("cp -r of the imported board".padding(toLength: 40, withPad: " ", startingAt: 0)) \(formatSeconds(copy.seconds)) (one run; the files alone, not synced to disk)")
    let again = try timed(["import", "csv", table, "--apply"])
    line("import csv --apply again (no change)", again, "   (target ≤ 1 s: \(verdict(again <= 1)))")
    let changed = root + "/changed.csv"
    try importTable(cards: options.cards, changingEvery: 10).write(toFile: changed, atomically: true, encoding: .utf8)
    let update = try timed(["import", "csv", table, "--apply"]) {
        // The changed table first (not timed), so that each timed run changes a tenth of the cards back.
        _ = try ChildProcess.run([kanban.path, "--board", board, "import", "csv", changed, "--apply"], keepsOutput: false)
    }
    line("import csv --apply, a tenth changed", update)
}

/// A CSV table of `cards` rows; with `changingEvery`, every such row's title is changed (the id stays).
private func importTable(cards: Int, changingEvery: Int?) -> String {
    let columns = ["To Do", "Doing", "Review", "Done"]
    let labels = ["bug", "ui", "docs"]
    var text = "id,title,status,labels,description,owner\r\n"
    for index in 0..<cards {
        let changed = changingEvery.map { index % $0 == 0 } ?? false
        text += "\(index),\(changed ? "Changed task" : "Task") \(index),\(columns[index % 4]),\"\(labels[index % 3]), \(labels[(index / 3) % 3])\","
            + "\"Body of task \(index)\r\n\r\n- [ ] a step\",ana\r\n"
    }
    return text
}
