import Foundation
import KanbanCore
import KanbanWatch
import Testing

@testable import kanban

/// The sample board's store and its board as `kanban tui` holds it.
func liveBoard(of board: TemporaryBoard) throws -> (BoardStore, LiveBoard) {
    let store = try BoardStore(directory: board.path)
    return (store, LiveBoard(snapshot: try store.load()))
}

/// The context `kanban --board <board> tui` runs with, in `environment`.
func tuiContext(for board: TemporaryBoard, environment: [String: String] = [:]) throws -> CommandContext {
    guard case .run(let arguments) = try CommandDispatcher(root: KanbanTool.root).dispatch(["--board", board.path, "tui"]) else {
        throw CommandFailure(message: "kanban tui did not parse")
    }
    return try CommandContext(arguments: arguments, environment: environment)
}

extension LiveBoard {
    /// The slugs of a column's cards, in order.
    func slugs(_ column: String) -> [String] {
        columnIndex(ofID: column).map { columns[$0].cards.map(\.slug) } ?? []
    }
}
