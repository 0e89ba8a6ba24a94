/// A malformed command line: what is wrong, where, and how to get it right.
///
/// A person sees it on standard error, and the process exits with `ExitCode.usage`:
/// ```
/// error: unknown option '--colum'
/// Did you mean '--column'?
/// Usage: kanban list [--column <id>]... [--label <id>]... [--archived | --all] [--json]
///   See 'kanban list --help'.
/// ```
/// Commands make their own with `ParsedArguments.usageError(_:suggestion:)`, which fills
/// in the command path and usage.
struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, as a sentence fragment without a trailing period:
    /// `unknown option '--colum'`.
    var message: String

    /// The command the error is about, from the root: `["kanban", "list"]`.
    var commandPath: [String]

    /// The name probably meant, quoted as "Did you mean '...'?": `--column`, `list`.
    var suggestion: String?

    /// The command's usage, the text after `Usage: `; one form per line.
    var usage: String?

    /// Creates a usage error.
    init(_ message: String, commandPath: [String], suggestion: String? = nil, usage: String? = nil) {
        self.message = message
        self.commandPath = commandPath
        self.suggestion = suggestion
        self.usage = usage
    }

    /// The error as a person sees it, with the usage wrapped to `width` columns and
    /// `Error:` styled by `stylist`; ends with a newline.
    func rendered(width: Int = Terminal.defaultWidth, stylist: Stylist = .plain) -> String {
        var text = stylist.apply(.bold + .red, to: "error:") + " " + message + "\n"
        if let suggestion {
            text += "Did you mean '\(suggestion)'?\n"
        }
        if let usage {
            text +=
                HelpFormatter.labelledBlock(label: "Usage:", text: usage, width: width)
                .joined(separator: "\n") + "\n"
        }
        text += "  See '\(commandPath.joined(separator: " ")) --help'.\n"
        return text
    }

    /// The rendered error at 80 columns, without styling.
    var description: String { rendered() }
}
