import Foundation
import KanbanCore
import KanbanGit
import KanbanServer
import KanbanWatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `kanban serve [DIR...] [--port N] [--bind ADDR] [--no-open] [--read-only]`: the board (or several) as a web page, live.
enum ServeCommand: KanbanCommand {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve the board as a live web page on this computer.",
        discussion: """
            Serves the board on 127.0.0.1 and prints, as the first line on standard output:
              serving "<title>" at http://127.0.0.1:PORT/?token=TOKEN
            and opens that address in a browser when there is a desktop session (--no-open: never). The browser \
            is handed a file only you can read that leads to the address, so the token never appears in a command \
            line that other users' 'ps' can see. The page \
            shows the board as SimpleKanban does: drag cards between and within columns, edit a card in its panel, \
            filter with the 'kanban search' language, the keys of 'kanban tui', undo, and a Sync button. What \
            anyone changes (an editor, git pull, another kanban, another window) appears as it happens.

            Every change is made with the store calls the commands use and committed as they commit (--commit, \
            KANBAN_COMMIT=1 or 'autocommit: true' in board.md): one commit per change. An edit names the version \
            of the card it was made on; when the card changed meanwhile the edit is refused and the page shows both.

            The server answers only requests that carry the token (the first visit with ?token= sets a cookie; \
            scripts send 'Authorization: Bearer TOKEN') and name this address in Host; a change must be JSON \
            from the page's own origin. --bind serves on another address (with a warning: anyone who can reach \
            it and has the token can change the board); --bind 0.0.0.0 (or ::) serves every address of this \
            machine and prints an address for each. Stop it with Ctrl-C (SIGINT) or SIGTERM.

            Given directories, it serves every board they hold (each a board, or a directory searched as 'kanban \
            boards' searches it), in one server with one token: the first line then says 'serving N boards at \
            http://127.0.0.1:PORT/?token=TOKEN', a line follows for each board, the address lists the boards, each \
            board's page is at /b/<index>/ with a picker in its header that switches between them, and every check \
            above applies to every board. A board is named by its path under the directory given (a board given \
            itself, by its directory's name). Given one board, or a directory holding one, it serves it as without \
            arguments. See docs/boards.md.

            The JSON API the page uses is in docs/serve.md.

            Examples:
              kanban serve
              kanban serve --port 8080 --no-open --commit
              kanban serve ~/src/app/board ~/src/site/board      # two boards, with a picker
              kanban serve ~/src --no-open                        # every board under ~/src
              kanban serve --read-only --token-file ~/.config/kanban/wall-token   # a wall screen that survives restarts
            """,
        usage: "kanban serve [<directory>...] [--port <port>] [--bind <address>] [--no-open] [--read-only]",
        arguments: [.repeating("directory", help: "A board, or a directory of boards (as 'kanban boards' finds them); several may be given (default: the board, found as every command finds it).", isOptional: true)],
        options: [
            .option("port", short: "p", valueName: "port", help: "The port (default: a free one)."),
            .option("bind", valueName: "address", help: "The address to listen on (default 127.0.0.1)."),
            .flag("no-open", help: "Do not open a browser."),
            .flag("read-only", help: "Serve the board without allowing changes."),
            .option("token-file", valueName: "file", help: "Keep the token in this file (made 0600 when missing), the same across restarts."),
            .option("request-timeout", valueName: "seconds", help: "How long a request may take to arrive (default 10).", isHidden: true),
        ],
        exitStatuses: [
            ExitStatusHelp(.success, "Stopped by SIGINT or SIGTERM."),
            ExitStatusHelp(.failure, "The board could not be served (the port is taken, the board went away)."),
            ExitStatusHelp(.usage, "Usage error: unknown option or bad value."),
        ])

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> ExitCode {
        // Before any thread starts, so that every thread inherits the mask: SIGINT and SIGTERM reach sigwait below.
        let signals = ShutdownSignals.blockInThisThread()
        var port: UInt16 = 0
        if let text = arguments.value("port") {
            guard let value = UInt16(text) else { throw arguments.usageError("invalid value '\(text)' for option '--port'; give a port from 0 to 65535") }
            port = value
        }
        var address = arguments.value("bind") ?? "127.0.0.1"
        if address.hasPrefix("[") && address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        let isLoopback = address == "127.0.0.1" || address == "::1" || address.hasPrefix("127.")
        let isWildcard = address == "0.0.0.0" || address == "::"
        guard !address.isEmpty else { throw arguments.usageError("'--bind' needs an address") }

        let named = try context.namedBoards(arguments.arguments("directory"))
        if named.count == 1 { context.use(try context.openBoard(at: named[0].directory).store) }
        let token = try arguments.value("token-file").map { try TokenFile.token(at: context.absolute($0), shownAs: $0) } ?? Self.makeToken()
        // A wildcard address serves every address of this machine: each of them is a name the page may be opened by.
        let addresses = isWildcard ? Self.machineAddresses(ipv6: address == "::") : [address]
        let settingsFor = { (port: UInt16) -> ServeApp.Settings in
            var hosts = Set(addresses.map { "\(Self.hostLiteral($0)):\(port)" })
            if isLoopback || isWildcard { hosts.formUnion(["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)"]) }
            if isWildcard, let name = Self.hostName() { hosts.insert("\(name):\(port)") }
            return ServeApp.Settings(token: token, allowedHosts: Set(hosts.map { $0.lowercased() }), isReadOnly: arguments.flag("read-only"),
                                     port: port)
        }
        var timeouts = HTTPServer.Timeouts()
        if let text = arguments.value("request-timeout") {
            guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
                throw arguments.usageError("invalid value '\(text)' for option '--request-timeout'; give seconds")
            }
            timeouts.request = .milliseconds(Int(seconds * 1000))
        }
        // With several boards, each is opened now, so that one that cannot be is said before anything listens.
        let opened = named.count > 1 ? try named.map { found in (found, try context.openBoard(at: found.directory)) } : []
        let single = opened.isEmpty ? try context.store() : nil
        let title = try single?.loadBoard().title
        let handlerBox = HandlerBox()
        let server: HTTPServer
        do {
            server = try HTTPServer(address: address, port: port, timeouts: timeouts) { request in handlerBox.handle(request) }
        } catch {
            throw CommandFailure(message: "cannot serve on \(address):\(port): \(error.message)")
        }

        let shutdown = ShutdownReason()
        let settings = settingsFor(server.port)
        var served: [BoardServing] = []
        defer { served.forEach { $0.stop() } }
        if let single {
            let serving = try BoardServing.start(store: single, session: try context.session(), git: try context.syncProvider(), settings: settings,
                                                 context: context, shutdown: shutdown)
            served.append(serving)
            handlerBox.handler = serving.app.handle
        } else {
            for (_, board) in opened {
                served.append(try BoardServing.start(store: board.store, session: board.session, git: board.git, settings: settings,
                                                     context: context, shutdown: shutdown))
            }
            let boards = ServeBoards(zip(opened, served).map { ServeBoards.Entry(name: $0.0.0.name, app: $0.1.app) })
            handlerBox.handler = boards.handle
        }
        let serving = Thread { server.run() }
        serving.start()

        let urlFor = { (host: String) in "http://\(Self.hostLiteral(host)):\(server.port)/?token=\(token)" }
        let url = urlFor(isWildcard ? "127.0.0.1" : address)
        if let title {
            context.output.writeLine("serving \"\(title)\" at \(url)")
        } else {
            context.output.writeLine("serving \(opened.count) boards at \(url)")
            let width = opened.map { $0.0.name.terminalWidth }.max() ?? 0
            for (index, (found, _)) in opened.enumerated() {
                context.output.writeLine("  \(found.name.padded(toWidth: width))  \"\(found.board?.title ?? "")\" at /b/\(index)/")
            }
        }
        for other in addresses where isWildcard && !other.hasPrefix("127.") && other != "::1" {
            context.output.writeLine("  also at \(urlFor(other))")
        }
        context.output.flush()
        if !isLoopback {
            context.errorOutput.writeLine("\(context.errorStylist.apply(.bold + .yellow, to: "warning")): serving on \(address), not only this computer: anyone who can reach it and has the token can change the board")
        }
        var launch: BrowserLaunch?
        if !arguments.flag("no-open") { launch = BrowserLaunch.open(url, environment: context.environment) }
        defer { launch?.remove() }
        if arguments.flag("read-only") {
            context.errorOutput.writeLine("read-only: the page shows the board live and refuses every change")
        }
        if !context.isQuiet {
            context.errorOutput.writeLine("stop with Ctrl-C")
            context.errorOutput.flush()
        }

        let reason = signals.wait(for: shutdown)
        server.stop()
        // The boards' watchers and monitors stop as the command returns (the defer above).
        switch reason {
        case .signal, .outputClosed:
            return .success
        case .rootLost:
            // With several boards, the one whose directory went away stops them all: say which.
            let lost = served.map(\.directory).first { !FileManager.default.fileExists(atPath: $0) } ?? served.first?.directory ?? ""
            throw CommandFailure(message: "the board directory '\(lost)' was removed or moved; stopped serving")
        }
    }

    /// 32 random bytes as hex, from the system's generator.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// `address` as it is written in a URL's host: an IPv6 address in brackets.
    static func hostLiteral(_ address: String) -> String {
        address.contains(":") ? "[\(address)]" : address
    }

    /// The addresses of this machine, loopback first, for a server bound to every address.
    static func machineAddresses(ipv6: Bool) -> [String] {
        let found = SystemCalls.interfaceAddresses(ipv4: true, ipv6: ipv6)
        return found.filter { $0.hasPrefix("127.") || $0 == "::1" } + found.filter { !$0.hasPrefix("127.") && $0 != "::1" }
    }

    /// This machine's host name, when it is one a Host header can carry.
    static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !name.isEmpty, name.utf8.allSatisfy({ HTTPRequestParser.isTokenByte($0) }) else { return nil }
        return name
    }
}

