import KanbanCore

extension MCPTools {
    /// The tool (or method) of each board operation (``BoardOperation``) an agent uses, or why there is none: agents
    /// work on cards; board settings are for people, and every tool listed costs an agent's context.
    package static let operations: [BoardOperation: OperationAdapter] = [
        .showBoard: .offered("board"),
        .listCards: .offered("list_cards"),
        .searchCards: .offered("search_cards"),
        .showCard: .offered("show_card"),
        .addCard: .offered("add_card"),
        .editCard: .offered("update_card"),
        .moveCard: .offered("move_card"),
        .archiveCard: .offered("archive_card"),
        .listArchive: .offered("list_cards"),
        .unarchiveCard: .offered("unarchive_card"),
        .deleteCard: .offered("delete_card"),
        .restoreCard: .absent(because: "an agent's delete is undone from git, as a person's is"),
        .addColumn: .absent(because: "columns are board settings, for people: 'kanban column' or the page"),
        .renameColumn: .absent(because: "columns are board settings, for people: 'kanban column' or the page"),
        .collapseColumn: .absent(because: "collapsing is how a person's view looks; an agent has no view"),
        .limitColumn: .absent(because: "a WIP limit is the team's policy, set by a person; show_board gives each column's limit, and a move over it says so"),
        .moveColumn: .absent(because: "columns are board settings, for people: 'kanban column' or the page"),
        .removeColumn: .absent(because: "columns are board settings, for people: 'kanban column' or the page"),
        .addLabel: .absent(because: "labels are board settings, for people: 'kanban label' or the page; agents put existing labels on cards"),
        .editLabel: .absent(because: "labels are board settings, for people: 'kanban label' or the page"),
        .moveLabel: .absent(because: "labels are board settings, for people: the page"),
        .removeLabel: .absent(because: "labels are board settings, for people: 'kanban label' or the page"),
        .checkBoard: .absent(because: "cards that do not read are named in the board tool's answer; repairs are for 'kanban doctor --fix'"),
        .status: .offered("board_status"),
        .sync: .offered("sync"),
        .cardHistory: .absent(because: "not offered yet: 'kanban log CARD --json'"),
        .report: .absent(because: "not offered yet: 'kanban report --json'"),
        .followChanges: .offered("resources/subscribe"),
        .readyCards: .offered("ready_cards"),
        .claimCard: .offered("claim_card"),
        .releaseCard: .offered("release_card"),
        .setDependencies: .offered("update_card"),
        .exportCards: .absent(because: "list_cards and show_card give an agent the cards; a file format is for people's tools"),
        .importCards: .absent(because: "an import is a person's decision on a file of theirs, made once: 'kanban import'"),
        .listBoards: .offered("boards"),
    ]
}
