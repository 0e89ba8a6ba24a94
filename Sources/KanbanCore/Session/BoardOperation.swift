/// Every operation on a board, once: what it does and the library call that does it. The command line, the
/// full-screen board, the page's HTTP API and the MCP tools are adapters over these calls, and each says, for every
/// operation, which of its commands, keys, routes or tools offers it, or why it does not (``OperationAdapter``); a
/// test fails when a surface leaves one out without a reason.
public enum BoardOperation: String, CaseIterable, Sendable {
    case showBoard = "show board"
    case listCards = "list cards"
    case searchCards = "search cards"
    case showCard = "show card"
    case addCard = "add card"
    case editCard = "edit card"
    case moveCard = "move card"
    case archiveCard = "archive card"
    case listArchive = "list archive"
    case unarchiveCard = "unarchive card"
    case deleteCard = "delete card"
    case restoreCard = "restore card"
    case addColumn = "add column"
    case renameColumn = "rename column"
    case collapseColumn = "collapse column"
    case limitColumn = "limit column"
    case moveColumn = "move column"
    case removeColumn = "remove column"
    case addLabel = "add label"
    case editLabel = "edit label"
    case moveLabel = "move label"
    case removeLabel = "remove label"
    case checkBoard = "check board"
    case status = "status"
    case sync = "sync"
    case cardHistory = "card history"
    case report = "report"
    case followChanges = "follow changes"
    case readyCards = "ready cards"
    case claimCard = "claim card"
    case releaseCard = "release card"
    case setDependencies = "set dependencies"
    case exportCards = "export cards"
    case importCards = "import cards"
    case listBoards = "list boards"

    /// The library call that does it; every surface calls it, changing through a ``BoardSession``.
    public var libraryCall: String {
        switch self {
        case .showBoard: "BoardStore.load(_:columns:includeBodies:)"
        case .listCards: "BoardStore.load(_:columns:includeBodies:), CardQuery.matches"
        case .searchCards: "BoardStore.search(_:in:)"
        case .showCard: "BoardStore.card(_:in:), BoardStore.body(of:)"
        case .addCard: "BoardStore.createCard(title:in:labels:body:fields:placement:)"
        case .editCard: "BoardStore.updateCard(_:_:in:)"
        case .moveCard: "BoardStore.moveCard(_:to:placement:)"
        case .archiveCard: "BoardStore.archiveCard(_:)"
        case .listArchive: "BoardStore.load(.archived)"
        case .unarchiveCard: "BoardStore.unarchiveCard(_:to:)"
        case .deleteCard: "BoardStore.deleteCard(_:in:)"
        case .restoreCard: "BoardStore.restoreCard(_:slug:in:)"
        case .addColumn: "BoardStore.addColumn(id:name:at:)"
        case .renameColumn: "BoardStore.renameColumn(_:to:)"
        case .collapseColumn: "BoardStore.setColumnCollapsed(_:_:)"
        case .limitColumn: "BoardStore.setColumnLimit(_:_:), BoardStore.setColumnQueue(_:_:)"
        case .moveColumn: "BoardStore.moveColumn(_:to:)"
        case .removeColumn: "BoardStore.removeColumn(_:movingCardsTo:)"
        case .addLabel: "BoardStore.addLabel(id:name:color:)"
        case .editLabel: "BoardStore.renameLabel(_:to:color:)"
        case .moveLabel: "BoardStore.moveLabel(_:to:)"
        case .removeLabel: "BoardStore.removeLabel(_:strippingCards:)"
        case .checkBoard: "BoardStore.check(), BoardStore.repair()"
        case .status: "GitSyncProvider.status()"
        case .sync: "BoardSession.sync(pushing:onStep:)"
        case .cardHistory: "SyncProvider.history(ofCard:)"
        case .report: "FlowReport(board:cards:options:), FlowForecast(_:options:), FlowCheck(report:board:cards:maxAge:)"
        case .followChanges: "BoardWatchers.make(for:mechanism:options:onNotice:onEvent:)"
        case .readyCards: "BoardStore.workQueue(start:done:), WorkQueue.ready"
        case .claimCard: "BoardSession.claim(_:as:start:done:sharing:)"
        case .releaseCard: "BoardSession.release(_:by:start:done:sharing:)"
        case .setDependencies: "BoardStore.setDependencies(of:adding:removing:)"
        case .exportCards: "BoardStore.load(_:columns:includeBodies:), CSVTable(cards:bodies:)"
        case .importCards: "BoardStore.planImport(_:columnMap:), BoardStore.applyImport(_:columnMap:), ImportedBoard(reading:as:shownAs:)"
        case .listBoards: "BoardDiscovery.boards(under:), BoardDiscovery.boards(inEach:)"
        }
    }
}

/// How a surface offers a ``BoardOperation``.
public enum OperationAdapter: Sendable, Hashable {
    /// By this command, key, route or tool.
    case offered(String)
    /// Not at all, for this reason.
    case absent(because: String)
}
