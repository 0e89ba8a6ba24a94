import Dispatch
import Foundation
import Synchronization

/// Output of many similar lines (a listing of a hundred thousand cards), made on every core a run of items at a
/// time and written in order as soon as each run and those before it are ready, so that writing overlaps making.
enum ChunkedText {
    /// Writes `text(range)` for consecutive runs of `0..<count`, in order.
    static func write(count: Int, to output: BufferedOutput, _ text: @Sendable (Range<Int>) -> String) {
        write(count: count, make: text) { output.write($0) }
    }

    /// The same with each run's text as UTF-8 bytes (made without a string, which would check them once more).
    static func write(count: Int, to output: BufferedOutput, bytes: @Sendable (Range<Int>) -> [UInt8]) {
        write(count: count, make: bytes) { output.write(bytes: $0) }
    }

    /// The same with bytes that hold nothing ``VisibleControls`` would change (see ``BufferedOutput/write(safeBytes:)``).
    static func write(count: Int, to output: BufferedOutput, safeBytes: @Sendable (Range<Int>) -> WrittenBytes) {
        write(count: count, make: safeBytes) { output.write(safeBytes: $0.bytes) }
    }

    private static func write<Piece: Sendable>(count: Int, make: @Sendable (Range<Int>) -> Piece, write: @Sendable (Piece) -> Void) {
        let size = 2_048
        let ranges = stride(from: 0, to: count, by: size).map { $0..<min(count, $0 + size) }
        guard ranges.count > 1 else {
            for range in ranges { write(make(range)) }
            return
        }
        let pending = Mutex(Pending<Piece>(pieces: Array(repeating: nil, count: ranges.count)))
        DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
            let piece = make(ranges[index])
            // Whoever completes the next piece in order writes every piece that is ready from there, outside the
            // lock, while the others go on making theirs; pieces finished meanwhile are left for it to write.
            var ready = pending.withLock { state in
                state.pieces[index] = piece
                return state.isWriting ? [] : state.takeReady()
            }
            while !ready.isEmpty {
                for piece in ready { write(piece) }
                ready = pending.withLock { $0.takeReady() }
            }
        }
    }

    private struct Pending<Piece> {
        var pieces: [Piece?]
        var next = 0
        /// Whether a thread is writing pieces (it took them in order, and takes the next ready ones after).
        var isWriting = false

        /// The pieces ready to be written next, in order, taken out; the caller writes them when there are any.
        mutating func takeReady() -> [Piece] {
            var ready: [Piece] = []
            while next < pieces.count, let piece = pieces[next] {
                ready.append(piece)
                pieces[next] = nil
                next += 1
            }
            isWriting = !ready.isEmpty
            return ready
        }
    }
}
