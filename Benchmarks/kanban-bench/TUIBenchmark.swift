#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanCore

/// What `kanban-bench tui` was asked for.
struct TUIBenchmarkOptions {
    var sizes = [1_000, 20_000]
    /// Navigation keys timed on each board.
    var keys = 400
    /// Card moves (a store write each) timed on each board.
    var moves = 40
    /// Edits by another process timed on each board.
    var edits = 30
    var keepsBoards = false

    static let help = """
        OVERVIEW: Measures kanban tui as a person meets it: the built kanban executable runs in a pseudo-terminal
        (120 × 40), the benchmark types keys and edits card files, and times each until the frame that shows the
        result has been written to the terminal.

        USAGE: kanban-bench tui [--sizes <n,n,...>] [--keys <n>] [--moves <n>] [--edits <n>] [--keep]

        OPTIONS:
          --sizes <n,n,...>   Board sizes in cards (default: 1000,20000).
          --keys <n>          Navigation keys timed per board, cycling j k l h G g (default: 400).
          --moves <n>         Card moves timed per board, L then H, each a store write (default: 40).
          --edits <n>         Card files rewritten by the benchmark (as an editor saves: a new file renamed over
                              the old one), each timed until the new title is on the screen (default: 30).
          --keep              Keep the generated boards and print where they are.
          -h, --help          Show this help.

        The first frame is timed from starting kanban tui; the other figures are taken once its watcher has had
        time to index the board (2 s, and 1 s more per 20,000 cards). A frame is complete when kanban tui writes the end of its synchronized update (ESC [ ? 2026 l), which closes
        every frame it draws. Key times run from writing the key to reading that mark; edit times from the rename
        to the mark after the new title. Targets: key to frame under 16 ms; an edit to its frame under the
        watcher's settle time (50 ms) plus 16 ms. Needs the kanban product built beside the benchmark.

        """

    /// Parses `arguments` (after `tui`); nil when help was asked for.
    static func parse(_ arguments: [String]) throws(BenchmarkError) -> TUIBenchmarkOptions? {
        var options = TUIBenchmarkOptions()
        var remaining = SubcommandArguments(arguments)
        while let argument = remaining.next() {
            switch argument {
            case "-h", "--help": return nil
            case "--keys": options.keys = try remaining.number(of: argument, in: 4...100_000)
            case "--moves": options.moves = try remaining.number(of: argument, in: 2...10_000)
            case "--edits": options.edits = try remaining.number(of: argument, in: 1...10_000)
            case "--keep": options.keepsBoards = true
            case "--sizes":
                let text = try remaining.value(of: argument, placeholder: "<n,n,...>")
                var sizes: [Int] = []
                for part in text.split(separator: ",") {
                    guard let size = Int(part.filter { $0 != "_" && $0 != " " }), size >= 10, size <= 1_000_000 else {
                        throw BenchmarkError("Error: '--sizes' needs card counts from 10 to 1000000, not '\(part)'")
                    }
                    sizes.append(size)
                }
                options.sizes = sizes
            default:
                throw BenchmarkError("Error: unknown option '\(argument)' for 'kanban-bench tui'; see --help")
            }
        }
        return options
    }
}

