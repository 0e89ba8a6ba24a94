#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KanbanCore
import KanbanWatch

/// Everything measured on one board size.
struct SizeResult {
    var cardCount: Int
    var archivedCount: Int
    var runs: Int
    /// Median in-process load time reported by the child.
    var loadSeconds: Double
    /// The highest `ru_maxrss` of the load children, in KiB.
    var peakMemoryKiB: Int
    /// Median wall time of `grep`, nil when there is no grep.
    var grepSeconds: Double?
    /// Median processor time (user and system) of the load, in the child, and of the whole grep process.
    var loadProcessorSeconds: Double
    var grepProcessorSeconds: Double?
    /// Files that could not be loaded (each a diagnostic, not a card).
    var diagnostics: Int
    var operations: SingleCardTimings
    var operationRuns: Int
    /// The `kanban` read commands as whole processes (median of `runs`), empty when there is no `kanban` beside the benchmark.
    var commands: [CommandTiming]
    /// The single-card commands as whole processes (median of `operationRuns`), nil when there is no `kanban`.
    var singleCardCommands: SingleCardCommandTimings?
    /// `kanban list` with no index to start from (it builds one), and with the index turned off (`KANBAN_INDEX=off`,
    /// every file read as before the index): medians, nil when there is no `kanban`.
    var coldListSeconds: Double?
    var indexOffListSeconds: Double?
    /// The read commands again while a board monitor runs (as `kanban watch` runs one), so that they look only at
    /// the files that changed: medians; empty when there is no `kanban` or no monitor here.
    var monitoredCommands: [CommandTiming] = []
    var breakdown: [String]
}

/// What the machine offers the comparison.
struct Environment {
    var executable: String
    /// `grep --version`'s first line, or nil when there is no grep on `PATH`.
    var grepVersion: String?
    /// The `kanban` executable beside the benchmark, or nil when it has not been built there.
    var kanban: KanbanExecutable?
    /// Peak memory of a child that loads nothing, in KiB.
    var idleMemoryKiB: Int
    var loadAverageAtStart: String
}

/// Generates each board, measures it, and reports.
struct Benchmark {
    let options: BenchmarkOptions

