/// A process exit status, following the BSD `sysexits.h` conventions where they apply.
///
/// ```swift
/// exit(ExitCode.usage.rawValue)
/// ```
struct ExitCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral {
    /// The numeric status handed to `exit(_:)`.
    var rawValue: Int32

    /// Creates an exit code from its numeric status.
    init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Creates an exit code from an integer literal, so that `let code: ExitCode = 2` reads naturally.
    init(integerLiteral value: Int32) {
        self.rawValue = value
    }

    /// The command did what was asked: `0`.
    static let success: ExitCode = 0

    /// The command failed; a diagnostic was written to standard error: `1`.
    static let failure: ExitCode = 1

    /// The command line was malformed (`EX_USAGE`): `64`.
    static let usage: ExitCode = 64
}
