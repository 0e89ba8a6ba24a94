import KanbanCore

/// The seeded generator of KanbanCore (SplitMix64), so that a failing run of a generated test replays from its seed.
public typealias SeededGenerator = KanbanCore.SeededGenerator
