import Dispatch
import Foundation
import Synchronization

/// Maps a collection on every core, keeping the order.
package enum ParallelMap {
    package static func map<T: Sendable, R: Sendable>(_ items: [T], minimumChunk: Int = 64, _ transform: @Sendable (T) -> R) -> [R] {
        if items.count < minimumChunk * 2 { return items.map(transform) }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let chunkCount = min(items.count / minimumChunk, workers * 8)
        let chunkSize = (items.count + chunkCount - 1) / chunkCount
        let results = Mutex<[[R]]>(Array(repeating: [], count: chunkCount))
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let start = chunk * chunkSize
            let end = min(items.count, start + chunkSize)
            guard start < end else { return }
            let mapped = items[start..<end].map(transform)
            results.withLock { $0[chunk] = mapped }
        }
        return results.withLock { $0.flatMap { $0 } }
    }
}
