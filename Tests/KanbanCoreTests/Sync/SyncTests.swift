import Testing

/// The tests of `Sources/KanbanCore/Sync`, grouped so that `--filter Sync` runs them all.
@Suite struct SyncTests {}