/// `kanban-bench tui ...`: times `kanban tui` on generated boards and prints each figure beside its target.
func runTUIBenchmarks(arguments: [String]) throws {
    guard let options = try TUIBenchmarkOptions.parse(arguments) else {
        print(TUIBenchmarkOptions.help, terminator: "")
        return
    }
    guard let kanban = KanbanExecutable.besideBenchmark() else {
        throw BenchmarkError("no kanban executable beside the benchmark; build it first: \(KanbanExecutable.buildCommand)")
    }
    let parent = POSIX.environmentValue("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let root = try POSIX.makeTemporaryDirectory(in: parent, prefix: "kanban-bench-tui")
    defer {
        if options.keepsBoards {
            print("boards kept in \(root)")
        } else {
            try? POSIX.removeTree(root)
        }
    }
    var loadAverage = "unknown"
    if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
        loadAverage = text.split(separator: " ").prefix(3).joined(separator: " ")
    }
    print("kanban-bench tui: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage) at start; "
          + "\(options.keys) keys, \(options.moves) moves, \(options.edits) edits per board; times in ms (median / p95 / max)")
    for size in options.sizes {
        let board = GeneratedBoard(directory: root + "/board-\(size)", cardCount: size)
        try board.write()
        let figures = try TUIMeasurement(kanban: kanban, board: board, options: options).run()
        let keyMet = figures.keys.percentile(95) < 16
        let editMet = figures.edits.percentile(95) < 50 + 16
        print("""
            \(grouped(size)) cards: first frame \(formatMilliseconds(figures.startup))
              key → frame            \(summary(figures.keys))   (target p95 < 16 ms: \(verdict(keyMet)))
              move key → frame       \(summary(figures.moves))   (a store write, then the frame)
              external edit → frame  \(summary(figures.edits))   (target p95 < settle 50 + 16 ms: \(verdict(editMet)))
            """)
    }
}

private func summary(_ sample: LatencySample) -> String {
    String(format: "%6.2f / %6.2f / %6.2f", sample.median, sample.percentile(95), sample.milliseconds.max() ?? .nan)
}

/// The figures of one board.
struct TUIFigures {
    var startup: Double
    var keys: LatencySample
    var moves: LatencySample
    var edits: LatencySample
}

/// One `kanban tui` in a pseudo-terminal, driven and timed.
private final class TUIMeasurement {
    static let columns: UInt16 = 120
    static let rows: UInt16 = 40
    /// The end of every frame kanban tui draws: the end of its synchronized update.
    static let frameEnd = Array("\u{1B}[?2026l".utf8)

    let kanban: KanbanExecutable
    let board: GeneratedBoard
    let options: TUIBenchmarkOptions
    private var primary: Int32 = -1
    private var pid: pid_t = 0
    private var pending: [UInt8] = []

    init(kanban: KanbanExecutable, board: GeneratedBoard, options: TUIBenchmarkOptions) {
        self.kanban = kanban
        self.board = board
        self.options = options
    }

    func run() throws -> TUIFigures {
        // The card to edit: the first card of the first expanded column, selected and on screen from the start.
        let store = try BoardStore(directory: board.directory)
        let snapshot = try store.load()
        guard let column = snapshot.board.columns.first(where: { !$0.isCollapsed }),
              let card = snapshot.cards(inColumn: column.id).first else {
            throw BenchmarkError("the generated board has no card to edit")
        }
        let started = now()
        try spawn()
        defer { finish() }
        _ = try awaitFrame(timeout: 120)
        let startup = milliseconds(since: started)
        // The watcher indexes the board on a thread of its own after the first frame (0.7 s at 20,000 cards here),
        // and the board is loaded again once it is ready: let that pass before timing the steady state.
        try drain(for: 2 + Double(board.cardCount) / 20_000)

        var keys: [Double] = []
        // Down, up, across and back, then to the bottom of the column (5,700 cards at 20,000) and back to the top.
        let cycle: [UInt8] = Array("jklhGg".utf8)
        for index in 0..<options.keys {
            keys.append(try time(key: cycle[index % cycle.count]))
        }
        var moves: [Double] = []
        for index in 0..<options.moves {
            moves.append(try time(key: UInt8(ascii: index.isMultiple(of: 2) ? "L" : "H")))
            try drain(for: 0.15)  // The watcher's echo of the move, if it redraws anything.
        }
        var edits: [Double] = []
        let path = board.directory + "/" + card.path
        let original = try POSIX.readFile(path)
        for index in 0..<options.edits {
            let title = "Edited \(index) by another process"
            let text = String(decoding: original, as: UTF8.self)
            guard let range = text.range(of: "title: [^\n]*", options: .regularExpression) else {
                throw BenchmarkError("\(card.path) has no title line to edit")
            }
            let edited = text.replacingCharacters(in: range, with: "title: \(title)")
            try POSIX.writeFile(path + ".tmp", Array(edited.utf8))
            let start = now()
            guard rename(path + ".tmp", path) == 0 else { throw POSIX.error("rename", path, errno: errno) }
            _ = try awaitFrame(containing: Array("Edited \(index) by".utf8), timeout: 20)
            edits.append(milliseconds(since: start))
            try drain(for: 0.1)
        }
        return TUIFigures(startup: startup, keys: LatencySample(milliseconds: keys),
                          moves: LatencySample(milliseconds: moves), edits: LatencySample(milliseconds: edits))
    }

