/// Who made a commit of the board's history: git's author, and the agent its message names, if any.
public struct CommitAuthor: Sendable, Hashable {
    /// The author's name, as git records it.
    public var name: String
    /// The author's email, as git records it (possibly empty).
    public var email: String
    /// The value of the commit message's `Kanban-Agent:` trailer (kanban writes it when an agent made the change;
    /// several are joined by commas); nil when the message has none.
    public var agent: String?

    /// Creates an author.
    public init(name: String, email: String, agent: String? = nil) {
        self.name = name
        self.email = email
        self.agent = agent
    }
}

extension CommitAuthor {
    /// Whom the work counts for: the agent, else the person.
    public var worker: String { agent ?? name }
}
