#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `kanban-bench serve [--sizes n,n] [--moves n] [--edits n] [--pages n]`: times `kanban serve` as the page meets it.
///
/// The release `kanban serve` runs on a generated board; the benchmark speaks HTTP to it over loopback: the page's
/// first load (the HTML, then `GET /api/board`, which is what the page waits for before it paints), a move request
/// to its response, an external edit (a card file renamed over) to the event on `/api/events`, and the server's
/// memory with many pages open. The paint itself is the browser's: `Scripts/browser-test.sh` prints it.
func runServeBenchmarks(arguments: [String]) throws {
    var sizes = [1_000, 10_000]
    var moves = 40
    var edits = 20
    var pages = 50
    var remaining = SubcommandArguments(arguments)
    while let argument = remaining.next() {
        switch argument {
        case "-h", "--help":
            print("""
                OVERVIEW: Times kanban serve over loopback: the page's first load (HTML and GET /api/board), the
                server's own time to answer for the board (HEAD /api/board), a move request to its response, an
                external edit to its event on /api/events, and the server's memory with many pages open (each
                holding the event stream).

                USAGE: kanban-bench serve [--sizes <n,n,...>] [--moves <n>] [--edits <n>] [--pages <n>]

                Targets: first load under 1 s at 10,000 cards; the board's answer under 50 ms; move under 100 ms;
                edit to event under the watcher's settle time (50 ms) plus 100 ms. Needs the kanban product built beside the benchmark.
                """)
            return
        case "--moves": moves = try remaining.number(of: argument, in: 2...10_000)
        case "--edits": edits = try remaining.number(of: argument, in: 1...10_000)
        case "--pages": pages = try remaining.number(of: argument, in: 1...1_000)
        case "--sizes":
            let text = try remaining.value(of: argument, placeholder: "<n,n,...>")
            sizes = try text.split(separator: ",").map { part throws(BenchmarkError) -> Int in
                guard let size = Int(part), size >= 10, size <= 1_000_000 else { throw BenchmarkError("Error: bad size '\(part)'") }
                return size
            }
        default:
            throw BenchmarkError("Error: unknown option '\(argument)' for 'kanban-bench serve'; see --help")
        }
    }
    guard let kanban = KanbanExecutable.besideBenchmark() else {
        throw BenchmarkError("no kanban executable beside the benchmark; build it first: \(KanbanExecutable.buildCommand)")
    }
    let parent = POSIX.environmentValue("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    let root = try POSIX.makeTemporaryDirectory(in: parent, prefix: "kanban-bench-serve")
    defer { try? POSIX.removeTree(root) }
    print("kanban-bench serve: \(moves) moves, \(edits) edits, \(pages) pages per board; times in ms (median / p95 / max)")
    for size in sizes {
        let board = GeneratedBoard(directory: root + "/board-\(size)", cardCount: size)
        _ = try board.write()
        let server = try ServedBoard(kanban: kanban.path, board: board.directory)
        defer { server.stop() }
        var loads: [Double] = []
        var payload = 0
        for _ in 0..<5 {
            let start = Date()
            _ = try server.request("GET", "/")
            payload = try server.request("GET", "/api/board").count
            loads.append(Date().timeIntervalSince(start) * 1000)
        }
        let load = LatencySample(milliseconds: loads)
        // HEAD is answered as GET without the body: the server's own time to make the board's answer.
        var answers: [Double] = []
        for _ in 0..<5 {
            let start = Date()
            _ = try server.request("HEAD", "/api/board")
            answers.append(Date().timeIntervalSince(start) * 1000)
        }
        let answer = LatencySample(milliseconds: answers)
        let slugs = try GeneratedBoard.cardFilePaths(in: board.directory).filter { $0.hasPrefix("cards/") }
            .map { String($0.split(separator: "/").last!.dropLast(3)) }
        var moveTimes: [Double] = []
        for index in 0..<moves {
            let slug = slugs[index % slugs.count]
            let start = Date()
            _ = try server.request("POST", "/api/cards/\(slug)/move", body: #"{"placement":"\#(index % 2 == 0 ? "top" : "bottom")"}"#)
            moveTimes.append(Date().timeIntervalSince(start) * 1000)
        }
        let stream = try server.openEvents()
        var editTimes: [Double] = []
        let paths = try GeneratedBoard.cardFilePaths(in: board.directory).filter { $0.hasPrefix("cards/") }
        for index in 0..<edits {
            let path = board.directory + "/" + paths[(index * 7919) % paths.count]
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let marker = "Edited \(index) by the benchmark"
            let edited = text.replacingOccurrences(of: "title: ", with: "title: \(marker) ", options: [], range: text.range(of: "title: "))
            try edited.write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
            let start = Date()
            rename(path + ".tmp", path)
            guard stream.wait(for: marker, seconds: 10) else { throw BenchmarkError("no event for an edit of \(path) within 10 s") }
            editTimes.append(Date().timeIntervalSince(start) * 1000)
        }
        var streams = [stream]
        for _ in 1..<pages { streams.append(try server.openEvents()) }
        Thread.sleep(forTimeInterval: 0.3)
        let memory = server.residentMegabytes()
        let move = LatencySample(milliseconds: moveTimes)
        let edit = LatencySample(milliseconds: editTimes)
        print("""
            \(grouped(size)) cards (GET /api/board \(payload / 1024) KiB):
              first load (HTML + board JSON)  \(serveSummary(load))   (target < 1000 ms: \(verdict(load.median < 1000)))
              board answer, server side       \(serveSummary(answer))   (HEAD /api/board; target < 50 ms: \(verdict(answer.median < 50)))
              move request → response         \(serveSummary(move))   (target < 100 ms: \(verdict(move.median < 100)))
              external edit → event           \(serveSummary(edit))   (target < settle 50 + 100 ms: \(verdict(edit.percentile(95) < 150)))
              server memory with \(pages) pages open: \(memory.map { "\($0) MB" } ?? "n/a")
            """)
        streams.removeAll()
    }
}

private func serveSummary(_ sample: LatencySample) -> String {
    String(format: "%7.1f / %7.1f / %7.1f", sample.median, sample.percentile(95), sample.milliseconds.max() ?? .nan)
}

/// A `kanban serve` the benchmark started, and raw HTTP to it.
private final class ServedBoard {
    let process: Process
    let port: UInt16
    let token: String

    init(kanban: String, board: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: kanban)
        process.arguments = ["--board", board, "serve", "--no-open", "--quiet"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchmarkError("kanban serve printed no address") }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let match = text.firstMatch(of: /127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/), let port = UInt16(match.output.1) else {
            throw BenchmarkError("cannot read the address from: \(text)")
        }
        self.port = port
        token = String(match.output.2)
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }

    /// The server's resident memory in MB, from /proc.
    func residentMegabytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes / 1024
    }

    func connect() throws -> Int32 {
        let descriptor = Platform.streamSocket(family: AF_INET)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Platform.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw BenchmarkError("cannot connect to kanban serve") }
        return descriptor
    }

    /// Sends one request and reads the whole response (the server closes the connection); returns its bytes.
    func request(_ method: String, _ path: String, body: String = "") throws -> [UInt8] {
        let descriptor = try connect()
        defer { close(descriptor) }
        let request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n"
            + (method == "GET" ? "" : "Content-Type: application/json\r\n") + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
        _ = Array(request.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Platform.sendFlags) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response += buffer.prefix(count)
        }
        guard response.starts(with: Array("HTTP/1.1 2".utf8)) else {
            throw BenchmarkError("\(method) \(path): \(String(decoding: response.prefix(200), as: UTF8.self))")
        }
        return response
    }

    /// An open `/api/events` stream.
    func openEvents() throws -> EventStreamReader {
        let descriptor = try connect()
        let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n\r\n"
        _ = Array(request.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Platform.sendFlags) }
        return EventStreamReader(descriptor: descriptor)
    }
}

/// Reads an event stream until a text appears.
private final class EventStreamReader {
    let descriptor: Int32
    private var seen: [UInt8] = []

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    func wait(for text: String, seconds: Double) -> Bool {
        let needle = Array(text.utf8)
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while Date() < deadline {
            if let range = seen.firstRange(of: needle) {
                seen.removeSubrange(..<range.upperBound)
                return true
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            seen += buffer.prefix(count)
        }
        return false
    }
}
