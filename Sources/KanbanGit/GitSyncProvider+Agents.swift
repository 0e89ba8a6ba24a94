import KanbanCore

extension GitSyncProvider {
    /// The name a claim records when none is given: `KANBAN_AGENT`, else git's author name for the board's repository
    /// (`GIT_AUTHOR_NAME`, else `user.name`), else the login name; nil when none is set.
    /// - Parameter environment: The process's environment.
    public func claimName(environment: [String: String]) -> String? {
        for key in ["KANBAN_AGENT", "GIT_AUTHOR_NAME"] {
            if let name = environment[key]?.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        }
        if let output = try? git.run(["config", "--get", "user.name"], readOnly: true), output.succeeded {
            let name = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !name.isEmpty { return name }
        }
        for key in ["USER", "LOGNAME"] {
            if let name = environment[key]?.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        }
        return nil
    }
}
