/// An error from a board operation, with the file and line it concerns when there is one.
///
/// `description` is the one line a person sees; `debugDescription` adds the code.
public struct KanbanError: Error, Sendable, Hashable {
    /// What went wrong, so that callers can tell cases apart.
    public enum Code: String, Sendable, Hashable {
        /// No `board.md` in the directory or any parent.
        case boardNotFound = "board-not-found"
        /// `board.md` cannot be parsed or lacks a required key.
        case invalidBoard = "invalid-board"
        /// A card file cannot be parsed; it is left untouched.
        case invalidCard = "invalid-card"
        /// No card matches the reference.
        case cardNotFound = "card-not-found"
        /// A slug prefix that matches several cards; `candidates` lists them.
        case ambiguousCard = "ambiguous-card"
        /// A column id that `board.md` does not declare.
        case columnNotFound = "column-not-found"
        /// A label id that `board.md` does not declare.
        case labelNotFound = "label-not-found"
        /// Something with that id or path exists already.
        case alreadyExists = "already-exists"
        /// A column that still holds cards.
        case columnNotEmpty = "column-not-empty"
        /// A path, slug or id that would reach outside the board directory.
        case outsideBoard = "outside-board"
        /// An argument the operation cannot use (an empty title, a bad id, a card placed relative to itself).
        case invalidArgument = "invalid-argument"
        /// A system call failed; the message names the file and the reason.
        case fileSystem = "file-system"
        /// Something that must be a regular file is a FIFO, a socket, a device or a directory; it is never read.
        case notRegularFile = "not-a-regular-file"
        /// Another process held the board's lock for longer than the store waits.
        case locked = "locked"
        /// A search pattern that would take too long to match (a regular expression that backtracks without end).
        case patternTooExpensive = "pattern-too-expensive"
        /// The board's sync provider could not record a change (git: no repository, a detached HEAD, a hook's
        /// refusal): before the change, which was then not made, or after it, when it stands uncommitted.
        case notRecorded = "not-recorded"
        /// The card is held by someone else (see ``CardClaim``).
        case claimed = "claimed"
        /// The card cannot be claimed: finished, started, or waiting for cards that are not done; or no card is ready.
        case notReady = "not-ready"
        /// The column is at its WIP limit and limits refuse (`--strict`, or `wip-limits: strict` in board.md).
        case overLimit = "over-limit"
    }

    /// What went wrong.
    public var code: Code
    /// One lowercase sentence without a final period.
    public var message: String
    /// The file (and line) concerned, if any.
    public var location: SourceLocation?
    /// For ``Code/ambiguousCard``: the matching slugs; for not-found errors: close matches.
    public var candidates: [String]

    /// Creates an error.
    public init(_ code: Code, _ message: String, at location: SourceLocation? = nil, candidates: [String] = []) {
        self.code = code
        self.message = message
        self.location = location
        self.candidates = candidates
    }
}

extension KanbanError: CustomStringConvertible, CustomDebugStringConvertible {
    /// `path:line:column: error: message`, or `error: message` when no file is involved.
    public var description: String {
        if let location { return "\(location): error: \(message)" }
        return "error: \(message)"
    }

    /// The description with the error code, for logs and bug reports.
    public var debugDescription: String {
        "KanbanError(\(code.rawValue)): \(description)"
            + (candidates.isEmpty ? "" : " candidates: \(candidates.joined(separator: ", "))")
    }
}
