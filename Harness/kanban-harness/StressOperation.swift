import Foundation

/// One kanban command a stress worker ran, and what came of it.
struct StressOperation: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case add, setTitle = "set-title", setLabels = "set-labels", setBody = "set-body", move, reorder, archive, unarchive, delete

        /// How often each is drawn, out of the sum.
        var weight: Int {
            switch self {
            case .add: 18
            case .setTitle: 10
            case .setLabels: 10
            case .setBody: 8
            case .move: 16
            case .reorder: 12
            case .archive: 8
            case .unarchive: 8
            case .delete: 6
            }
        }

        /// Whether it can change the card's path (column, archive, existence): a reorder `--after` a card of
        /// another column moves it there.
        var changesPath: Bool { [.move, .reorder, .archive, .unarchive, .delete].contains(self) }

        /// Whether it places a card among others, which may rewrite the neighbours' positions.
        var places: Bool { [.add, .move, .reorder, .unarchive].contains(self) }
    }

    /// What the command did to the board.
    enum Effect: Sendable, Equatable {
        /// It made its change (and its commit, when it asked for one).
        case changed
        /// It made its change but could not commit it (the reason is git's).
        case changedNotCommitted(String)
        /// It changed nothing, for a reason a concurrent board explains (the card was deleted meanwhile, ...).
        case refused(String)
        /// It failed in a way it never should: a crash, a signal, a corrupt file, a message nobody expects.
        case unexpected(String)

        var madeChange: Bool {
            switch self {
            case .changed, .changedNotCommitted: true
            case .refused, .unexpected: false
            }
        }
    }

    var worker: Int
    var index: Int
    var kind: Kind
    /// The card's slug: the one named, or for `add` the one made (empty until known).
    var card: String
    var arguments: [String]
    var asksForCommit: Bool

    var status: Int32 = 0
    var signal: Int32?
    var output = ""
    var errorOutput = ""
    /// Seconds since the run began.
    var started = 0.0
    var ended = 0.0
    var effect: Effect = .changed
    /// The abbreviated hash of the commit it printed (`committed 1a2b3c4 ...`).
    var commit: String?

    /// Judges the finished command from its exit status and output.
    mutating func classify() {
        commit = output.split(separator: "\n").first { $0.hasPrefix("committed ") }.flatMap { $0.split(separator: " ").dropFirst().first }.map(String.init)
        if kind == .add, let line = output.split(separator: "\n").first(where: { $0.hasPrefix("cards/") && $0.hasSuffix(".md") }) {
            card = String((line.split(separator: "/").last ?? "").dropLast(3))
        }
        let firstError = errorOutput.split(separator: "\n").first { $0.hasPrefix("error:") || $0.hasPrefix("warning:") }.map(String.init)
            ?? errorOutput.split(separator: "\n").first.map(String.init) ?? ""
        let crashWords = ["Fatal error", "fatal error", "Stack dump", "Segmentation", "panic", "Illegal instruction", "Trace/breakpoint"]
        if let signal {
            effect = .unexpected("killed by signal \(signal)")
        } else if let word = crashWords.first(where: { errorOutput.contains($0) }) {
            effect = .unexpected("crashed (\(word)): \(firstError)")
        } else if status == 0 {
            if let warning = errorOutput.split(separator: "\n").first(where: { $0.contains("warning:") }) {
                // Nothing in a stress run is killed, so nothing should ever need settling or look odd.
                effect = .unexpected("succeeded with a warning: \(warning)")
            } else if kind == .add && card.isEmpty {
                effect = .unexpected("add printed no card path")
            } else {
                // With --commit and no 'committed' line, there was nothing for git to record (a card added and
                // deleted again without a commit, a label it did not have): not a failure.
                effect = .changed
            }
        } else if status == 1 && errorOutput.contains("The change itself was made") {
            effect = .changedNotCommitted(StressOperation.reason(firstError))
        } else if status == 1, let reason = StressOperation.expectedRefusal(firstError) {
            effect = .refused(reason)
        } else {
            effect = .unexpected("exit status \(status): \(firstError)")
        }
    }

    /// The refusals that concurrent work explains, by a short name; nil for any other message.
    static func expectedRefusal(_ message: String) -> String? {
        let known: [(String, String)] = [
            ("no card on the board or in the archive matches", "card not found (deleted meanwhile)"),
            ("no card on the board matches", "card not on the board (archived or deleted meanwhile)"),
            ("no card in the archive matches", "card not in the archive"),
            ("no card at '", "card moved away between finding it and changing it"),
            ("already has a card", "slug already in the target column"),
            ("cannot be placed relative to itself", "placed relative to itself"),
            ("is not in column", "neighbour card not in the target column"),
            ("gave up waiting", "lock timeout"),
        ]
        return known.first { message.contains($0.0) }?.1
    }

    /// A message with its quoted parts taken out, so that messages differing only in names count together.
    static func reason(_ message: String) -> String {
        var result = ""
        var inQuote = false
        for character in message {
            if character == "'" {
                inQuote.toggle()
                if inQuote { result += "'…'" }
            } else if !inQuote {
                result.append(character)
            }
        }
        return result.count > 160 ? String(result.prefix(160)) + "…" : result
    }

    /// One line of the operations log.
    var logLine: String {
        let how: String
        switch effect {
        case .changed: how = "changed" + (commit.map { " committed \($0)" } ?? "")
        case .changedNotCommitted(let reason): how = "changed, not committed: \(reason)"
        case .refused(let reason): how = "refused: \(reason)"
        case .unexpected(let reason): how = "UNEXPECTED: \(reason)"
        }
        let command = arguments.map { $0.contains(" ") || $0.contains("\n") ? "'\($0.replacingOccurrences(of: "\n", with: "\\n"))'" : $0 }.joined(separator: " ")
        let time = String(format: "%8.3f-%8.3f", started, ended)
        return "\(time) P\(worker) #\(index) \(kind.rawValue) [\(card)] kanban \(command) => \(how)"
    }
}
