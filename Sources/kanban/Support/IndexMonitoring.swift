import Dispatch
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
    ///
    /// A monitor vouches for an index only from its first answer on, and that answer is written into the index by a
    /// load of every card directory (a `list` or `search` of the active cards leaves the archive's entries unchecked,
    /// so it cannot). So the new monitor's first answer is taken here, by such a load on a thread of its own: without
    /// it, every `list` run beside `kanban watch` would look at every card file until some command loaded the archive.
    static func start(_ store: BoardStore, _ context: CommandContext) -> IndexMonitoring? {
        #if os(Linux)
        if context.isTurnedOff("KANBAN_MONITOR") { return nil }
        do {
            guard let monitor = try IndexMonitor.start(for: store) else { return nil }
            // What it finds wrong is for the commands to report; this load only brings the index up to date.
            DispatchQueue.global(qos: .utility).async { _ = try? store.load(.all) }
            return IndexMonitoring(monitor: monitor)
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
