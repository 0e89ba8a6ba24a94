// The Backlog.md importer being written on the `importers` branch; this file goes when it lands.
extension ImportedBoard {
    init(backlog files: [ImportFile], folder: String) throws(KanbanError) { throw KanbanError(.invalidArgument, "backlog: not yet") }
}