    /// Types `key` and times it to the end of the frame it causes.
    private func time(key: UInt8) throws -> Double {
        var byte = key
        let start = now()
        guard write(primary, &byte, 1) == 1 else { throw BenchmarkError("cannot type into kanban tui: \(String(cString: strerror(errno)))") }
        _ = try awaitFrame(timeout: 20)
        return milliseconds(since: start)
    }

    private func spawn() throws {
        var size = winsize()
        size.ws_col = Self.columns
        size.ws_row = Self.rows
        setenv("TERM", "xterm-256color", 1)
        let words = [kanban.path, "--board", board.directory, "tui"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard let program = argv[0] else { throw BenchmarkError("out of memory") }
        pid = argv.withUnsafeBufferPointer { arguments -> pid_t in
            guard let list = arguments.baseAddress else { return -1 }
            let child = forkpty(&primary, nil, nil, &size)
            if child == 0 {
                execv(program, list)
                _exit(127)
            }
            return child
        }
        guard pid > 0 else { throw BenchmarkError("cannot start kanban tui in a pseudo-terminal: \(String(cString: strerror(errno)))") }
        _ = fcntl(primary, F_SETFD, FD_CLOEXEC)
    }

    /// Reads until a frame ends (after `needle`, when given); returns the bytes through that frame's end.
    private func awaitFrame(containing needle: [UInt8]? = nil, timeout: Double) throws -> [UInt8] {
        let deadline = now() + timeout
        var frame: [UInt8] = []
        var sawNeedle = needle == nil
        while true {
            if let end = Self.range(of: Self.frameEnd, in: pending) {
                let piece = Array(pending[..<end.upperBound])
                pending.removeFirst(end.upperBound)
                frame += piece
                if !sawNeedle, let needle, Self.range(of: needle, in: frame) != nil { sawNeedle = true }
                if sawNeedle { return frame }
                continue
            }
            let left = deadline - now()
            guard left > 0 else { throw BenchmarkError("no frame from kanban tui within \(Int(timeout)) s") }
            guard try readSome(waiting: left) else { throw BenchmarkError("kanban tui closed the terminal") }
        }
    }

    /// Reads whatever arrives for `seconds`, so that the next timing starts from a quiet terminal.
    private func drain(for seconds: Double) throws {
        let deadline = now() + seconds
        while now() < deadline {
            _ = try readSome(waiting: deadline - now())
        }
        pending.removeAll()
    }

    /// Waits up to `seconds` for output and reads it; false when the terminal's other side is gone.
    private func readSome(waiting seconds: Double) throws -> Bool {
        var entry = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, Int32(max(1, min(seconds * 1000, 60_000))))
        if ready < 0 {
            if errno == EINTR { return true }
            throw BenchmarkError("poll failed: \(String(cString: strerror(errno)))")
        }
        guard ready > 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(primary, $0.baseAddress, $0.count) }
        if count > 0 {
            pending += chunk[..<count]
            return true
        }
        return count < 0 && (errno == EINTR || errno == EAGAIN)
    }

    private func finish() {
        var quit = UInt8(ascii: "q")
        _ = write(primary, &quit, 1)
        var status: Int32 = 0
        let deadline = now() + 10
        while waitpid(pid, &status, WNOHANG) == 0 && now() < deadline {
            _ = try? drain(for: 0.01)
        }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        close(primary)
    }

    private static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard needle.count <= haystack.count, let first = needle.first else { return nil }
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index..<(index + needle.count)
            }
            index += 1
        }
        return nil
    }

    private func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func milliseconds(since start: Double) -> Double { (now() - start) * 1000 }
}
