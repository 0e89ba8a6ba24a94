#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KanbanCore

/// The hidden modes in which the benchmark runs itself as a child process, so that each load gets a fresh
/// process whose peak memory `wait4` reports and whose start-up is not counted.
enum ChildMode {
    /// Load the board once and print one ``LoadReport`` line.
    case load(directory: String)
    /// Time the parts of a load and print the breakdown.
    case breakdown(directory: String, runs: Int)
    /// Do nothing: the peak memory of a process that loads no board.
    case idle

    static let loadFlag = "--child-load"
    static let breakdownFlag = "--child-breakdown"
    static let idleFlag = "--child-idle"

    init?(arguments: [String]) {
        switch (arguments.first, arguments.count) {
        case (Self.loadFlag, 2):
            self = .load(directory: arguments[1])
        case (Self.breakdownFlag, 3):
            guard let runs = Int(arguments[2]), runs >= 1 else { return nil }
            self = .breakdown(directory: arguments[1], runs: runs)
        case (Self.idleFlag, 1):
            self = .idle
        default:
            return nil
        }
    }

    /// Runs the mode; returns the exit code.
    func run() -> Int32 {
        do {
            switch self {
            case .load(let directory):
                let (snapshot, seconds, processorSeconds) = try wallAndProcessorTime { () throws(KanbanError) -> BoardSnapshot in
                    try BoardStore(directory: directory).load(.all)
                }
                for diagnostic in snapshot.diagnostics.prefix(3) {
                    POSIX.printError("kanban-bench child: \(diagnostic)\n")
                }
                print(LoadReport(seconds: seconds, processorSeconds: processorSeconds, cards: snapshot.cards.count,
                                 diagnostics: snapshot.diagnostics.count).line)
            case .breakdown(let directory, let runs):
                for line in try LoadBreakdown.lines(directory: directory, runs: runs) { print(line) }
            case .idle:
                break
            }
            return 0
        } catch {
            POSIX.printError("kanban-bench child: \(error)\n")
            return 1
        }
    }
}

/// What a load child tells its parent, as one line of `key=value` pairs.
struct LoadReport {
    var seconds: Double
    var processorSeconds: Double
    var cards: Int
    var diagnostics: Int

    var line: String {
        "load-seconds=\(seconds) cpu-seconds=\(processorSeconds) cards=\(cards) diagnostics=\(diagnostics)"
    }

    init(seconds: Double, processorSeconds: Double, cards: Int, diagnostics: Int) {
        self.seconds = seconds
        self.processorSeconds = processorSeconds
        self.cards = cards
        self.diagnostics = diagnostics
    }

    init?(parsing output: String) {
        var values: [Substring: Substring] = [:]
        for field in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let equals = field.firstIndex(of: "=") else { continue }
            values[field[..<equals]] = field[field.index(after: equals)...]
        }
        guard let seconds = values["load-seconds"].flatMap({ Double($0) }),
              let processorSeconds = values["cpu-seconds"].flatMap({ Double($0) }),
              let cards = values["cards"].flatMap({ Int($0) }),
              let diagnostics = values["diagnostics"].flatMap({ Int($0) }) else { return nil }
        self.init(seconds: seconds, processorSeconds: processorSeconds, cards: cards, diagnostics: diagnostics)
    }
}