    /// Runs the whole benchmark; returns the exit code.
    func run() -> Int32 {
        let parent = POSIX.environmentValue("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let root: String
        do {
            root = try POSIX.makeTemporaryDirectory(in: parent, prefix: "kanban-bench")
        } catch {
            POSIX.printError("kanban-bench: error: \(error)\n")
            return 1
        }
        progress("boards go in \(root)\(options.keepsBoards ? " (kept)" : "")")
        // kanban keeps each board's index in $XDG_CACHE_HOME/kanban (the boards are in no git repository): here, so
        // that it goes when the boards go.
        setenv("XDG_CACHE_HOME", root + "/cache", 1)
        unsetenv("KANBAN_INDEX")
        var exitCode: Int32 = 0
        do {
            let environment = try probeEnvironment()
            if environment.grepVersion == nil { progress("grep is not on PATH: the grep -r column and the ratio are skipped") }
            if environment.kanban == nil {
                progress("no kanban executable beside the benchmark (in \(KanbanExecutable.benchmarkDirectory)): the command-line "
                         + "figures are skipped; to get them, build it with `\(KanbanExecutable.buildCommand)` "
                         + "(into the same release build directory)")
            }
            var results: [SizeResult] = []
            for size in options.sizes {
                results.append(try measureBoard(size: size, under: root, environment: environment))
            }
            let report = Report(results: results, environment: environment, options: options)
            print(report.text, terminator: "")
            if options.keepsBoards { print("boards kept in \(root)") }
            let missed = report.missedTargets
            if !missed.isEmpty {
                POSIX.printError("kanban-bench: missed targets: \(missed.joined(separator: "; "))\n")
                exitCode = 1
            }
        } catch {
            POSIX.printError("kanban-bench: error: \(error)\n")
            exitCode = 1
        }
        if !options.keepsBoards {
            do {
                try POSIX.removeTree(root)
            } catch {
                POSIX.printError("kanban-bench: error: \(error)\n")
                exitCode = 1
            }
        }
        return exitCode
    }

    private func probeEnvironment() throws(BenchmarkError) -> Environment {
        let executable = POSIX.executablePath()
        let idle = try ChildProcess.run([executable, ChildMode.idleFlag], keepsOutput: false)
        guard idle.succeeded else { throw BenchmarkError("the benchmark cannot run itself as a child: it \(idle.statusDescription)") }
        var grepVersion: String?
        if let grep = try? ChildProcess.run(["grep", "--version"], keepsOutput: true), grep.succeeded {
            grepVersion = grep.output.split(separator: "\n").first.map(String.init) ?? "grep"
        }
        return Environment(executable: executable, grepVersion: grepVersion, kanban: KanbanExecutable.besideBenchmark(),
                           idleMemoryKiB: idle.peakMemoryKiB, loadAverageAtStart: Report.loadAverage())
    }

    private func measureBoard(size: Int, under root: String, environment: Environment) throws(BenchmarkError) -> SizeResult {
        let board = GeneratedBoard(directory: "\(root)/board-\(size)", cardCount: size)
        let (bytes, writeSeconds) = try wallTime { () throws(BenchmarkError) in try board.write() }
        progress("\(grouped(size)) cards (\(grouped(board.archivedCount)) archived), \(grouped(bytes / 1024)) KiB, "
                 + "\(bytes / max(1, size)) bytes a card, written in \(formatSeconds(writeSeconds))")

        let runs = options.runs(forSize: size)
        if let kanban = environment.kanban {
            // The index trusts no file changed in the two seconds before it was built (git's "racily clean" rule):
            // wait that out, then build it, so that the commands below run with a warm index.
            usleep(2_100_000)
            _ = try ReadCommand.all(for: board)[0].run(kanban, on: board)
        }
        var loadSamples: [Double] = []
        var grepSamples: [Double] = []
        var loadProcessorSamples: [Double] = []
        var grepProcessorSamples: [Double] = []
        var peakMemoryKiB = 0
        var diagnostics = 0
        let commands = environment.kanban == nil ? [] : ReadCommand.all(for: board)
        var commandSamples = CommandSamples(commands: commands)
        for run in 0...runs {
            let load = try loadInChild(board, executable: environment.executable)
            let grep = environment.grepVersion == nil ? nil : try grepFiles(of: board)
            let label = run == 0 ? "warm-up" : "run \(run)/\(runs)"
            progress("  \(label): load \(formatSeconds(load.seconds)) (cpu \(formatSeconds(load.processorSeconds))), "
                     + "\(load.peakMemoryKiB / 1024) MB"
                     + (grep.map { "; grep -r \(formatSeconds($0.seconds)) (cpu \(formatSeconds($0.processorSeconds)))" } ?? ""))
            var children: [ChildResult] = []
            if let kanban = environment.kanban {
                for command in commands { children.append(try command.run(kanban, on: board)) }
                progress("  \(label): kanban " + CommandSamples.describe(commands, children))
            }
            guard run > 0 else { continue }
            commandSamples.add(children)
            loadSamples.append(load.seconds)
            loadProcessorSamples.append(load.processorSeconds)
            peakMemoryKiB = max(peakMemoryKiB, load.peakMemoryKiB)
            diagnostics = load.diagnostics
            if let grep {
                grepSamples.append(grep.seconds)
                grepProcessorSamples.append(grep.processorSeconds)
            }
        }

        var breakdown: [String] = []
        if options.showsBreakdown {
            progress("  load breakdown")
            let child = try ChildProcess.run([environment.executable, ChildMode.breakdownFlag, board.directory, "\(min(runs, 3))"],
                                             keepsOutput: true)
            guard child.succeeded else { throw BenchmarkError("the load breakdown on \(grouped(size)) cards \(child.statusDescription)") }
            breakdown = child.output.split(separator: "\n").map(String.init)
        }

        var coldListSeconds: Double?
        var indexOffListSeconds: Double?
        if let kanban = environment.kanban {
            progress("  list with no index to start from, and with the index off")
            var cold: [Double] = []
            var off: [Double] = []
            let list = ReadCommand.all(for: board)[0]
            for _ in 0..<runs {
                let indexes = (POSIX.environmentValue("XDG_CACHE_HOME") ?? "") + "/kanban"
                if access(indexes, F_OK) == 0 { try POSIX.removeTree(indexes) }
                cold.append(try list.run(kanban, on: board).seconds)
                setenv("KANBAN_INDEX", "off", 1)
                off.append(try list.run(kanban, on: board).seconds)
                unsetenv("KANBAN_INDEX")
            }
            coldListSeconds = median(cold)
            indexOffListSeconds = median(off)
            progress("  list: no index \(formatSeconds(median(cold))), index off \(formatSeconds(median(off)))")
        }

        let monitoredCommands = environment.kanban.map { measureWithMonitor(commands, kanban: $0, on: board, runs: runs) } ?? []

        progress("  single-card operations")
        let operations = try SingleCardOperations.measure(on: board, runs: options.operationRuns)
        var singleCardCommands: SingleCardCommandTimings?
        if let kanban = environment.kanban {
            progress("  single-card commands (kanban processes)")
            singleCardCommands = try SingleCardCommands.measure(kanban, on: board, runs: options.operationRuns)
        }
        let commandTimings = commandSamples.timings
        if !options.keepsBoards { try POSIX.removeTree(board.directory) }
        return SizeResult(
            cardCount: size, archivedCount: board.archivedCount, runs: runs, loadSeconds: median(loadSamples),
            peakMemoryKiB: peakMemoryKiB, grepSeconds: grepSamples.isEmpty ? nil : median(grepSamples),
            loadProcessorSeconds: median(loadProcessorSamples),
            grepProcessorSeconds: grepProcessorSamples.isEmpty ? nil : median(grepProcessorSamples),
            diagnostics: diagnostics, operations: operations, operationRuns: options.operationRuns, commands: commandTimings,
            singleCardCommands: singleCardCommands, coldListSeconds: coldListSeconds, indexOffListSeconds: indexOffListSeconds,
            monitoredCommands: monitoredCommands, breakdown: breakdown)
    }

    /// Times `commands` while a board monitor runs in this process (the one `kanban watch` runs): one warm-up round,
    /// which also gives the index its first token, then `runs` rounds. Nothing where there is no monitor (no inotify).
    private func measureWithMonitor(_ commands: [ReadCommand], kanban: KanbanExecutable, on board: GeneratedBoard,
                                    runs: Int) -> [CommandTiming] {
        #if os(Linux)
        let cache = POSIX.environmentValue("XDG_CACHE_HOME")
        let monitor: IndexMonitor
        do {
            let store = try BoardStore(directory: board.directory, index: .automatic(cacheDirectory: cache))
            guard let started = try IndexMonitor.start(for: store) else {
                progress("  no board monitor could start (another runs, or the board has no index): monitored figures skipped")
                return []
            }
            monitor = started
        } catch {
            progress("  the board monitor did not start (\(error)): monitored figures skipped")
            return []
        }
        defer { monitor.stop() }
        progress("  read commands with the board monitor running")
        var samples = CommandSamples(commands: commands)
        for run in 0...runs {
            var children: [ChildResult] = []
            for command in commands {
                guard let child = try? command.run(kanban, on: board) else { return [] }
                children.append(child)
            }
            progress("  \(run == 0 ? "warm-up" : "run \(run)/\(runs)") with the monitor: kanban " + CommandSamples.describe(commands, children))
            guard run > 0 else { continue }
            samples.add(children)
        }
        return samples.timings
        #else
        return []
        #endif
    }

    /// One load in a fresh child process: its in-process time, peak memory and diagnostics.
    private func loadInChild(_ board: GeneratedBoard, executable: String) throws(BenchmarkError)
        -> (seconds: Double, processorSeconds: Double, peakMemoryKiB: Int, diagnostics: Int)
    {
        let child = try ChildProcess.run([executable, ChildMode.loadFlag, board.directory], keepsOutput: true)
        guard child.succeeded else {
            throw BenchmarkError("loading the \(grouped(board.cardCount))-card board: the child process \(child.statusDescription)")
        }
        guard let report = LoadReport(parsing: child.output) else {
            throw BenchmarkError("the load child printed no report: '\(child.output)'")
        }
        guard report.cards + report.diagnostics == board.cardCount else {
            throw BenchmarkError("the \(grouped(board.cardCount))-card board loaded \(grouped(report.cards)) cards and "
                                 + "\(report.diagnostics) diagnostics: \(board.cardCount - report.cards - report.diagnostics) files went missing")
        }
        return (report.seconds, report.processorSeconds, child.peakMemoryKiB, report.diagnostics)
    }

    /// `grep -r -l` for a word every card contains; every file must be listed.
    private func grepFiles(of board: GeneratedBoard) throws(BenchmarkError) -> (seconds: Double, processorSeconds: Double) {
        let arguments = Report.grepCommand(board: board.directory)
        let child = try ChildProcess.run(arguments, keepsOutput: false)
        guard child.succeeded else { throw BenchmarkError("\(arguments.joined(separator: " ")) \(child.statusDescription)") }
        guard child.outputLineCount == board.cardCount else {
            throw BenchmarkError("grep found '\(CardText.wordInEveryCard)' in \(grouped(child.outputLineCount)) of "
                                 + "\(grouped(board.cardCount)) cards; every card should contain it")
        }
        return (child.seconds, child.processorSeconds)
    }

    private func progress(_ message: String) {
        POSIX.printError("kanban-bench: \(message)\n")
    }
}

extension SizeResult {
    /// The read commands the targets are judged on: with the board monitor when it ran (the index's way to list
    /// without looking at every file, as git's fsmonitor is for `git status`), else without.
    var judgedCommands: [CommandTiming] { monitoredCommands.isEmpty ? commands : monitoredCommands }
}

/// The measured runs of the read commands: each one's wall times and highest peak memory.
struct CommandSamples {
    let commands: [ReadCommand]
    private var seconds: [[Double]]
    private var peakMemoryKiB: [Int]

    init(commands: [ReadCommand]) {
        self.commands = commands
        seconds = Array(repeating: [], count: commands.count)
        peakMemoryKiB = Array(repeating: 0, count: commands.count)
    }

    /// Adds one run: a child for each command, in order.
    mutating func add(_ children: [ChildResult]) {
        for (position, child) in children.enumerated() {
            seconds[position].append(child.seconds)
            peakMemoryKiB[position] = max(peakMemoryKiB[position], child.peakMemoryKiB)
        }
    }

    /// Each command's median and highest peak memory.
    var timings: [CommandTiming] {
        commands.indices.map { CommandTiming(command: commands[$0], seconds: median(seconds[$0]), peakMemoryKiB: peakMemoryKiB[$0]) }
    }

    /// `list 0.150 s (117 MB), ...`: one run, for the progress lines.
    static func describe(_ commands: [ReadCommand], _ children: [ChildResult]) -> String {
        zip(commands, children).map { command, child in
            "\(command.label) \(formatSeconds(child.seconds)) (\(child.peakMemoryKiB / 1024) MB)"
        }.joined(separator: ", ")
    }
}
