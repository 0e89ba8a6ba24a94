/// A section of a command's help beyond the standard ones, laid out as the options are: a title such as `KEYS:`,
/// then rows of a label and its help, the help aligned in a column.
struct HelpSection: Hashable, Sendable {
    /// One row: what is described, and what it does.
    struct Row: Hashable, Sendable {
        var label: String
        var help: String

        init(_ label: String, _ help: String) {
            self.label = label
            self.help = help
        }
    }

    /// The title, with its colon: `KEYS:`.
    var title: String
    var rows: [Row]

    init(title: String, rows: [Row]) {
        self.title = title
        self.rows = rows
    }
}
