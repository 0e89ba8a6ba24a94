import KanbanCore

/// Output of many similar lines (a listing of a hundred thousand cards), made on every core a run of items at a
/// time and written in order.
enum ChunkedText {
    /// Writes `text(range)` for consecutive runs of `0..<count`, in order.
    static func write(count: Int, to output: BufferedOutput, _ text: @Sendable (Range<Int>) -> String) {
        let size = 2_048
        let ranges = stride(from: 0, to: count, by: size).map { $0..<min(count, $0 + size) }
        for piece in ParallelMap.map(ranges, minimumChunk: 1, text) {
            output.write(piece)
        }
    }
}
