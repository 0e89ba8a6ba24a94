import KanbanServer
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal taken over for a full-screen view (`kanban tui`): raw mode (no echo, no line editing, no signals
/// from Ctrl-C or Ctrl-Z, which arrive as keys), the alternate screen, the cursor hidden and autowrap off, so that a
/// row as wide as the screen never scrolls it.
///
/// ``leave()`` puts everything back as it was found: the original attributes (`termios`), the main screen with its
/// contents, the cursor shown, autowrap on, styles reset. The owner calls it on every way out, and before running
/// an editor or suspending; ``enter()`` takes the terminal over again.
final class RawTerminal {
    /// The terminal read from, standard input.
    let input: Int32
    /// The terminal written to, standard output.
    let output: Int32
    private let original: termios
    /// Whether the terminal is taken over now.
    private(set) var isActive = false
    /// The `errno` of the first failed write (the terminal went away); later writes are dropped.
    private(set) var writeFailure: Int32?

    /// What ``enter()`` writes: the alternate screen, cursor hidden, autowrap off, the screen cleared.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[H\u{1B}[2J"
    /// What ``leave()`` writes: styles reset, autowrap on, the main screen back, the cursor shown.
    static let leaveSequence = "\u{1B}[0m\u{1B}[?7h\u{1B}[?1049l\u{1B}[?25h"

    /// Takes note of the terminal's attributes, to restore them; nothing changes yet.
    /// - Throws: ``SystemCallFailure`` when `input` is not a terminal whose attributes can be read.
    init(input: Int32, output: Int32) throws(SystemCallFailure) {
        self.input = input
        self.output = output
        original = try SystemCalls.terminalAttributes(input).get()
    }

    /// The terminal's size; 80 × 24 when it reports none.
    var size: ScreenSize {
        let size = SystemCalls.terminalSize(output) ?? SystemCalls.terminalSize(input)
        return ScreenSize(columns: size?.columns ?? 80, rows: size?.rows ?? 24)
    }

    /// Puts the terminal in raw mode on the alternate screen. Safe to call again (after SIGCONT, say).
    func enter() {
        var raw = original
        // What cfmakeraw does: bytes pass as typed, eight bits, no echo, no line editing, no signals from keys.
        raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        SystemCalls.setTerminalAttributes(input, raw)
        isActive = true
        write(Self.enterSequence)
    }

    /// Gives the terminal back as it was found. Does nothing when it is not taken over.
    func leave() {
        guard isActive else { return }
        isActive = false
        write(Self.leaveSequence)
        SystemCalls.setTerminalAttributes(input, original)
    }

    /// Writes `text` as it is, escape sequences and all.
    func write(_ text: String) {
        guard writeFailure == nil, !text.isEmpty else { return }
        var text = text
        writeFailure = text.withUTF8 { SystemCalls.writeAll(output, UnsafeRawBufferPointer($0)) }
    }
}
