import KanbanCore

extension KanbanTool {
    /// The command of each board operation (``BoardOperation``), or why there is none.
    static let operations: [BoardOperation: OperationAdapter] = [
        .showBoard: .offered("kanban board"),
        .listCards: .offered("kanban list"),
        .searchCards: .offered("kanban search"),
        .showCard: .offered("kanban show"),
        .addCard: .offered("kanban add"),
        .editCard: .offered("kanban set"),
        .moveCard: .offered("kanban move"),
        .archiveCard: .offered("kanban archive"),
        .listArchive: .offered("kanban list --archived"),
        .unarchiveCard: .offered("kanban unarchive"),
        .deleteCard: .offered("kanban delete"),
        .restoreCard: .absent(because: "a deleted card comes back from git ('git restore' of its file); the full-screen board and the page undo their own deletes"),
        .addColumn: .offered("kanban column add"),
        .renameColumn: .offered("kanban column rename"),
        .collapseColumn: .offered("kanban column collapse"),
        .limitColumn: .offered("kanban column limit"),
        .moveColumn: .offered("kanban column move"),
        .removeColumn: .offered("kanban column remove"),
        .addLabel: .offered("kanban label add"),
        .editLabel: .offered("kanban label rename"),
        .moveLabel: .offered("kanban label move"),
        .removeLabel: .offered("kanban label remove"),
        .checkBoard: .offered("kanban doctor"),
        .status: .offered("kanban status"),
        .sync: .offered("kanban sync"),
        .cardHistory: .offered("kanban log"),
        .report: .offered("kanban report"),
        .followChanges: .offered("kanban watch"),
        .readyCards: .offered("kanban ready"),
        .claimCard: .offered("kanban claim"),
        .releaseCard: .offered("kanban release"),
        .setDependencies: .offered("kanban depend"),
    ]
}
