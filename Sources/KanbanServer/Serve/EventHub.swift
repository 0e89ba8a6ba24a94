import Foundation
import Synchronization

/// Hands every event to every open page: each subscriber has a queue of its own (bounded: a page that stops
/// reading is dropped, and its browser reconnects and reloads the board), which its connection's thread drains.
package final class EventHub: Sendable {
    /// How many events a subscriber may fall behind before it is dropped.
    static let queueLimit = 2048

    private final class Subscriber: Sendable {
        let condition = NSCondition()
        // Guarded by `condition`.
        nonisolated(unsafe) var queue: [[UInt8]] = []
        nonisolated(unsafe) var isClosed = false
    }

    private let subscribers = Mutex<[ObjectIdentifier: Subscriber]>([:])
    private let isStopped = Atomic<Bool>(false)
    /// How long a stream waits for an event before it sends a comment to keep the connection (and proxies) alive.
    let heartbeat: TimeInterval

    package init(heartbeat: TimeInterval = 15) {
        self.heartbeat = heartbeat
    }

    /// The number of open streams.
    var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Sends `data` (one JSON object) to every subscriber as one event.
    package func publish(_ data: String) {
        let chunk = Array(("data: " + data.replacingOccurrences(of: "\n", with: "\ndata: ") + "\n\n").utf8)
        for subscriber in subscribers.withLock({ Array($0.values) }) {
            subscriber.condition.lock()
            if subscriber.queue.count >= Self.queueLimit {
                subscriber.isClosed = true
            } else {
                subscriber.queue.append(chunk)
            }
            subscriber.condition.signal()
            subscriber.condition.unlock()
        }
    }

    /// A new stream for one page: it starts with a comment (so the browser knows it is open), then carries every event
    /// published from now on.
    func subscribe() -> HTTPEventStream {
        let subscriber = Subscriber()
        subscriber.queue.append(Array(": connected\nretry: 1000\n\n".utf8))
        let key = ObjectIdentifier(subscriber)
        subscribers.withLock { $0[key] = subscriber }
        if isStopped.load(ordering: .acquiring) { subscriber.isClosed = true }
        let heartbeat = self.heartbeat
        return HTTPEventStream(
            next: {
                subscriber.condition.lock()
                defer { subscriber.condition.unlock() }
                let deadline = Date(timeIntervalSinceNow: heartbeat)
                while subscriber.queue.isEmpty && !subscriber.isClosed {
                    if !subscriber.condition.wait(until: deadline) { return Array(": keep-alive\n\n".utf8) }
                }
                if subscriber.isClosed { return nil }
                return subscriber.queue.removeFirst()
            },
            finish: { [weak self] in
                self?.subscribers.withLock { _ = $0.removeValue(forKey: key) }
            })
    }

    /// Ends every stream; new ones end at once.
    package func stop() {
        isStopped.store(true, ordering: .releasing)
        for subscriber in subscribers.withLock({ Array($0.values) }) {
            subscriber.condition.lock()
            subscriber.isClosed = true
            subscriber.condition.broadcast()
            subscriber.condition.unlock()
        }
    }
}
