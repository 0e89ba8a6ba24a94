// The importers being written on the `importers` branch; this file goes when they land.
extension ImportedBoard {
    init(trello bytes: [UInt8], path: String) throws(KanbanError) { throw KanbanError(.invalidArgument, "trello: not yet") }
    init(github bytes: [UInt8], path: String) throws(KanbanError) { throw KanbanError(.invalidArgument, "github: not yet") }
    init(obsidian bytes: [UInt8], path: String) throws(KanbanError) { throw KanbanError(.invalidArgument, "obsidian: not yet") }
    init(backlog files: [ImportFile], folder: String) throws(KanbanError) { throw KanbanError(.invalidArgument, "backlog: not yet") }
}
