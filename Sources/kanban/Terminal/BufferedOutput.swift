import KanbanServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffered writer to a file descriptor, safe to share between threads.
///
/// Use the shared `standardOutput` and `standardError`; both are flushed when the process
/// exits through `exit(_:)` or by returning from the top-level code. Writing to standard
/// error first flushes standard output, so the two keep their order on one terminal.
/// Output to a terminal is flushed at each newline; other output when the buffer fills.
///
/// ```swift
/// let output = BufferedOutput.standardOutput
/// output.writeLine("Moved 3 cards.")
/// output.flush()  // only needed mid-run, for streaming output such as `watch`
/// ```
final class BufferedOutput: Sendable {
    /// The file descriptor written to.
    let descriptor: Int32

    /// Whether each write that contains a newline is flushed at once.
    let isLineBuffered: Bool

    private let capacity: Int
    private let flushesBeforeWriting: BufferedOutput?
    private let state = Mutex(State())

    private struct State: ~Copyable {
        var buffer: [UInt8] = []
        var failure: Int32?
        /// Whether our own colour sequences are written (see ``VisibleControls``).
        var keepsStyles = false
    }

    /// Says whether colour is on for this stream, so that our own colour sequences pass ``write(_:)`` and every
    /// other control character is shown visibly.
    func keepStyles(_ keeps: Bool) {
        state.withLock { $0.keepsStyles = keeps }
    }

    /// Creates a writer for `descriptor`.
    ///
    /// - Parameters:
    ///   - descriptor: An open file descriptor; the writer does not close it.
    ///   - isLineBuffered: Flush after each write containing a newline.
    ///   - capacity: The buffered byte count that triggers a flush.
    ///   - flushesBeforeWriting: Another writer to flush before each write to this one.
    init(
        descriptor: Int32,
        isLineBuffered: Bool,
        capacity: Int = 64 * 1024,
        flushesBeforeWriting: BufferedOutput? = nil
    ) {
        self.descriptor = descriptor
        self.isLineBuffered = isLineBuffered
        self.capacity = max(capacity, 1)
        self.flushesBeforeWriting = flushesBeforeWriting
    }

    /// The process's standard output.
    static let standardOutput: BufferedOutput = {
        _ = registerExitFlush
        return BufferedOutput(
            descriptor: STDOUT_FILENO, isLineBuffered: Terminal.isTerminal(STDOUT_FILENO))
    }()

    /// The process's standard error; writing to it flushes standard output first, and each
    /// write is flushed at once.
    static let standardError: BufferedOutput = {
        _ = registerExitFlush
        return BufferedOutput(
            descriptor: STDERR_FILENO, isLineBuffered: true, capacity: 1,
            flushesBeforeWriting: standardOutput)
    }()

    private static let registerExitFlush: Void = {
        atexit {
            BufferedOutput.flushStandardStreams()
        }
    }()

    /// Flushes standard output and standard error.
    static func flushStandardStreams() {
        standardOutput.flush()
        standardError.flush()
    }

    /// Appends `text` to the buffer, flushing as the buffering mode asks. Control characters in it are shown
    /// visibly (`^[`), never sent to the terminal as they are: see ``VisibleControls``.
    func write(_ text: String) {
        write(text, raw: false)
    }

    /// Appends `text` exactly as it is, control characters and all (`kanban show --raw` into a pipe).
    func writeRaw(_ text: String) {
        write(text, raw: true)
    }

    /// Appends UTF-8 `bytes` as ``write(_:)`` appends a string's.
    func write(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0, raw: false) }
    }

    /// Appends UTF-8 `bytes` that hold nothing ``VisibleControls`` would change, without looking for it again: JSON
    /// made by ``JSON/quote(_:into:)`` (which escapes every control character) and fixed text. Debug builds check.
    func write(safeBytes bytes: UnsafeBufferPointer<UInt8>) {
        assert(!VisibleControls.needsEscaping(bytes), "text that needs its controls shown, written as safe")
        write(bytes, raw: true)
    }

    private func write(_ text: String, raw: Bool) {
        var utf8 = text
        utf8.withUTF8 { write($0, raw: raw) }
    }

    private func write(_ bytes: UnsafeBufferPointer<UInt8>, raw: Bool) {
        guard !bytes.isEmpty else { return }
        flushesBeforeWriting?.flush()
        // The look for control characters, the dearest part of a big write, is made before the lock is taken, so
        // that threads writing pieces of one output in turn (``ChunkedText``) do not wait for each other's.
        if !raw && VisibleControls.needsEscaping(bytes) {
            let escaped = VisibleControls.escaped(bytes, keepingStyles: state.withLock { $0.keepsStyles })
            escaped.withUnsafeBufferPointer(append)
        } else {
            append(bytes)
        }
    }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let shouldFlush = state.withLock { state in
            // A piece bigger than the buffer goes out after what is buffered, without being copied into it first.
            if bytes.count >= capacity && state.failure == nil {
                if !state.buffer.isEmpty {
                    state.failure = state.buffer.withUnsafeBytes { SystemCalls.writeAll(descriptor, $0) }
                    state.buffer.removeAll(keepingCapacity: true)
                }
                if state.failure == nil { state.failure = SystemCalls.writeAll(descriptor, UnsafeRawBufferPointer(bytes)) }
                return false
            }
            state.buffer.append(contentsOf: bytes)
            return state.buffer.count >= capacity || (isLineBuffered && bytes.contains(0x0A))
        }
        if shouldFlush { flush() }
    }

    /// Appends `text` and a newline.
    func writeLine(_ text: String = "") {
        write(text + "\n")
    }

    /// Writes everything buffered so far to the descriptor now.
    ///
    /// After a write fails (for example `EPIPE` when the reader went away) later output is
    /// discarded; `failure` tells the `errno`.
    func flush() {
        state.withLock { state in
            guard !state.buffer.isEmpty else { return }
            defer { state.buffer.removeAll(keepingCapacity: true) }
            guard state.failure == nil else { return }
            state.failure = state.buffer.withUnsafeBytes { bytes in
                SystemCalls.writeAll(descriptor, bytes)
            }
        }
    }

    /// The `errno` of the first failed write, if any.
    var failure: Int32? {
        state.withLock { $0.failure }
    }
}
