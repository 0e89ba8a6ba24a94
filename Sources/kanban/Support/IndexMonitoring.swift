import KanbanCore
import KanbanWatch

/// The board monitor a long-running command (`watch`, `serve`, `tui`, `mcp`) keeps while it runs, so that the
/// commands run on the board meanwhile skip looking at every file they list (see `IndexMonitor`).
struct IndexMonitoring {
    #if os(Linux)
    private let monitor: IndexMonitor
    #endif

    /// Starts the monitor of `store`'s board; nil when the board has no index, another command already monitors it,
    /// `KANBAN_MONITOR` is `off`, or it cannot start (which is said on standard error unless quiet: the command goes
    /// on without it).
    static func start(_ store: BoardStore, _ context: CommandContext) -> IndexMonitoring? {
        #if os(Linux)
        if context.isTurnedOff("KANBAN_MONITOR") { return nil }
        do {
            return try IndexMonitor.start(for: store).map(IndexMonitoring.init(monitor:))
        } catch {
            if !context.isQuiet {
                let label = context.errorStylist.apply(.bold + .yellow, to: "warning")
                context.errorOutput.writeLine("\(label): \(error.message); commands on this board check every file they list")
            }
            return nil
        }
        #else
        return nil
        #endif
    }

    /// Stops answering and removes the monitor's socket.
    func stop() {
        #if os(Linux)
        monitor.stop()
        #endif
    }
}
