import Foundation
import KanbanTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kanban serve --token-file`: one token across restarts, so a page left open (a wall screen) carries on.
@Suite struct ServeTokenFileTests {
    @Test func theTokenIsMadeOnceKeptPrivateAndUsedAgain() throws {
        try withTemporaryBoard(.sample) { board in
            let file = board.root + "/token"
            let first = try ServeProcess(board: board, arguments: ["--token-file", file, "--read-only"])
            var status = stat()
            #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
            #expect(try String(contentsOfFile: file, encoding: .utf8) == first.token + "\n")
            #expect(waitUntil { first.process.stderr.contains("read-only: the page shows the board live and refuses every change") },
                    "\(first.process)")
            #expect(try first.stop() == 0)
            let second = try ServeProcess(board: board, arguments: ["--token-file", file])
            #expect(second.token == first.token)
        }
    }

    @Test func aFileOthersMayReadOrThatHoldsNoTokenIsRefused() throws {
        try withTemporaryBoard(.sample) { board in
            let file = board.root + "/token"
            try (String(repeating: "a", count: 64) + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o644)
            let open = try board.run(["serve", "--no-open", "--token-file", file])
            #expect(open.status == 1 && open.stderr.contains("others may read it") && open.stderr.contains("chmod 600"), "\(open)")
            try "short\n".write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o600)
            let short = try board.run(["serve", "--no-open", "--token-file", file])
            #expect(short.status == 1 && short.stderr.contains("does not hold a token"), "\(short)")
        }
    }
}

/// The page's git status follows the repository, not only the cards.
@Suite struct ServeGitStatusTests {
    @Test func aRemoteRefMovingElsewhereReachesTheEventStream() throws {
        try withTemporaryBoard(.sample) { board in
            let environment = ["GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e",
                               "HOME": board.root]
            func git(_ arguments: [String]) throws -> String {
                let result = try runProgram("/usr/bin/env", ["git", "-C", board.path] + arguments, environment: environment)
                try #require(result.status == 0, "git \(arguments): \(result.output)")
                return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            _ = try git(["init", "-q"])
            _ = try git(["add", "-A"])
            _ = try git(["commit", "-qm", "Board"])
            let server = try ServeProcess(board: board)
            let stream = try ServeConnection(port: server.port)
            stream.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAuthorization: Bearer \(server.token)\r\n\r\n")
            #expect(stream.readResponse()?.status == 200)
            // What a `git fetch` does to the repository: a remote-tracking ref moves, no card changes.
            _ = try git(["update-ref", "refs/remotes/origin/main", try git(["rev-parse", "HEAD"])])
            let text = stream.readStream { $0.contains(#""event":"git""#) }
            #expect(text.contains(#""event":"git""#), "no git event: \(text)")
        }
    }
}

/// Runs a program and collects its output (standard error with it).
func runProgram(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
