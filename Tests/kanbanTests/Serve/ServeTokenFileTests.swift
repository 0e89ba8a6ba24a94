import Foundation
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
