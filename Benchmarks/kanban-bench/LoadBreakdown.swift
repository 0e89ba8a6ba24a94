import Foundation
import KanbanCore

/// Where a load's time goes, measured in one process with the library's own pieces where our package may use
/// them (`CardFile` for the listing, `CardReader.read` for parsing, `ParallelMap` for spreading work over the
/// cores) and the same system calls KanbanCore makes where it may not (`opendir`/`readdir`; `open`, `fstat`,
/// `read` into a 16 KiB chunk). What `load(.all)` spends beyond those is sorting and assembling the snapshot.
///
/// Each part is timed on the wall clock and in processor time (user and system, all threads). The rest is worked
/// out from processor time, which adds up across threads and hardly moves when other work shares the cores.
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

        /// `prepare` runs untimed before every run of `body`.
        func timed(prepare: () -> Void = {}, _ body: () throws -> Void) rethrows -> Timing {
            var wall: [Double] = []
            var processor: [Double] = []
            prepare()
            try body()  // warm-up
            for _ in 0..<runs {
                prepare()
                let sample = try wallAndProcessorTime { () throws in try body() }
                wall.append(sample.seconds)
                processor.append(sample.processorSeconds)
            }
            return Timing(seconds: median(wall), processorSeconds: median(processor))
        }

        let open = try timed { _ = try BoardStore(directory: directory).loadBoard() }
        var files: [CardFile] = []
        let list = try timed { files = try listCardFiles(root: root) }
        var contents: [[UInt8]] = []
        let read = try timed {
            contents = []
            contents.reserveCapacity(files.count)
            for file in files { contents.append(try POSIX.readFile(root + "/" + file.path)) }
        }
        var failures = 0
        let parse = timed {
            failures = 0
            for (file, bytes) in zip(files, contents) {
                do {
                    _ = try CardReader.read(bytes, file: file, includeBody: false)
                } catch {
                    failures += 1
                }
            }
        }
        contents = []
        func readAndParseAll() -> [Card?] {
            ParallelMap.map(files, minimumChunk: 16) { file in
                (try? POSIX.readFile(root + "/" + file.path)).flatMap { try? CardReader.read($0, file: file, includeBody: false).0 }
            }
        }
        var parsed: [Card?] = []
        let readAndParse = timed(prepare: { parsed = [] }) {
            parsed = readAndParseAll()
            precondition(parsed.count == files.count, "ParallelMap keeps one result per file")
        }
        let free = timed(prepare: { parsed = readAndParseAll() }) { parsed = [] }
        var snapshot = try store.load(.all)
        let load = try timed { snapshot = try store.load(.all) }
        let bodies = try timed { _ = try store.load(.all, includeBodies: true) }
        let active = try timed { _ = try store.load(.active) }
        let column = try timed { _ = try store.load(.active, columns: ["todo"]) }

        let rest = load.processorSeconds - open.processorSeconds - list.processorSeconds - read.processorSeconds
            - parse.processorSeconds
        let todoCount = snapshot.cards(inColumn: "todo").count
        let cores = ProcessInfo.processInfo.activeProcessorCount
        func row(_ label: String, _ timing: Timing?, cpu: Double? = nil, _ note: String = "") -> String {
            "  " + label.rightPadded(to: 44) + (timing.map { formatSeconds($0.seconds) } ?? "").leftPadded(to: 9)
                + formatSeconds(cpu ?? timing?.processorSeconds ?? 0).leftPadded(to: 10) + (note.isEmpty ? "" : "   " + note)
        }
        return [
            "load breakdown on \(grouped(snapshot.cards.count)) cards (in-process, median of \(runs) after a warm-up; "
                + "\(board.columns.count) columns):",
            "  " + "".rightPadded(to: 44) + "wall".leftPadded(to: 9) + "cpu".leftPadded(to: 10),
            row("open board (BoardStore + board.md)", open),
            row("list directories (readdir + CardFile)", list, "\(grouped(files.count)) files"),
            row("read files, 1 thread", read, "open + fstat + read + close"),
            row("parse, 1 thread (CardReader.read)", parse,
                "from bytes in memory" + (failures > 0 ? "; \(failures) files did not parse" : "")),
            row("read + parse, \(cores) threads (ParallelMap)", readAndParse, "what CardLoader spreads over the cores"),
            row("free the parsed cards", free, "which load(.all) does too, for its intermediate arrays"),
            row("load(.all)", load),
            rest > 0
                ? row("  of which sort + assemble (the rest)", nil, cpu: rest,
                      "\(percent(rest, of: load.processorSeconds)) of the load's cpu: load − open − list − read − parse")
                : "  " + "  of which sort + assemble (the rest)".rightPadded(to: 44) + "lost in the noise".leftPadded(to: 19)
                    + "   the parts, timed apart, add up to more than the load",
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
