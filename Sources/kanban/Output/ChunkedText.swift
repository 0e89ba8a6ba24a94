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
            pending.withLock { state in
                state.pieces[index] = piece
                // Whoever completes the next piece in order writes every piece that is ready from there.
                while state.next < state.pieces.count, let ready = state.pieces[state.next] {
                    write(ready)
                    state.pieces[state.next] = nil
                    state.next += 1
                }
            }
        }
    }

    private struct Pending<Piece> {
        var pieces: [Piece?]
        var next = 0
    }
}
