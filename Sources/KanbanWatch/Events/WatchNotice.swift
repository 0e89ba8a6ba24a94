/// Something a person running a watcher should know that is not a change to the board: the watcher
/// fell back to polling, a link was not followed, a directory could not be read.
///
/// The library never prints; a program shows notices as it sees fit (`kanban watch` prints them on
/// standard error as `warning: message`).
public struct WatchNotice: Sendable, Hashable, Codable {
    /// What kind of notice this is.
    public enum Code: String, Sendable, Hashable, Codable {
        /// inotify is unavailable or out of resources (`EMFILE`, `ENFILE`, `ENOSPC`); the watcher carries on
        /// by polling, having lost nothing.
        case fallingBackToPolling = "polling-fallback"
        /// A symbolic link that leads outside the board (or to a directory) was not followed.
        case linkNotFollowed = "link-not-followed"
        /// A file or directory could not be read; it is tried again on the next change.
        case unreadable
        /// The kernel's event queue overflowed; the watcher rescanned the board and compared it with its index.
        case rescanned
    }

    /// What kind of notice this is.
    public var code: Code
    /// One lowercase sentence without a final period.
    public var message: String
    /// The path concerned, relative to the board directory, when there is one.
    public var path: String?

    /// Creates a notice.
    public init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }
}

extension WatchNotice: CustomStringConvertible {
    /// `path: message`, or the message alone.
    public var description: String {
        if let path { return "\(path): \(message)" }
        return message
    }
}
