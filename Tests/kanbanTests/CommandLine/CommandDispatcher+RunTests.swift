import Testing

@testable import kanban

@Suite struct CommandDispatcherRunTests {
    /// Output and error streams on one pipe each, read back after the run.
    struct Streams {
        let outputPipe: TestPipe
        let errorPipe: TestPipe
        let output: BufferedOutput
        let errorOutput: BufferedOutput

        init() throws {
            outputPipe = try TestPipe()
            errorPipe = try TestPipe()
            output = BufferedOutput(descriptor: outputPipe.writeEnd, isLineBuffered: false)
            errorOutput = BufferedOutput(descriptor: errorPipe.writeEnd, isLineBuffered: false)
        }

        func read() -> (output: String, error: String) {
            output.flush()
            errorOutput.flush()
            return (outputPipe.readAvailable(), errorPipe.readAvailable())
        }

        func close() {
            outputPipe.close()
            errorPipe.close()
        }
    }

    struct Failure: Error {}

    let environment = ["COLUMNS": "80", "TERM": "xterm"]

    func run(_ line: String, streams: Streams, execute: (ParsedArguments) throws -> ExitCode = { _ in .success }) throws
        -> ExitCode
    {
        try SampleCommands.dispatcher.run(
            line.split(separator: " ").map(String.init), environment: environment,
            output: streams.output, errorOutput: streams.errorOutput, execute: execute)
    }

    @Test func runsTheCommand() throws {
        let streams = try Streams()
        defer { streams.close() }
        var seen: [String] = []
        let code = try run("list -q", streams: streams) { arguments in
            seen = arguments.commandPath
            return ExitCode(rawValue: 3)
        }
        #expect(code == ExitCode(rawValue: 3))
        #expect(seen == ["kanban", "list"])
        #expect(streams.read() == ("", ""))
    }

    @Test func printsHelpToOutput() throws {
        let streams = try Streams()
        defer { streams.close() }
        let code = try run("show --help", streams: streams)
        #expect(code == .success)
        let (output, error) = streams.read()
        #expect(output == (try SampleCommands.dispatcher.helpText(for: ["kanban", "show"], width: 80)))
        #expect(error == "")
    }

    @Test func printsTheVersion() throws {
        let streams = try Streams()
        defer { streams.close() }
        #expect(try run("--version", streams: streams) == .success)
        #expect(streams.read() == ("1.2.3\n", ""))
    }

    @Test func printsUsageErrorsToErrorOutput() throws {
        let streams = try Streams()
        defer { streams.close() }
        #expect(try run("lsit", streams: streams) == .usage)
        let (output, error) = streams.read()
        #expect(output == "")
        #expect(error.hasPrefix("error: unknown command 'lsit'\nDid you mean 'list'?\nUsage: kanban "))
    }

    @Test func printsUsageErrorsThrownByTheCommand() throws {
        let streams = try Streams()
        defer { streams.close() }
        let code = try run("show x", streams: streams) { arguments in
            throw arguments.usageError("card 'x' is ambiguous")
        }
        #expect(code == .usage)
        #expect(
            streams.read().error
                == "error: card 'x' is ambiguous\nUsage: kanban show <card>\n  See 'kanban show --help'.\n")
    }

    @Test func passesOtherErrorsOn() throws {
        let streams = try Streams()
        defer { streams.close() }
        #expect(throws: Failure.self) {
            try run("show x", streams: streams) { _ in throw Failure() }
        }
    }

    @Test(
        arguments: [
            ([], ColorMode.auto),
            (["--no-color"], .never),
            (["--color", "always"], .always),
            (["--color=never", "x"], .never),
            (["--no-color", "--color=always"], .always),
            (["--color", "bogus"], .auto),
            (["--color"], .auto),
            (["--", "--no-color"], .auto),
        ] as [([String], ColorMode)])
    func findsTheColourChoiceOnALineThatMayNotParse(arguments: [String], mode: ColorMode) {
        #expect(CommandDispatcher.colorMode(in: arguments) == mode)
    }
}
