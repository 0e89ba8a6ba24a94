#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe for tests that need a descriptor that is not a terminal, or output to read back;
/// named so as not to shadow Foundation's `Pipe` in the test target.
struct TestPipe {
    struct Failure: Error {
        var errno: Int32
    }

    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { throw Failure(errno: errno) }
        readEnd = descriptors[0]
        writeEnd = descriptors[1]
    }

    /// Everything written so far; call after closing the write end or flushing less than a pipe buffer.
    func readAvailable() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let flags = fcntl(readEnd, F_GETFL)
        _ = fcntl(readEnd, F_SETFL, flags | O_NONBLOCK)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(readEnd)
            _ = Glibc.close(writeEnd)
        #else
            _ = Darwin.close(readEnd)
            _ = Darwin.close(writeEnd)
        #endif
    }
}
