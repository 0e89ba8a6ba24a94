import KanbanServer
/// Renders usage lines and help text from `CommandSpec`s.
///
/// The layout is the familiar one of swift-argument-parser tools:
/// ```
/// OVERVIEW: Move cards to another column or place.
///
/// USAGE: kanban move <card>... [<column>] [--top | --bottom]
///
/// ARGUMENTS:
///   <card>                  A slug, a unique slug prefix or a path.
///
/// OPTIONS:
///   --top                   Place at the top of the column.
///   -h, --help              Show help information.
/// ```
/// Labels take the first 26 columns and help text wraps beside them; below 60 columns
/// help text goes under its label instead, indented by 6.
enum HelpFormatter {
    /// The column where help text starts beside its label.
    static let helpColumn = 26

    /// Below this width, help text goes under its label.
    static let narrowWidth = 60

    /// The narrowest layout; a narrower terminal gets lines this long and folds them itself.
    static let minimumWidth = 20

    // MARK: Usage

    /// The usage of the last command in `chain`: its `usage` override, or one generated
    /// from its arguments and options.
    ///
    /// Generated usage lists arguments, then the command's own visible options (each
    /// exclusive group once, as `[--a | --b <x>]`); a command with subcommands lists its
    /// options, then `<subcommand>`. Inherited global options and `--help` are left out.
    ///
    /// - Parameter chain: The commands from the root down to the one described.
    /// - Returns: The text after `USAGE: `, the command path included.
    static func usage(for chain: [CommandSpec]) -> String {
        guard let command = chain.last else { return "" }
        if let usage = command.usage { return usage }

        var parts = chain.map(\.name)
        let visibleOptions = command.options.filter { !$0.isHidden }
        var optionParts: [String] = []
        var groupedNames = Set<String>()
        for option in visibleOptions where !groupedNames.contains(option.name) {
            if let group = command.exclusiveOptions.first(where: { $0.contains(option.name) }) {
                let members = group.compactMap { name in visibleOptions.first { $0.name == name } }
                groupedNames.formUnion(group)
                optionParts.append("[" + members.map(\.usageText).joined(separator: " | ") + "]")
            } else {
                optionParts.append("[\(option.usageText)]" + (option.isRepeatable ? "..." : ""))
            }
        }

        if command.hasSubcommands {
            parts += optionParts
            parts.append(command.defaultSubcommand == nil ? "<subcommand>" : "[<subcommand>]")
        } else {
            parts += command.arguments.map(\.usageText)
            parts += optionParts
        }
        return parts.joined(separator: " ")
    }

    /// `text` after `label`, wrapped to `width`, continuation lines aligned after the command path.
    ///
    /// Lines break between top-level usage elements (`[--before <card>]` stays whole) and
    /// only inside one when it cannot fit on a line by itself. Each line of a multi-line
    /// `text` starts a new block, indented under the first.
    ///
    /// - Parameters:
    ///   - label: `USAGE:` or `Usage:`.
    ///   - text: One or more usage lines.
    ///   - width: The terminal width.
    static func labelledBlock(label: String, text: String, width: Int) -> [String] {
        let width = max(width, minimumWidth)
        var lines: [String] = []
        let labelIndent = String(repeating: " ", count: label.terminalWidth + 1)
        for (number, usageLine) in text.split(separator: "\n").enumerated() {
            let prefix = number == 0 ? label + " " : labelIndent
            let units = usageUnits(of: String(usageLine))
            let pathWidth = units.prefix { unit in
                !(unit.hasPrefix("[") || unit.hasPrefix("<") || unit.hasPrefix("-") || unit.hasPrefix("("))
            }.reduce(0) { $0 + $1.terminalWidth + 1 }
            var hanging = labelIndent.count + pathWidth
            if hanging > width / 2 { hanging = labelIndent.count }
            lines += wrap(units: units, firstPrefix: prefix, hangingIndent: hanging, width: width)
        }
        return lines
    }

    /// The elements of a usage line: split at spaces outside brackets and parentheses.
    static func usageUnits(of line: String) -> [String] {
        var units: [String] = []
        var current = ""
        var depth = 0
        for character in line {
            switch character {
            case "[", "(":
                depth += 1
            case "]", ")":
                depth = max(depth - 1, 0)
            case " " where depth == 0:
                if !current.isEmpty { units.append(current) }
                current = ""
                continue
            default:
                break
            }
            current.append(character)
        }
        if !current.isEmpty { units.append(current) }
        return units
    }

    private static func wrap(units: [String], firstPrefix: String, hangingIndent: Int, width: Int) -> [String] {
        let indent = String(repeating: " ", count: hangingIndent)
        var lines: [String] = []
        var line = firstPrefix
        var used = firstPrefix.terminalWidth
        var isEmpty = true

        func place(_ word: String) {
            let wordWidth = word.terminalWidth
            if !isEmpty && used + 1 + wordWidth > width {
                lines.append(line)
                line = indent
                used = hangingIndent
                isEmpty = true
            }
            line += (isEmpty ? "" : " ") + word
            used += (isEmpty ? 0 : 1) + wordWidth
            isEmpty = false
        }

        for unit in units {
            let unitWidth = unit.terminalWidth
            let fitsOnFreshLine = hangingIndent + unitWidth <= width
            let fitsHere = used + (isEmpty ? 0 : 1) + unitWidth <= width
            if fitsHere || fitsOnFreshLine || width <= 0 {
                place(unit)
            } else {
                for word in unit.split(separator: " ") { place(String(word)) }
            }
        }
        lines.append(line)
        return lines
    }

