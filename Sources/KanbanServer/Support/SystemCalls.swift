#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls the servers (and the `kanban` executable) make, each capturing `errno` at once and retrying on
/// `EINTR`.
package enum SystemCalls {
    /// A pipe whose ends are non-blocking and closed on exec, or the `errno`.
    package static func makePipe() -> Result<(read: Int32, write: Int32), SystemCallFailure> {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return .failure(SystemCallFailure(code: errno)) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return .success((descriptors[0], descriptors[1]))
    }

    /// Waits until one of `descriptors` can be read (or has hung up), or `milliseconds` pass (-1: no limit), as
    /// `poll(2)` does; an interruption by a signal counts as the time passing.
    /// - Returns: For each descriptor, whether it is ready; or the `errno` of a failed poll.
    package static func waitForInput(_ descriptors: [Int32], milliseconds: Int32) -> Result<[Bool], SystemCallFailure> {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = poll(&entries, nfds_t(entries.count), milliseconds)
        if count < 0 {
            let error = errno
            return error == EINTR ? .success(Array(repeating: false, count: descriptors.count)) : .failure(SystemCallFailure(code: error))
        }
        return .success(entries.map { $0.revents != 0 })
    }

    /// Reads what is available from `descriptor`, up to `limit` bytes, retrying on `EINTR`.
    /// - Returns: The bytes (empty at end of file), or the `errno` (`EAGAIN` when nothing is there after all).
    package static func readAvailable(_ descriptor: Int32, limit: Int = 4096) -> Result<[UInt8], SystemCallFailure> {
        var buffer = [UInt8](repeating: 0, count: limit)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, limit) }
            if count >= 0 { return .success(Array(buffer.prefix(count))) }
            let error = errno
            if error != EINTR { return .failure(SystemCallFailure(code: error)) }
        }
    }

    /// Writes one byte to a non-blocking pipe to wake its reader; a full pipe already will, so failure is ignored.
    package static func wake(_ descriptor: Int32) {
        var byte: UInt8 = 1
        while write(descriptor, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Writes all of `bytes` to `descriptor`, continuing after partial writes and `EINTR`.
    ///
    /// - Returns: `nil` on success, or the `errno` of the failed `write(2)`.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard var address = bytes.baseAddress else { return nil }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(descriptor, address, remaining)
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                return error
            }
            remaining -= written
            address += written
        }
        return nil
    }
}

/// Why a system call failed (a child process that could not be started or waited for, a terminal that cannot be
/// set up): the `errno`.
package struct SystemCallFailure: Error {
    package var code: Int32

    package init(code: Int32) {
        self.code = code
    }
}
