/// How to insert a card into a column: the new card's key and the neighbours whose keys must be rewritten.
///
/// Made by ``OrderKey/plan(insertingAt:into:)``. Applying it touches `1 + rekeyed.count` files.
public struct OrderKeyPlan: Sendable, Equatable {
    /// The inserted card's key.
    public var key: String

    /// The neighbours to rewrite, in index order; empty when the new key fits on its own.
    public var rekeyed: [Rekey]

    /// A neighbour's new key.
    public struct Rekey: Sendable, Equatable {
        /// The neighbour's index in the keys the plan was made from.
        public var index: Int

        /// The neighbour's new key.
        public var key: String

        /// A neighbour at `index` that gets `key`.
        public init(index: Int, key: String) {
            self.index = index
            self.key = key
        }
    }

    /// A plan that writes `key` for the new card and rewrites `rekeyed`.
    public init(key: String, rekeyed: [Rekey] = []) {
        self.key = key
        self.rekeyed = rekeyed
    }
}
