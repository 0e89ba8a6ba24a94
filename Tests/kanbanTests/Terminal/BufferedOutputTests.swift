import Testing

@testable import kanban

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct BufferedOutputTests {
    @Test func holdsOutputUntilFlushed() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let output = BufferedOutput(descriptor: pipe.writeEnd, isLineBuffered: false)
        output.write("one ")
        output.writeLine("two")
        #expect(pipe.readAvailable() == "")
        output.flush()
        #expect(pipe.readAvailable() == "one two\n")
        #expect(output.failure == nil)
    }

    @Test func flushesLinesWhenLineBuffered() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let output = BufferedOutput(descriptor: pipe.writeEnd, isLineBuffered: true)
        output.write("partial")
        #expect(pipe.readAvailable() == "")
        output.write(" line\nnext")
        #expect(pipe.readAvailable() == "partial line\nnext")
    }

    @Test func flushesWhenTheBufferFills() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let output = BufferedOutput(descriptor: pipe.writeEnd, isLineBuffered: false, capacity: 8)
        output.write("1234")
        #expect(pipe.readAvailable() == "")
        output.write("5678")
        #expect(pipe.readAvailable() == "12345678")
    }

    @Test func flushesAnotherWriterFirst() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let standardOutput = BufferedOutput(descriptor: pipe.writeEnd, isLineBuffered: false)
        let standardError = BufferedOutput(
            descriptor: pipe.writeEnd, isLineBuffered: true, capacity: 1, flushesBeforeWriting: standardOutput)
        standardOutput.write("result\n")
        standardError.write("warning\n")
        #expect(pipe.readAvailable() == "result\nwarning\n")
    }

    @Test func writesUnicodeIntact() throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let output = BufferedOutput(descriptor: pipe.writeEnd, isLineBuffered: false, capacity: 3)
        output.write("日本語 👨‍👩‍👧")
        output.flush()
        #expect(pipe.readAvailable() == "日本語 👨‍👩‍👧")
    }

    @Test func remembersAFailedWriteAndDropsLaterOutput() throws {
        let output = BufferedOutput(descriptor: -1, isLineBuffered: false)
        output.write("lost")
        output.flush()
        #expect(output.failure == EBADF)
        output.write("also lost")
        output.flush()
        #expect(output.failure == EBADF)
    }

    @Test func writesFromManyTasksWithoutLosingBytes() async throws {
        let pipe = try TestPipe()
        defer { pipe.close() }
        let output = BufferedOutput(descriptor: pipe.writeEnd, isLineBuffered: false)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 { output.write("x") }
                }
            }
        }
        output.flush()
        #expect(pipe.readAvailable() == String(repeating: "x", count: 400))
    }
}
