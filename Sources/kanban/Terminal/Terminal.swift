import KanbanServer
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the terminal the process writes to.
enum Terminal {
    /// The width assumed when nothing better is known.
    static let defaultWidth = 80

    /// The widest layout `COLUMNS` may ask for; anything larger is taken as this.
    static let maximumWidth = 10_000

    /// Whether `descriptor` refers to a terminal.
    ///
    /// - Parameter descriptor: A file descriptor, such as `STDOUT_FILENO`.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        SystemCalls.isTerminal(descriptor)
    }

    /// The number of columns to lay text out in.
    ///
    /// The terminal's own size when `descriptor` is a terminal, else a positive integer in
    /// `COLUMNS` (at most `maximumWidth`), else 80.
    ///
    /// - Parameters:
    ///   - descriptor: The stream the text goes to; standard output by default.
    ///   - environment: The process environment.
    static func width(of descriptor: Int32 = STDOUT_FILENO, environment: [String: String]) -> Int {
        if let columns = SystemCalls.terminalColumns(descriptor) {
            return columns
        }
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return min(columns, maximumWidth)
        }
        return defaultWidth
    }
}
