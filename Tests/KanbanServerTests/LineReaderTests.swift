#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Testing

@testable import KanbanServer

@Suite struct LineReaderTests {
    /// Every line a reader with `limit` gives for `bytes` written to a pipe (from another thread) and then closed.
    private func lines(_ bytes: [UInt8], limit: Int, nonBlocking: Bool = false) throws -> [LineReader.Line] {
        var descriptors: [Int32] = [-1, -1]
        try #require(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        if nonBlocking { _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK) }
        defer { close(readEnd) }
        let writer = Thread {
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                written += count
            }
            close(writeEnd)
        }
        writer.start()
        var reader = LineReader(descriptor: readEnd, limit: limit)
        var result: [LineReader.Line] = []
        while true {
            let line = reader.next()
            result.append(line)
            if line == .end { return result }
        }
    }

    @Test func splitsLinesAndDropsCarriageReturns() throws {
        #expect(try lines(Array("one\ntwo\r\n\nlast".utf8), limit: 100) == [
            .line(Array("one".utf8)), .line(Array("two".utf8)), .line([]), .line(Array("last".utf8)), .end,
        ])
        #expect(try lines([], limit: 100) == [.end])
    }

    @Test func aLineOverTheLimitIsDroppedAndReadingGoesOn() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
        let result = try lines(Array("ok\n".utf8) + long + Array("\nafter\n".utf8) + long, limit: 1_000)
        #expect(result == [.line(Array("ok".utf8)), .tooLong(300_000), .line(Array("after".utf8)), .tooLong(300_000), .end])
    }

    @Test func aLineJustOverTheLimitInOneReadIsRefusedToo() throws {
        #expect(try lines(Array("12345678901\nok\n".utf8), limit: 10) == [.tooLong(11), .line(Array("ok".utf8)), .end])
        #expect(try lines(Array("1234567890\n".utf8), limit: 10) == [.line(Array("1234567890".utf8)), .end])
    }

    @Test func aNonBlockingInputIsWaitedOnNotTakenForEnded() throws {
        let long = [UInt8](repeating: UInt8(ascii: "y"), count: 200_000)
        #expect(try lines(long + Array("\nok\n".utf8), limit: 300_000, nonBlocking: true) == [.line(long), .line(Array("ok".utf8)), .end])
    }
}
