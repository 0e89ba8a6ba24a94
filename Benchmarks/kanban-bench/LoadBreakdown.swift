import Foundation
import KanbanCore

/// Where a load's time goes, measured in one process with the library's own pieces where our package may use
/// them (`CardFile` for the listing, `CardReader.read` for parsing, `ParallelMap` for spreading work over the
/// cores) and plain system calls where it may not (`opendir`/`readdir`; `open`, `fstat`, `read` into a 16 KiB chunk).
///
/// Those pieces are close to the loader's but slower than it, so the rows say what they time: the loader lists each
/// directory on its own thread, opens files with `openat` relative to the open directory, reads into a reused
/// 64 KiB buffer, and parses plain frontmatter (`key: value` lines, `[a, b]` lists) with a fast reader internal to
/// KanbanCore, where `CardReader.read` always runs the full YAML parser. What `load(.all)` spends beyond the parts
/// (sorting small keys, moving the cards into the snapshot) is therefore only estimated, and the estimate leans low.
///
/// Each part is timed on the wall clock and in processor time (user and system, all threads); the rest is worked
/// out from processor time, which adds up across threads and hardly moves when other work shares the cores.
/// Every part's results are freed outside its timing, as in the load child and in `kanban`, which exit without freeing.
enum LoadBreakdown {
    /// Medians of one part.
    struct Timing {
        var seconds: Double
        var processorSeconds: Double
    }

    static func lines(directory: String, runs: Int) throws -> [String] {
        let store = try BoardStore(directory: directory)
        let board = try store.loadBoard()
        let root = store.directory

        /// `prepare` runs untimed before every run of `body`; what `body` returns is freed after the clock stops.
        func timed<Result>(prepare: () -> Void = {}, _ body: () throws -> Result) rethrows -> Timing {
            var wall: [Double] = []
            var processor: [Double] = []
            prepare()
            _ = try body()  // warm-up
            for _ in 0..<runs {
                prepare()
                let sample = try wallAndProcessorTime { () throws -> Result in try body() }
                wall.append(sample.seconds)
                processor.append(sample.processorSeconds)
            }
            return Timing(seconds: median(wall), processorSeconds: median(processor))
        }

        let open = try timed { try BoardStore(directory: directory).loadBoard() }
        let list = try timed { try listCardFiles(root: root) }
        let files = try listCardFiles(root: root)
        let read = try timed { () throws -> [[UInt8]] in
            var contents: [[UInt8]] = []
            contents.reserveCapacity(files.count)
            for file in files { contents.append(try POSIX.readFile(root + "/" + file.path)) }
            return contents
        }
        var contents = try files.map { file throws(BenchmarkError) in try POSIX.readFile(root + "/" + file.path) }
        var failures = 0
        let parse = timed { () -> [Card] in
            var cards: [Card] = []
            cards.reserveCapacity(files.count)
            failures = 0
            for (file, bytes) in zip(files, contents) {
                do {
                    cards.append(try CardReader.read(bytes, file: file, includeBody: false).0)
                } catch {
                    failures += 1
                }
            }
            return cards
        }
        contents.removeAll()
        func readAndParseAll() -> [Card?] {
            ParallelMap.map(files, minimumChunk: 16) { file in
                (try? POSIX.readFile(root + "/" + file.path)).flatMap { try? CardReader.read($0, file: file, includeBody: false).0 }
            }
        }
        let readAndParse = timed { () -> [Card?] in
            let parsed = readAndParseAll()
            precondition(parsed.count == files.count, "ParallelMap keeps one result per file")
            return parsed
        }
        var parsed: [Card?] = []
        let free = timed(prepare: { parsed = readAndParseAll() }) { parsed.removeAll() }
        let snapshot = try store.load(.all)
        let load = try timed { try store.load(.all) }
        let bodies = try timed { try store.load(.all, includeBodies: true) }
        let active = try timed { try store.load(.active) }
        let column = try timed { try store.load(.active, columns: ["todo"]) }

        let rest = load.processorSeconds - open.processorSeconds - list.processorSeconds - read.processorSeconds
            - parse.processorSeconds
        let todoCount = snapshot.cards(inColumn: "todo").count
        let cores = ProcessInfo.processInfo.activeProcessorCount
        func row(_ label: String, _ timing: Timing?, cpu: String? = nil, _ note: String = "") -> String {
            "  " + label.rightPadded(to: 44) + (timing.map { formatSeconds($0.seconds) } ?? "").leftPadded(to: 9)
                + (cpu ?? timing.map { formatSeconds($0.processorSeconds) } ?? "").leftPadded(to: 10)
                + (note.isEmpty ? "" : "   " + note)
        }
        let restLabel = "  of which the rest, estimated"
        return [
            "load breakdown on \(grouped(snapshot.cards.count)) cards (in-process, median of \(runs) after a warm-up; "
                + "\(board.columns.count) columns):",
            "  " + "".rightPadded(to: 44) + "wall".leftPadded(to: 9) + "cpu".leftPadded(to: 10),
            row("open board (BoardStore + board.md)", open),
            row("list directories, 1 thread", list,
                "readdir + CardFile, \(grouped(files.count)) files; the loader lists each directory on its own thread"),
            row("read files, 1 thread", read,
                "by path: open + fstat + read (16 KiB chunks) + close; the loader uses openat and a reused 64 KiB buffer"),
            row("parse, 1 thread, full YAML parser", parse,
                "CardReader.read from bytes in memory; the loader reads plain frontmatter faster"
                    + (failures > 0 ? "; \(failures) files did not parse" : "")),
            row("read + parse, \(cores) threads, full YAML parser", readAndParse,
                "the two rows above spread over the cores with ParallelMap; the loader's own pass is faster"),
            row("free the parsed cards", free, "not in the other rows: each row's results are freed outside its timing"),
            row("load(.all)", load),
            rest > 0
                ? row(restLabel, nil, cpu: "≈ " + formatSeconds(rest),
                      "sort keys + move cards: load − open − list − read − parse, about \(percent(rest, of: load.processorSeconds)) "
                          + "of the load's cpu; low, since read and parse above are slower than the loader's")
                : row(restLabel, nil, cpu: "—",
                      "not estimable: the parts above, slower than the loader's own, add up to more than the load"),
            row("load(.all, includeBodies: true)", bodies),
            row("load(.active)", active),
            row("load(.active, columns: [todo])", column, "\(grouped(todoCount)) cards: what placing a card in todo reads"),
        ]
    }

    /// The card files in the order `BoardStore` lists them: column directories by name, each in `readdir` order,
    /// then the archive; names filtered and paths built by the library's `CardFile`.
    static func listCardFiles(root: String) throws(BenchmarkError) -> [CardFile] {
        var files: [CardFile] = []
        let columns = try POSIX.entries(of: root + "/cards").filter(\.isDirectory).map(\.name)
            .sorted { $0.utf8Precedes($1) }
        for column in columns {
            for entry in try POSIX.entries(of: root + "/cards/" + column) where CardFile.isCardFileName(entry.name) {
                files.append(CardFile.active(name: entry.name, column: column))
            }
        }
        for entry in try POSIX.entries(of: root + "/archive") where CardFile.isCardFileName(entry.name) {
            files.append(CardFile.archived(name: entry.name))
        }
        return files
    }

    private static func percent(_ part: Double, of whole: Double) -> String {
        whole > 0 ? "\(Int((part / whole * 100).rounded()))%" : "—"
    }
}
