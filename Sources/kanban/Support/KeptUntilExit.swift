import Synchronization

/// Values a command has finished with but leaves for the process's exit to reclaim: freeing a hundred thousand
/// cards one reference at a time takes longer than printing them, and `kanban` exits right after its command.
enum KeptUntilExit {
    private static let values = Mutex<[any Sendable]>([])

    static func keep(_ value: any Sendable) {
        values.withLock { $0.append(value) }
    }
}
