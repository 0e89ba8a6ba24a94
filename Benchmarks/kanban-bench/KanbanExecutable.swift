#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `kanban` command-line tool built beside the benchmark, whose commands are timed as whole processes:
/// what a person waits for, start-up and output included.
struct KanbanExecutable {
    let path: String

    /// How to get the executable beside a release build of the benchmark.
    static let buildCommand = "swift build -c release --static-swift-stdlib --product kanban"

    /// Whether the executable has the Swift runtime and Foundation linked in (`--static-swift-stdlib`, as the
    /// README installs it) rather than loading the toolchain's shared libraries as it starts.
    var isStaticallyLinked: Bool {
        // A dynamically linked one names the shared Swift runtime among the libraries it needs.
        guard let bytes = POSIX.readFilePrefix(path, count: 1 << 20) else { return false }
        return bytes.firstRange(of: Array("libswiftCore.so".utf8)) == nil
    }

    /// The directory the benchmark's own executable is in.
    static var benchmarkDirectory: String {
        let benchmark = POSIX.executablePath()
        guard let slash = benchmark.lastIndex(of: "/") else { return "." }
        return slash == benchmark.startIndex ? "/" : String(benchmark[..<slash])
    }

    /// The `kanban` executable in the benchmark's own directory, or nil when there is none; the benchmark then
    /// skips the command-line figures.
    ///
    /// The children inherit the benchmark's environment, so the variables that would change what `kanban` does
    /// are removed first: `KANBAN_COMMIT=1` would make the timed commands commit (the generated boards are not
    /// git repositories, so they would fail), and `KANBAN_COMMIT`/`KANBAN_BOARD` are not what is measured.
    static func besideBenchmark() -> KanbanExecutable? {
        let path = benchmarkDirectory + "/kanban"
        guard POSIX.isExecutableFile(path) else { return nil }
        for name in ["KANBAN_COMMIT", "KANBAN_BOARD", "KANBAN_GIT"] { unsetenv(name) }
        return KanbanExecutable(path: path)
    }

    /// Runs `kanban --board <board> <arguments>`, its output drained through a pipe like grep's.
    func run(_ arguments: [String], on board: GeneratedBoard) throws(BenchmarkError) -> ChildResult {
        try ChildProcess.run([path, "--board", board.directory] + arguments, keepsOutput: false)
    }

    /// `kanban <arguments>` as a person would type it, for messages.
    static func commandLine(_ arguments: [String]) -> String {
        (["kanban"] + arguments).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}

/// A command that reads the whole board, timed on every board size beside `grep -r`.
struct ReadCommand {
    /// As the report's figures name it: `list --json`, `search criteria`.
    var label: String
    /// As a verdict names it: `search`.
    var shortName: String
    var arguments: [String]
    /// The lines the command must print, when that is known.
    var expectedLineCount: Int?
    /// What the command must do at ``Report/targetSize`` cards.
    var target: Target

    /// The targets of the board index's issue, for whole processes with a warm index.
    enum Target {
        /// At most ``Report/targetCommandSeconds``, and ``Report/targetGrepSpeedup`` times faster than grep -r.
        case fastAndBeatsGrep
        /// At most ``Report/targetCommandSeconds``.
        case fast
        /// No slower than grep -r (a search on body words reads the bodies).
        case noSlowerThanGrep
    }

    /// `list`, `list --json`, `board --json`, a search on a title word (answered from the index), and a search for
    /// the word every card body contains, which lists each active card once.
    static func all(for board: GeneratedBoard) -> [ReadCommand] {
        [
            ReadCommand(label: "list", shortName: "list", arguments: ["list"], target: .fastAndBeatsGrep),
            ReadCommand(label: "list --json", shortName: "list --json", arguments: ["list", "--json"], target: .fastAndBeatsGrep),
            ReadCommand(label: "board --json", shortName: "board --json", arguments: ["board", "--json"], target: .fastAndBeatsGrep),
            ReadCommand(label: "search title:login", shortName: "search title", arguments: ["search", "title:login"], target: .fast),
            ReadCommand(label: "search \(CardText.wordInEveryCard)", shortName: "search",
                        arguments: ["search", CardText.wordInEveryCard], expectedLineCount: board.activeCount, target: .noSlowerThanGrep),
        ]
    }

    /// Runs the command once on `board` and checks that it succeeded and printed what it should.
    func run(_ kanban: KanbanExecutable, on board: GeneratedBoard) throws(BenchmarkError) -> ChildResult {
        let child = try kanban.run(arguments, on: board)
        let command = KanbanExecutable.commandLine(["--board", board.directory] + arguments)
        guard child.succeeded else { throw BenchmarkError("\(command) \(child.statusDescription)") }
        if let expectedLineCount, child.outputLineCount != expectedLineCount {
            throw BenchmarkError("\(command) printed \(grouped(child.outputLineCount)) lines, not one for each of the "
                                 + "\(grouped(expectedLineCount)) active cards")
        }
        return child
    }
}

/// One read command's figures on one board.
struct CommandTiming {
    var command: ReadCommand
    /// Median wall time of the whole process.
    var seconds: Double
    /// The highest `ru_maxrss` of the measured runs, in KiB.
    var peakMemoryKiB: Int
}
