import Foundation
import KanbanCore
import KanbanServer

/// Options several commands share, declared once.
enum CommonOptions {
    static let json = OptionSpec.flag("json", help: "Print JSON (documented in docs/json.md) instead of text.")
    static let top = OptionSpec.flag("top", help: "Place at the top of the column.")
    static let bottom = OptionSpec.flag("bottom", help: "Place at the bottom of the column.")
    static let before = OptionSpec.option("before", valueName: "card", help: "Place just before this card.")
    static let after = OptionSpec.option("after", valueName: "card", help: "Place just after this card.")
    static let placement = [top, bottom, before, after]
    static let placementGroup = ["top", "bottom", "before", "after"]
    static let strictLimits = OptionSpec.flag("strict", help: "Refuse to put a column over its WIP limit (by default: a warning).")
}

extension ParsedArguments {
    /// The placement the options ask for, if any.
    func placement(_ context: CommandContext) throws -> Placement? {
        switch try exclusiveOption(among: CommonOptions.placementGroup) {
        case "top": return .top
        case "bottom": return .bottom
        case "before": return value("before").map { .before(context.cardReference($0)) }
        case "after": return value("after").map { .after(context.cardReference($0)) }
        default: return nil
        }
    }
}

enum BodyInput {
    /// The body from `--body TEXT`, `--body-file FILE` (`-` for standard input) or a `-` argument.
    static func read(text: String?, file: String?, standardInput: Bool, context: CommandContext) throws -> String? {
        if let text { return text }
        if file == "-" || standardInput { return try readStandardInput() }
        if let file {
            let path = context.absolute(file)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure(message: "cannot read body file '\(file)': \(whyUnreadable(path))")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw CommandFailure(message: "body file '\(file)' is not UTF-8 text")
            }
            return text
        }
        return nil
    }

    static func readStandardInput() throws -> String {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(message: "standard input is not UTF-8 text")
        }
        return text
    }

    /// Why the file at `path` cannot be read, as the system says it: `No such file or directory`.
    private static func whyUnreadable(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        if info.st_mode & S_IFMT == S_IFDIR { return String(cString: strerror(EISDIR)) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        close(descriptor)
        return "it could not be read"
    }
}