/// The server's handler, set once the app (which needs the bound port) exists.
private final class HandlerBox: @unchecked Sendable {
    var handler: (@Sendable (HTTPRequest) -> HTTPResponse)?

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        handler?(request) ?? .error(.serviceUnavailable, "starting", "the server is starting")
    }
}

/// One board served: its app, and what follows the board for it (the watcher, the index monitor, git's references).
private final class BoardServing {
    let app: ServeApp
    let hub: EventHub
    /// The board's directory.
    let directory: String
    private let watcher: any BoardWatcher
    private let monitor: IndexMonitoring?
    private let references: ReferenceWatcher?

    private init(directory: String, app: ServeApp, hub: EventHub, watcher: any BoardWatcher, monitor: IndexMonitoring?, references: ReferenceWatcher?) {
        self.directory = directory
        self.app = app
        self.hub = hub
        self.watcher = watcher
        self.monitor = monitor
        self.references = references
    }

    /// Starts following `store` for a new app: the watcher first, then the board read, so nothing is missed.
    static func start(store: BoardStore, session: BoardSession, git: GitSyncProvider, settings: ServeApp.Settings,
                      context: CommandContext, shutdown: ShutdownReason) throws -> BoardServing {
        let hub = EventHub()
        let app = ServeApp(settings: settings, session: session, git: git, hub: hub)
        let errorOutput = context.errorOutput
        let errorStylist = context.errorStylist
        let watcher = BoardWatchers.make(
            for: store, mechanism: .automatic, options: WatchOptions(),
            onNotice: { notice in
                let label = errorStylist.apply(.bold + .yellow, to: "warning")
                errorOutput.writeLine(notice.path.map { "\($0): \(label): \(notice.message)" } ?? "\(label): \(notice.message)")
                errorOutput.flush()
            },
            onEvent: { event in
                app.apply(event)
                if event.kind == .rootLost { shutdown.request(.rootLost) }
            })
        try watcher.start()
        // The board the page asks for first is read now (the watcher already running), not on its first request.
        app.warmUp()
        let monitor = IndexMonitoring.start(store, context)
        // The page's git status follows a fetch or push made elsewhere, not only changes to cards.
        let references = ((try? git.referenceFiles()) ?? nil).map { files in
            ReferenceWatcher(files) { hub.publish(#"{"event":"git"}"#) }
        }
        return BoardServing(directory: store.directory, app: app, hub: hub, watcher: watcher, monitor: monitor, references: references)
    }

    func stop() {
        references?.stop()
        hub.stop()
        monitor?.stop()
        watcher.stop()
    }
}
