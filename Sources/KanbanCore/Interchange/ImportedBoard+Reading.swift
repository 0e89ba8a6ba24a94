import Foundation

extension ImportFormat {
    /// The source's name as people know it: `Trello`, `GitHub`, `Backlog.md`.
    public var displayName: String {
        switch self {
        case .trello: "Trello"
        case .github: "GitHub"
        case .backlog: "Backlog.md"
        case .obsidian: "Obsidian Kanban"
        case .csv: "CSV"
        case .json: "JSON"
        }
    }
}

extension ImportedBoard {
    /// The most bytes an export may have (a folder's files together): larger ones are refused before they are read.
    public static let largestSource = CSVTable.largestFile

    /// Reads the export at `path` (a file; for ``ImportFormat/backlog``, the project's folder) as `format`.
    /// - Parameter shownAs: How errors name the file (the path as the user gave it).
    /// - Throws: ``KanbanError`` naming the file: one that cannot be read, is not a regular file, is over
    ///   ``largestSource``, or is not what `format` expects.
    public init(reading path: String, as format: ImportFormat, shownAs: String) throws(KanbanError) {
        if format == .backlog {
            self = try ImportedBoard(backlog: try Self.backlogFiles(in: path, shownAs: shownAs), folder: shownAs)
            return
        }
        guard !FileSystem.isDirectory(path) else {
            throw KanbanError(.invalidArgument, "is a folder; \(format.displayName) exports are one file", at: SourceLocation(path: shownAs))
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, atMost: Self.largestSource, what: "the \(format.displayName) export")
        } catch {
            var named = error
            if named.location?.path == path { named.location?.path = shownAs }
            named.message = named.message.replacingOccurrences(of: path, with: shownAs)
            throw named
        }
        switch format {
        case .trello: self = try ImportedBoard(trello: bytes, path: shownAs)
        case .github: self = try ImportedBoard(github: bytes, path: shownAs)
        case .obsidian: self = try ImportedBoard(obsidian: bytes, path: shownAs)
        case .csv: self = try ImportedBoard(csv: bytes, path: shownAs)
        case .json: self = try ImportedBoard(json: bytes, path: shownAs)
        case .backlog: preconditionFailure("read above")
        }
    }

    /// The files of a Backlog.md project that the importer reads: `config.yml` and the markdown files of `tasks/`,
    /// `completed/` and `archive/tasks/`, from `directory` or its `backlog` folder. Links are not followed out of the
    /// folders, and together the files may hold at most ``largestSource`` bytes.
    static func backlogFiles(in directory: String, shownAs: String) throws(KanbanError) -> [ImportFile] {
        guard FileSystem.isDirectory(directory) else {
            throw KanbanError(.invalidArgument, "is not a folder; give a Backlog.md project's folder (the one holding backlog/)",
                              at: SourceLocation(path: shownAs))
        }
        var root = directory
        var shownRoot = shownAs
        if FileSystem.isDirectory(directory + "/backlog") {
            root += "/backlog"
            shownRoot = (shownAs as NSString).appendingPathComponent("backlog")
        }
        var files: [ImportFile] = []
        var total = 0
        func add(_ relative: String) throws(KanbanError) {
            let shown = (shownRoot as NSString).appendingPathComponent(relative)
            guard FileSystem.kind(of: root + "/" + relative) == .file else { return }
            let bytes = try FileSystem.readFile(root + "/" + relative, atMost: Self.largestSource - total, what: "the Backlog.md project")
            total += bytes.count
            files.append(ImportFile(path: relative, shownPath: shown, bytes: bytes))
        }
        try add("config.yml")
        for folder in ["tasks", "completed", "archive/tasks"] {
            guard FileSystem.kind(of: root + "/" + folder) == .directory else { continue }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
            for name in names.sorted() where name.hasSuffix(".md") && !name.hasPrefix(".") { try add(folder + "/" + name) }
        }
        guard files.contains(where: { $0.path.hasSuffix(".md") }) else {
            throw KanbanError(.invalidArgument, "holds no Backlog.md tasks (no backlog/tasks/*.md)", at: SourceLocation(path: shownAs))
        }
        return files
    }
}

extension BoardStore {
    /// The board an import into an empty directory makes: titled `title`, with the source's columns (as `columnMap`
    /// maps them; one `To Do` column when the source has none) and no labels (the import declares them).
    public static func board(for source: ImportedBoard, title: String, columnMap: [String: String] = [:]) throws(KanbanError) -> Board {
        var board = Board(title: title, columns: [])
        _ = try mapColumns(of: source, into: &board, columnMap: columnMap)
        if board.columns.isEmpty { board.columns = [Column(id: "todo", name: "To Do")] }
        return board
    }
}
