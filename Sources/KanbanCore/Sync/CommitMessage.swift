import Foundation

/// A commit message that reads well in `git log --oneline` and that scripts can read back.
///
/// The subject says what one person did, in at most 72 characters (a long title is cut with `…`):
/// `Move "Fix login bug" from To Do to Done`. Trailers name the card and columns by id:
///
/// ```
/// Move "Fix login bug" from To Do to Done
///
/// Card: fix-login-bug
/// From: todo
/// To: done
/// ```
public struct CommitMessage: Sendable, Hashable {
    /// The longest subject, in characters.
    public static let subjectLimit = 72

    /// The first line, at most ``subjectLimit`` characters.
    public var subject: String
    /// Paragraphs after the subject, if any.
    public var body: String?
    /// `Key: value` lines at the end, such as `Card: fix-login-bug`.
    public var trailers: [CommitTrailer]

    /// Creates a message; a subject longer than ``subjectLimit`` characters is cut with `…`, line breaks become spaces.
    public init(subject: String, body: String? = nil, trailers: [CommitTrailer] = []) {
        let line = subject.split(whereSeparator: \.isNewline).joined(separator: " ")
        self.subject = line.count > Self.subjectLimit ? String(line.prefix(Self.subjectLimit - 1)) + "…" : line
        self.body = body.flatMap { $0.trimmingBlankLines().isEmpty ? nil : $0.trimmingBlankLines() }
        self.trailers = trailers
    }

    /// The whole message: the subject, a blank line, the body and the trailers.
    public var text: String {
        var paragraphs = [subject]
        if let body { paragraphs.append(body) }
        if !trailers.isEmpty { paragraphs.append(trailers.map { "\($0.key): \($0.value)" }.joined(separator: "\n")) }
        return paragraphs.joined(separator: "\n\n") + "\n"
    }
}

/// One `Key: value` line at the end of a commit message.
public struct CommitTrailer: Sendable, Hashable, Codable {
    /// The key, such as `Card`.
    public var key: String
    /// The value, one line.
    public var value: String

    /// Creates a trailer.
    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

extension CommitMessage {
    /// The message for one card event, such as `Move "Fix login bug" from To Do to Done`.
    /// - Parameter board: Gives columns their display names; ids are used without it.
    public init(_ event: CardEvent, board: Board? = nil) {
        func name(_ id: String) -> String { board?.column(withID: id)?.name ?? id }
        var trailers = [CommitTrailer("Card", event.slug)]
        let subject: String
        switch event.kind {
        case .added:
            subject = Self.fitting("Add ", event.title, " to \(name(event.column))")
            trailers.append(CommitTrailer("To", event.column))
        case .moved:
            let from = event.previousColumn ?? event.column
            subject = Self.fitting("Move ", event.title, " from \(name(from)) to \(name(event.column))")
            trailers += [CommitTrailer("From", from), CommitTrailer("To", event.column)]
        case .reordered:
            subject = Self.fitting("Reorder ", event.title, " in \(name(event.column))")
            trailers.append(CommitTrailer("To", event.column))
        case .edited:
            let fields = event.changedFields.isEmpty ? "" : " (\(event.changedFields.joined(separator: ", ")))"
            subject = Self.fitting("Edit ", event.title, fields)
        case .archived:
            subject = Self.fitting("Archive ", event.title, "")
            trailers.append(CommitTrailer("From", event.column))
        case .unarchived:
            subject = Self.fitting("Unarchive ", event.title, " to \(name(event.column))")
            trailers.append(CommitTrailer("To", event.column))
        case .deleted:
            subject = Self.fitting("Delete ", event.title, "")
            trailers.append(CommitTrailer("From", event.column))
        }
        self.init(subject: subject, trailers: trailers)
    }

    /// The message for what one action did to several cards, or for the pending changes of a board: one event gives
    /// that event's message; several give a summary subject (`Move 3 cards to Done`, `Update 4 cards: 2 moved,
    /// 1 added, 1 edited`) and one line per card in the body, `- Move "Fix login bug" from To Do to Done
    /// [fix-login-bug]`. Returns nil when there is nothing to describe.
    /// - Parameters:
    ///   - events: The card events, in order.
    ///   - boardFileChanged: Whether `board.md` changed too (columns, labels, title).
    ///   - board: Gives columns their display names.
    public init?(describing events: [CardEvent], boardFileChanged: Bool = false, board: Board? = nil) {
        if events.count == 1 && !boardFileChanged {
            self.init(events[0], board: board)
            return
        }
        if events.isEmpty {
            guard boardFileChanged else { return nil }
            self.init(subject: "Edit board settings", trailers: [])
            return
        }
        func name(_ id: String) -> String { board?.column(withID: id)?.name ?? id }
        let kinds = Set(events.map(\.kind))
        let count = events.count == 1 ? "1 card" : "\(events.count) cards"
        var subject: String
        if kinds.count == 1, let kind = kinds.first {
            let columns = Set(events.map(\.column))
            switch kind {
            case .added: subject = "Add \(count)" + (columns.count == 1 ? " to \(name(events[0].column))" : "")
            case .moved: subject = "Move \(count)" + (columns.count == 1 ? " to \(name(events[0].column))" : "")
            case .reordered: subject = "Reorder \(count)" + (columns.count == 1 ? " in \(name(events[0].column))" : "")
            case .edited: subject = "Edit \(count)"
            case .archived: subject = "Archive \(count)"
            case .unarchived: subject = "Unarchive \(count)" + (columns.count == 1 ? " to \(name(events[0].column))" : "")
            case .deleted: subject = "Delete \(count)"
            }
        } else {
            let parts = CardEvent.Kind.allCases.compactMap { kind -> String? in
                let number = events.count(where: { $0.kind == kind })
                return number == 0 ? nil : "\(number) \(kind.rawValue)"
            }
            subject = "Update \(count): " + parts.joined(separator: ", ")
        }
        if boardFileChanged { subject += " and board settings" }
        // Each line names its card, so that `kanban log` can tell which line is about which card.
        let lines = events.map { CommitMessage($0, board: board).subject + " [\($0.slug)]" }
        var seen: Set<String> = []
        let trailers = events.map(\.slug).filter { seen.insert($0).inserted }.map { CommitTrailer("Card", $0) }
        self.init(subject: subject, body: lines.map { "- " + $0 }.joined(separator: "\n"), trailers: trailers)
    }

    /// The message for the changes a store operation made: ``init(describing:boardFileChanged:board:)`` with the
    /// changes' card events. Returns nil when no change has a card (board-level changes need their own message).
    public init?(describing changes: [BoardChange], board: Board? = nil) {
        self.init(describing: changes.compactMap(CardEvent.init), board: board)
    }

    /// `prefix` + the title in double quotes + `suffix`, the title cut with `…` so that the whole fits the limit.
    static func fitting(_ prefix: String, _ title: String, _ suffix: String) -> String {
        let room = subjectLimit - prefix.count - suffix.count - 2
        var shown = title
        if shown.count > room && room >= 4 {
            shown = String(shown.prefix(room - 1)).trimmingCharacters(in: .whitespaces) + "…"
        }
        return prefix + "\"" + shown + "\"" + suffix
    }
}

extension CommitMessage {
    /// A board-level change: `Add column "In Review"`, with a trailer naming what by id (`Column: in-review`).
    public static func board(_ subject: String, _ key: String, _ id: String) -> CommitMessage {
        CommitMessage(subject: subject, trailers: [CommitTrailer(key, id)])
    }
}
