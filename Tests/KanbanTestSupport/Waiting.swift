import Foundation

/// Waits until `condition` holds, asking every `interval`, for at most `timeout` (generous: tests wait on conditions,
/// never on a fixed time, and a loaded machine only makes them slower). Returns whether it held.
public func waitUntil(timeout: Duration = .seconds(30), interval: Duration = .milliseconds(10), _ condition: () throws -> Bool) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        if try condition() { return true }
        if clock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
    }
}
