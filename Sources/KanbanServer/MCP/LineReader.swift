import Foundation

/// Reads newline-delimited messages from a file descriptor, never holding more than a bounded amount: a line longer
/// than ``limit`` is read past and dropped as it comes, and reported as ``Line/tooLong(_:)`` once its end is reached.
package struct LineReader {
    /// What one read gave.
    package enum Line: Equatable {
        /// A line's bytes without its `\n` (and without a `\r` before it).
        case line([UInt8])
        /// A line of this many bytes or more was dropped.
        case tooLong(Int)
        /// The input ended (or failed); a last line without `\n` was returned before this.
        case end
    }

    /// The most bytes a line may have.
    let limit: Int
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Where the unread part of ``buffer`` starts.
    private var start = 0
    /// Where the search for the next newline goes on from: the bytes before it hold none.
    private var scanned = 0
    /// Bytes of an over-long line dropped so far, while its end is awaited.
    private var dropping: Int?
    private var isAtEnd = false

    /// - Parameters:
    ///   - descriptor: Where to read from (standard input for `kanban mcp`); not closed here.
    ///   - limit: The longest line accepted, in bytes.
    package init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    /// The next line; blocks until one is complete or the input ends.
    package mutating func next() -> Line {
        while true {
            if let newline = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - start
                defer {
                    start = newline + 1
                    scanned = start
                }
                if let dropped = dropping {
                    dropping = nil
                    return .tooLong(dropped + length)
                }
                if length > limit { return .tooLong(length) }
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                return .line(Array(buffer[start..<end]))
            }
            // No complete line: what is buffered is one line's beginning.
            scanned = buffer.count
            let pending = buffer.count - start
            if pending > limit || dropping != nil {
                dropping = (dropping ?? 0) + pending
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
            } else if start > 0 {
                buffer.removeFirst(start)
                scanned -= start
                start = 0
            }
            if isAtEnd {
                if let dropped = dropping {
                    dropping = nil
                    return .tooLong(dropped)
                }
                guard !buffer.isEmpty else { return .end }
                var last = buffer
                buffer.removeAll()
                scanned = 0
                if last.last == UInt8(ascii: "\r") { last.removeLast() }
                return .line(last)
            }
            if !fill() { isAtEnd = true }
        }
    }

    /// Appends what one read gives; false at the end of input or on a read error. A descriptor some parent left
    /// non-blocking is waited on rather than taken for ended.
    private mutating func fill() -> Bool {
        while true {
            switch SystemCalls.readAvailable(descriptor, limit: 65_536) {
            case .success(let bytes):
                guard !bytes.isEmpty else { return false }
                buffer.append(contentsOf: bytes)
                return true
            case .failure(let failure) where failure.code == EAGAIN || failure.code == EWOULDBLOCK:
                guard case .success = SystemCalls.waitForInput([descriptor], milliseconds: -1) else { return false }
            case .failure:
                return false
            }
        }
    }
}
