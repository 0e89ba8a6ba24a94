import Foundation

/// What importing an ``ImportedBoard`` into a board does, worked out from the board as it is before anything is
/// written: the columns and labels it declares, and for each card of the source whether it is created, updated (and
/// what changes) or already as the source has it.
///
/// ``BoardStore/planImport(_:columnMap:)`` makes one to show (a dry run); ``BoardStore/applyImport(_:columnMap:)``
/// makes it again under the board's lock and writes it, all or nothing.
public struct ImportPlan: Sendable, Equatable {
    /// How a column of the source lands on the board.
    public struct ColumnMapping: Sendable, Hashable {
        /// The source's name for it.
        public var source: String
        /// The board's column id.
        public var id: String
        /// Whether the import declares the column.
        public var isNew: Bool
    }

    /// How a label of the source lands on the board.
    public struct LabelMapping: Sendable, Hashable {
        /// The source's name for it.
        public var source: String
        /// The board's label.
        public var label: Label
        /// Whether the import declares the label.
        public var isNew: Bool
    }

    /// What happens to one card of the source.
    public struct Step: Sendable, Equatable {
        /// What is done.
        public enum Action: String, Sendable, Hashable {
            /// A new card file is written.
            case create
            /// The card made by an earlier import changes (``Step/changes`` says what).
            case update
            /// The card is as the source has it: nothing is written.
            case unchanged
        }

        /// What is done.
        public var action: Action
        /// The card's id in the source (nil for this tool's exports, known by slug).
        public var sourceID: String?
        /// The card's slug on the board.
        public var slug: String
        /// Its title.
        public var title: String
        /// Its column id.
        public var column: String
        /// Whether it is (or goes) in `archive/`.
        public var isArchived: Bool
        /// For an update, what changes: `title`, `labels`, `body`, `column`, `position`, `archived`, or a field's key.
        public var changes: [String]
        /// The card's file after the import, relative to the board.
        public var path: String

        /// The files written and removed (a card archived, brought back or moved between columns has both).
        var files: [BoardTransaction.Step] = []

        init(action: Action, sourceID: String?, slug: String, title: String, column: String, isArchived: Bool,
             changes: [String] = [], path: String) {
            self.action = action
            self.sourceID = sourceID
            self.slug = slug
            self.title = title
            self.column = column
            self.isArchived = isArchived
            self.changes = changes
            self.path = path
        }
    }

    /// The source's format.
    public var format: ImportFormat
    /// Each column of the source, in its order, and the board column it lands in.
    public var columns: [ColumnMapping]
    /// Each label of the source and the board label it becomes.
    public var labels: [LabelMapping]
    /// Each card of the source, in the source's order.
    public var steps: [Step]
    /// The new `board.md`, when the import declares columns or labels.
    var boardFile: BoardTransaction.Step?

    /// How many cards the import creates.
    public var createdCount: Int { steps.count { $0.action == .create } }
    /// How many cards it changes.
    public var updatedCount: Int { steps.count { $0.action == .update } }
    /// How many cards are already as the source has them.
    public var unchangedCount: Int { steps.count { $0.action == .unchanged } }
    /// Whether applying the plan writes nothing.
    public var isEmpty: Bool {
        boardFile == nil && !steps.contains { $0.action != .unchanged } && !columns.contains(where: \.isNew)
    }
}
