#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls the `kanban` executable makes, each capturing `errno` at once and
/// retrying on `EINTR`.
enum SystemCalls {
    /// Whether `descriptor` refers to a terminal (`isatty(3)`).
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The number of columns of the terminal on `descriptor` (`ioctl(TIOCGWINSZ)`), or
    /// `nil` when it is not a terminal or reports no size.
    static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        let result = ioctl(descriptor, UInt(TIOCGWINSZ), &size)
        guard result == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes all of `bytes` to `descriptor`, continuing after partial writes and `EINTR`.
    ///
    /// - Returns: `nil` on success, or the `errno` of the failed `write(2)`.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
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
