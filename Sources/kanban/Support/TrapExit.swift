#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trap (a failed precondition, an overflow: a bug) ends the process at once with one line on standard error,
/// instead of the Swift runtime's backtracer, which holds a server's port and its board's lock for half a minute
/// while it symbolicates. `SWIFT_BACKTRACE` set in the environment keeps the backtracer, for whoever debugs.
enum TrapExit {
    /// The exit status after a trap: sysexits' `EX_SOFTWARE`.
    static let status: Int32 = 70

    /// Installs the handler for `SIGILL` and `SIGTRAP` (how Swift traps on x86-64 and arm64), unless `environment`
    /// names `SWIFT_BACKTRACE`.
    static func install(environment: [String: String]) {
        guard environment["SWIFT_BACKTRACE"] == nil else { return }
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { _ in TrapExit.exitNow() }
        #else
            action.__sigaction_u.__sa_handler = { _ in TrapExit.exitNow() }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        for signal in [SIGILL, SIGTRAP] { _ = sigaction(signal, &action, nil) }
    }

    /// Writes the line and exits; only async-signal-safe calls.
    private static func exitNow() -> Never {
        let text: StaticString = "kanban: internal error (a bug): stopped at once; set SWIFT_BACKTRACE=enable=yes for a backtrace\n"
        _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
        _exit(status)
    }
}
