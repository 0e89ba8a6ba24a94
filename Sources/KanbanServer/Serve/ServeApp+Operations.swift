import KanbanCore

extension ServeApp {
    /// The route of each board operation (``BoardOperation``) the page uses, or why there is none.
    package static let operations: [BoardOperation: OperationAdapter] = [
        .showBoard: .offered("GET /api/board"),
        .listCards: .offered("GET /api/board"),
        .searchCards: .offered("GET /api/search"),
        .showCard: .offered("GET /api/cards/:card"),
        .addCard: .offered("POST /api/cards"),
        .editCard: .offered("PATCH /api/cards/:card"),
        .moveCard: .offered("POST /api/cards/:card/move"),
        .archiveCard: .offered("POST /api/cards/:card/archive"),
        .listArchive: .offered("GET /api/archive"),
        .unarchiveCard: .offered("POST /api/cards/:card/unarchive"),
        .deleteCard: .offered("DELETE /api/cards/:card"),
        .restoreCard: .offered("POST /api/cards/restore"),
        .addColumn: .offered("POST /api/columns"),
        .renameColumn: .offered("PATCH /api/columns/:column"),
        .collapseColumn: .offered("PATCH /api/columns/:column"),
        .limitColumn: .offered("PATCH /api/columns/:column"),
        .moveColumn: .offered("POST /api/columns/:column/move"),
        .removeColumn: .offered("DELETE /api/columns/:column"),
        .addLabel: .offered("POST /api/labels"),
        .editLabel: .offered("PATCH /api/labels/:label"),
        .moveLabel: .offered("POST /api/labels/:label/move"),
        .removeLabel: .offered("DELETE /api/labels/:label"),
        .checkBoard: .absent(because: "the board's problems come with GET /api/board ('problems') and are drawn in place; repairs are 'kanban doctor --fix'"),
        .status: .offered("GET /api/status"),
        .sync: .offered("POST /api/sync"),
        .cardHistory: .absent(because: "not on the page yet: 'kanban log CARD'"),
        .report: .offered("GET /report"),
        .followChanges: .offered("GET /api/events"),
        .readyCards: .offered("GET /api/board"),
        .claimCard: .absent(because: "claims are how agents share work ('kanban claim', the MCP tool claim_card); the page shows who holds each card"),
        .releaseCard: .absent(because: "claims are how agents share work ('kanban release', the MCP tool release_card)"),
        .setDependencies: .absent(because: "the page shows what each card waits for and blocks; 'kanban depend' changes it"),
    ]
}
