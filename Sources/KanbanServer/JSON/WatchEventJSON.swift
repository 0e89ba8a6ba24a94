import Foundation
import KanbanCore
import KanbanWatch

/// A watch event as `kanban watch --json` prints it and `kanban serve` sends it to the page.
package enum WatchEventJSON {
    /// The event as documented: `{"event", "slug", "title", "column", "from", "to", "path", "previousPath", "changes",
    /// "message", "line", "time"}`, leaving out what does not apply.
    package static func json(_ event: WatchEvent) -> JSON {
        var members: [String: JSON] = ["event": .string(event.kind.rawValue), "time": .string(Self.utcTimestamp(event.time))]
        if let slug = event.slug { members["slug"] = .string(slug) }
        if let title = event.title { members["title"] = .string(title) }
        if let column = event.column { members["column"] = .string(column) }
        if let from = event.from { members["from"] = .string(from) }
        if let to = event.to { members["to"] = .string(to) }
        if let path = event.path { members["path"] = .string(path) }
        if let previous = event.previousPath, previous != event.path { members["previousPath"] = .string(previous) }
        if !event.changes.isEmpty || [.modified, .board].contains(event.kind) {
            members["changes"] = .array(event.changes.names.map(JSON.string))
        }
        if let message = event.message { members["message"] = .string(message) }
        if event.kind == .invalid, let line = event.location?.line { members["line"] = .number(String(line)) }
        return .object(members)
    }

    /// `2026-05-28T12:00:01.123Z`.
    package static func utcTimestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = min(999, Int(((interval - Double(seconds)) * 1000).rounded(.down)))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds)
    }
}
