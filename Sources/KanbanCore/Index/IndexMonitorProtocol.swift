#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The monitor's wire format, shared by the commands that ask (``IndexMonitorClient``) and the monitor that answers
/// (`KanbanWatch`'s `IndexMonitor`), over a Unix socket beside the board's index.
///
/// Every field ends with a NUL byte. A question: `kanban-index-monitor 1`, then the token asked about (empty for
/// none). An answer: `kanban-index-monitor 1`, the new token, `*` (everything may have changed) or `=`, then for
/// `=` each changed path, and an empty field ending the answer, so an answer cut short is never taken as whole.
package enum IndexMonitorProtocol {
    package static let greeting = "kanban-index-monitor 1"
    /// Answers name at most this many paths; beyond, the monitor answers `*`.
    package static let maximumPaths = 50_000
    /// Longest question or answer field (a path, a token).
    package static let maximumField = 4_096

    package static func question(since token: String?) -> [UInt8] {
        Array(greeting.utf8) + [0] + Array((token ?? "").utf8) + [0]
    }

    /// The token asked about; nil when `bytes` is not a whole question; `.some(nil)` for a question with no token.
    package static func parseQuestion(_ bytes: [UInt8]) -> String?? {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
        guard fields.count == 3, fields[2].isEmpty, fields[0].elementsEqual(greeting.utf8),
              fields[1].count <= maximumField, let token = String(validating: fields[1], as: UTF8.self) else { return nil }
        return .some(token.isEmpty ? nil : token)
    }

    package static func answer(_ answer: IndexMonitorAnswer) -> [UInt8] {
        var bytes = Array(greeting.utf8) + [0] + Array(answer.token.utf8) + [0]
        if let changed = answer.changed {
            bytes += Array("=".utf8) + [0]
            for path in changed.sorted() where !path.isEmpty && path.utf8.count <= maximumField && !path.utf8.contains(0) {
                bytes += Array(path.utf8) + [0]
            }
        } else {
            bytes += Array("*".utf8) + [0]
        }
        return bytes + [0]
    }

    /// The answer in `bytes`; nil unless they are one whole answer.
    package static func parseAnswer(_ bytes: [UInt8]) -> IndexMonitorAnswer? {
        guard bytes.last == 0 else { return nil }
        let fields = bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false)
        // greeting, token, kind, paths..., and the empty field that ends the answer.
        guard fields.count >= 4, fields.last!.isEmpty, fields[0].elementsEqual(greeting.utf8), !fields[1].isEmpty,
              let token = String(validating: fields[1], as: UTF8.self) else { return nil }
        let paths = fields.dropFirst(3).dropLast()
        switch String(decoding: fields[2], as: UTF8.self) {
        case "*" where paths.isEmpty:
            return IndexMonitorAnswer(token: token, changed: nil)
        case "=":
            var changed = Set<String>()
            for path in paths {
                guard !path.isEmpty, let text = String(validating: path, as: UTF8.self) else { return nil }
                changed.insert(text)
            }
            return IndexMonitorAnswer(token: token, changed: changed)
        default:
            return nil
        }
    }
}