    // MARK: Help

    /// The complete help of the last command in `chain`, wrapped to `width`, ending with a newline.
    ///
    /// - Parameters:
    ///   - chain: The commands from the root down to the one described; the root is first.
    ///   - width: The terminal width (at least `minimumWidth` is used); no line is wider
    ///     unless a single word is.
    static func helpText(for chain: [CommandSpec], width: Int) -> String {
        guard let command = chain.last else { return "" }
        let width = max(width, minimumWidth)
        var sections: [[String]] = []

        var overview = labelledParagraph(label: "OVERVIEW:", text: command.abstract, width: width)
        if let discussion = command.discussion, !discussion.isEmpty {
            overview.append("")
            overview += discussion.wrapped(toWidth: width)
        }
        sections.append(overview)

        sections.append(labelledBlock(label: "USAGE:", text: usage(for: chain), width: width))

        let arguments = command.arguments.map { argument in
            (label: "<\(argument.name)>" + (argument.isRepeating ? "..." : ""), help: argument.help)
        }
        if !arguments.isEmpty {
            sections.append(["ARGUMENTS:"] + rows(arguments, width: width))
        }

        var ownOptions = command.options.filter { !$0.isHidden }
        ownOptions.append(.help)
        if chain.count == 1, command.version != nil {
            ownOptions.append(.version)
        }
        sections.append(["OPTIONS:"] + rows(ownOptions.map(optionRow), width: width))

        let inherited = chain.dropLast().reversed().flatMap { ancestor in
            ancestor.options.filter { $0.isGlobal && !$0.isHidden }
        }
        if !inherited.isEmpty {
            sections.append(["GLOBAL OPTIONS:"] + rows(inherited.map(optionRow), width: width))
        }

        for section in command.helpSections where !section.rows.isEmpty {
            sections.append([section.title] + rows(section.rows.map { ($0.label, $0.help) }, width: width))
        }

        let subcommands = command.subcommands.filter { !$0.isHidden }
        if !subcommands.isEmpty {
            let subcommandRows = subcommands.map { subcommand in
                (
                    label: subcommand.name + (subcommand.name == command.defaultSubcommand ? " (default)" : ""),
                    help: subcommand.abstract
                )
            }
            let helpPath = ([chain[0].name, CommandSpec.helpCommandName] + chain.dropFirst().map(\.name))
                .joined(separator: " ")
            sections.append(
                ["SUBCOMMANDS:"] + rows(subcommandRows, width: width) + [""]
                    + "See '\(helpPath) <subcommand>' for detailed help.".wrapped(toWidth: width - 2)
                    .map { "  " + $0 })
        }

        if !command.exitStatuses.isEmpty {
            let statusRows = command.exitStatuses.map { status in
                (label: String(status.code.rawValue), help: status.meaning)
            }
            sections.append(["EXIT STATUS:"] + rows(statusRows, width: width))
        }

        return sections.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    private static func optionRow(_ option: OptionSpec) -> (label: String, help: String) {
        var help = option.help
        if let defaultValue = option.defaultValue {
            help += (help.isEmpty ? "" : " ") + "(default: \(defaultValue))"
        }
        return (option.helpLabel, help)
    }

    /// `text` after `label`, continuation lines indented under the text.
    private static func labelledParagraph(label: String, text: String, width: Int) -> [String] {
        let indent = label.terminalWidth + 1
        guard width - indent >= 20 else {
            return (label + " " + text).wrapped(toWidth: width)
        }
        let lines = text.wrapped(toWidth: width - indent)
        return lines.enumerated().map { number, line in
            (number == 0 ? label + " " : String(repeating: " ", count: indent)) + line
        }
    }

    /// Label and help rows: the label indented by 2, the help at `helpColumn` or, when the
    /// label is too long, on the next line; below `narrowWidth`, the help under the label.
    private static func rows(_ rows: [(label: String, help: String)], width: Int) -> [String] {
        var lines: [String] = []
        let isNarrow = width < narrowWidth
        let helpIndent = isNarrow ? 6 : helpColumn
        let helpPadding = String(repeating: " ", count: helpIndent)
        for row in rows {
            let label = "  " + row.label
            let helpLines = row.help.isEmpty ? [] : row.help.wrapped(toWidth: width - helpIndent)
            if label.terminalWidth + 2 <= helpIndent, let first = helpLines.first {
                lines.append(label.padded(toWidth: helpIndent) + first)
                lines += helpLines.dropFirst().map { helpPadding + $0 }
            } else {
                lines.append(label)
                lines += helpLines.map { helpPadding + $0 }
            }
        }
        return lines
    }
}
