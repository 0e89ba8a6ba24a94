#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A directory tree read straight from the disk, never through kanban: every regular file's bytes, every symbolic
/// link's target and every directory, by path relative to the tree's root (`cards/todo/a.md`).
///
/// The crash and stress adversaries judge a board by these files alone, so a bug in kanban's own reading cannot
/// hide a bug in its writing.
struct BoardFiles: Equatable, Sendable {
    /// Regular files and links (a link's entry is `symbolic link -> target`).
    var files: [String: [UInt8]] = [:]
    var directories: Set<String> = []

    /// Reads every entry under `root`, leaving out the relative paths in `excluding` (and all beneath them).
    /// A root that does not exist reads as an empty tree.
    init(reading root: String, excluding: Set<String> = []) throws {
        try read(root, relative: "", excluding: excluding)
    }

    init() {}

    private mutating func read(_ directory: String, relative: String, excluding: Set<String>) throws {
        guard let stream = opendir(directory) else {
            if errno == ENOENT && relative.isEmpty { return }
            throw HarnessError(message: "cannot list \(directory): \(String(cString: strerror(errno)))")
        }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(stream)
        for name in names.sorted() {
            let path = relative.isEmpty ? name : relative + "/" + name
            guard !excluding.contains(path) else { continue }
            let full = directory + "/" + name
            var status = stat()
            guard lstat(full, &status) == 0 else { throw HarnessError(message: "cannot stat \(full): \(String(cString: strerror(errno)))") }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                directories.insert(path)
                try read(full, relative: path, excluding: excluding)
            case S_IFLNK:
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?"
                files[path] = Array("symbolic link -> \(target)".utf8)
            case S_IFREG:
                guard let data = FileManager.default.contents(atPath: full) else { throw HarnessError(message: "cannot read \(full)") }
                files[path] = Array(data)
            default:
                files[path] = Array("special file".utf8)
            }
        }
    }

    // MARK: What a person would have to clean up

    /// The hidden temporary files kanban writes through (`.<name>.kanban-tmp`) and its journal
    /// (`.kanban-journal`, its temporary file, `.kanban-journal.damaged`), wherever they are.
    var leftovers: [String] {
        files.keys.filter { path in
            let name = (path as NSString).lastPathComponent
            return name.hasSuffix(".kanban-tmp") || name.hasPrefix(".kanban-journal") || name.hasPrefix("..kanban-journal")
        }.sorted()
    }

    // MARK: Cards

    /// The card files: `cards/<column>/<slug>.md` and `archive/<name>.md`.
    var cardPaths: [String] {
        files.keys.filter(BoardFiles.isCardPath).sorted()
    }

    static func isCardPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard path.hasSuffix(".md"), !(parts.last ?? "").hasPrefix(".") else { return false }
        return (parts.count == 3 && parts[0] == "cards") || (parts.count == 2 && parts[0] == "archive")
    }

    /// Each card's identity (its `created:` time and its title, which the adversaries keep distinct) with the
    /// paths that hold it: a card kept exactly once has one path.
    var cardsByIdentity: [String: [String]] {
        var result: [String: [String]] = [:]
        for path in cardPaths {
            result[BoardFiles.identity(of: files[path] ?? [], path: path), default: []].append(path)
        }
        return result
    }

    /// `created|title` from a card's frontmatter; the path itself when the file has no readable frontmatter.
    static func identity(of bytes: [UInt8], path: String) -> String {
        let frontmatter = frontmatterLines(of: bytes)
        guard !frontmatter.isEmpty else { return "unreadable " + path }
        let created = value(of: "created", in: frontmatter) ?? "?"
        let title = value(of: "title", in: frontmatter) ?? "?"
        return created + "|" + title
    }

    /// The lines between the opening `---` and the closing one; empty when there is no frontmatter.
    static func frontmatterLines(of bytes: [UInt8]) -> [Substring] {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard lines.first == "---", let end = lines.dropFirst().firstIndex(of: "---") else { return [] }
        return Array(lines[1..<end])
    }

    /// A top-level scalar's value, without quotes.
    static func value(of key: String, in lines: [Substring]) -> String? {
        guard let line = lines.first(where: { $0.hasPrefix(key + ":") }) else { return nil }
        var value = line.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            value = String(value.dropFirst().dropLast())
        }
        return value
    }

    // MARK: Comparing

    /// The tree with what depends on the clock taken out: the values of `created:` and `modified:` lines become
    /// `*`, and an archived card's date prefix (`archive/2026-11-22-x.md`) becomes `*` too. Empty directories under
    /// the board's own ones are left out: git cannot hold them, kanban makes them on demand, and an empty directory
    /// of an undeclared column is no column to kanban (it shows and reports none). Any other stays.
    func normalized() -> BoardFiles {
        var result = BoardFiles()
        for (path, bytes) in files {
            result.files[BoardFiles.normalizedPath(path)] = BoardFiles.isCardPath(path) ? BoardFiles.normalizedCard(bytes) : bytes
        }
        let parents = Set(files.keys.flatMap(BoardFiles.ancestors) + directories.flatMap(BoardFiles.ancestors))
        for directory in directories where !parents.contains(directory) {
            let parts = directory.split(separator: "/")
            let madeOnDemand = directory == "archive" || directory == "cards" || (parts.count == 2 && parts[0] == "cards")
            if !madeOnDemand { result.directories.insert(directory) }
        }
        return result
    }

    private static func ancestors(of path: String) -> [String] {
        var result: [String] = []
        var current = path
        while let slash = current.lastIndex(of: "/") {
            current = String(current[..<slash])
            result.append(current)
        }
        return result
    }

    private static func normalizedPath(_ path: String) -> String {
        let parts = path.split(separator: "/")
        guard parts.count == 2, parts[0] == "archive" else { return path }
        let name = Array(parts[1].utf8)
        // YYYY-MM-DD-
        let isDated = name.count > 11 && name[4] == UInt8(ascii: "-") && name[7] == UInt8(ascii: "-") && name[10] == UInt8(ascii: "-")
            && [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { name[$0] >= UInt8(ascii: "0") && name[$0] <= UInt8(ascii: "9") }
        return isDated ? "archive/*-" + String(decoding: name[11...], as: UTF8.self) : path
    }

    private static func normalizedCard(_ bytes: [UInt8]) -> [UInt8] {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == "---" || lines.first == "---\r", let end = lines.dropFirst().firstIndex(where: { $0 == "---" || $0 == "---\r" }) else {
            return bytes
        }
        for index in 1..<end where lines[index].hasPrefix("created:") || lines[index].hasPrefix("modified:") {
            lines[index] = String(lines[index].prefix { $0 != ":" }) + ": *"
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// What differs between this tree and `other`, one line per path (`+ path` only here, `- path` only there,
    /// `~ path` different bytes), at most `limit` lines.
    func differences(from other: BoardFiles, limit: Int = 20) -> [String] {
        var lines: [String] = []
        for path in Set(files.keys).union(other.files.keys).sorted() {
            switch (files[path], other.files[path]) {
            case (.some, nil): lines.append("+ \(path)")
            case (nil, .some): lines.append("- \(path)")
            case let (mine?, theirs?) where mine != theirs: lines.append("~ \(path)")
            default: break
            }
        }
        for directory in directories.symmetricDifference(other.directories).sorted() {
            lines.append("\(directories.contains(directory) ? "+" : "-") \(directory)/ (empty directory)")
        }
        return lines.count > limit ? Array(lines.prefix(limit)) + ["... \(lines.count - limit) more"] : lines
    }

    /// Every path with its size, directories marked with `/`: what a failure report shows.
    var listing: String {
        let entries = files.map { ($0.key, "\($0.key)  (\($0.value.count) bytes)") } + directories.map { ($0, $0 + "/") }
        return entries.sorted { $0.0 < $1.0 }.map { "    " + $0.1 }.joined(separator: "\n")
    }

    // MARK: Copying

    /// Copies the tree at `source` to `destination` (which must not exist) with `cp -a`: modes, links and
    /// hidden files included.
    static func copy(_ source: String, to destination: String) throws {
        let outcome = try BoardProcesses.run("/bin/cp", ["-a", source, destination], in: "/", environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        guard outcome.succeeded else { throw HarnessError(message: "cannot copy \(source) to \(destination): \(outcome)") }
    }

    /// Removes a tree, ignoring one that is not there.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
