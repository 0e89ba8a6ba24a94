/// The version of kanban: the command's `--version`, the MCP server's `serverInfo`.
public enum KanbanVersion {
    /// `0.1.0`.
    public static let current = "0.1.0"
}
