import Dispatch
import Foundation
import Synchronization

/// Output of many similar lines (a listing of a hundred thousand cards), made on every core a run of items at a
/// time and written in order as soon as each run and those before it are ready, so that writing overlaps making.
enum ChunkedText {
    /// Writes `text(range)` for consecutive runs of `0..<count`, in order.
    static func write(count: Int, to output: BufferedOutput, _ text: @Sendable (Range<Int>) -> String) {
        let size = 2_048
        let ranges = stride(from: 0, to: count, by: size).map { $0..<min(count, $0 + size) }
        guard ranges.count > 1 else {
            for range in ranges { output.write(text(range)) }
            return
        }
        let pending = Mutex(Pending(pieces: Array(repeating: nil, count: ranges.count)))
        DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
            let piece = text(ranges[index])
            pending.withLock { state in
                state.pieces[index] = piece
                // Whoever completes the next piece in order writes every piece that is ready from there.
                while state.next < state.pieces.count, let ready = state.pieces[state.next] {
                    output.write(ready)
                    state.pieces[state.next] = nil
                    state.next += 1
                }
            }
        }
    }

    private struct Pending {
        var pieces: [String?]
        var next = 0
    }
}
