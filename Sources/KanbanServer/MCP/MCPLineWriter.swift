import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes protocol messages to a descriptor, one compact JSON line each, whole lines only, from any thread; nothing
/// else is ever written there.
package final class MCPLineWriter: Sendable {
    private let descriptor: Int32
    /// The `errno` of the write that failed (the client went away); nothing is written after it.
    private let failure = Mutex<Int32?>(nil)
    private let onFailure: @Sendable () -> Void

    package init(descriptor: Int32, onFailure: @escaping @Sendable () -> Void = {}) {
        self.descriptor = descriptor
        self.onFailure = onFailure
    }

    package func send(_ message: JSON) {
        let line = Array((message.rendered(pretty: false) + "\n").utf8)
        let failed = failure.withLock { failure -> Bool in
            guard failure == nil else { return false }
            failure = line.withUnsafeBytes { SystemCalls.writeAll(descriptor, $0) }
            return failure != nil
        }
        if failed { onFailure() }
    }
}
