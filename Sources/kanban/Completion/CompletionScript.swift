/// The completion scripts `kanban completion` prints, one per shell.
///
/// Each script has two parts: tables generated from a `CompletionModel` (for every command path, its subcommands,
/// options, the kind of value each option takes and the kinds of its arguments), and a small driver that walks the
/// words typed so far to find the command path and what the word under the cursor is. Column ids, label ids and
/// card slugs are not in the script: the driver asks `kanban __complete KIND [--board DIR]` when they are needed.
enum CompletionScript {
    /// The shells a script can be made for.
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The script for `shell`, completing the commands of `model`.
    static func script(for shell: Shell, model: CompletionModel, version: String) -> String {
        switch shell {
        case .bash: bash(model, version: version)
        case .zsh: zsh(model, version: version)
        case .fish: fish(model, version: version)
        }
    }

    // MARK: Helpers shared by the generators

    /// A help sentence as a one-line completion description: white space collapsed, no final period.
    static func summary(_ help: String) -> String {
        var text = help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
            .joined(separator: " ")
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `text` in POSIX single quotes, for bash and zsh: `it's` → `'it'\''s'`.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    /// `text` in fish single quotes, where only `\\` and `\'` are escapes.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'") + "'"
    }
}

extension String {
    /// The string with every occurrence of `target` replaced, without Foundation.
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
