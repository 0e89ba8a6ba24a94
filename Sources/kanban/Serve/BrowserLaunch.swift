import Foundation
import KanbanServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens the page in the desktop's browser without putting the token on a command line, where every local user's
/// `ps` would see it: the browser is handed a small HTML file, readable by this user only, that leads on to the
/// address with the token (Jupyter's way). The file is removed when the server stops.
final class BrowserLaunch {
    /// The file handed to the browser.
    let path: String
    /// The directory made for it (removed with it), or nil when it lives in `XDG_RUNTIME_DIR`.
    private let madeDirectory: String?

    private init(path: String, madeDirectory: String?) {
        self.path = path
        self.madeDirectory = madeDirectory
    }

    /// Writes the file and runs the desktop's opener on it; nil (and nothing opened) when there is no desktop
    /// session or the file cannot be written.
    static func open(_ url: String, environment: [String: String]) -> BrowserLaunch? {
        guard let opener = Platform.browserOpener(environment: environment),
              let launch = write(url, environment: environment) else { return nil }
        _ = SystemCalls.runShell(opener, arguments: ["file://" + launch.path])
        return launch
    }

    /// The file that leads to `url`, created 0600 in a directory only this user can enter: the user's runtime
    /// directory when it is one, else a new 0700 directory in the temporary directory.
    static func write(_ url: String, environment: [String: String]) -> BrowserLaunch? {
        var directory: String
        var madeDirectory: String?
        if let runtime = environment["XDG_RUNTIME_DIR"], isPrivateDirectory(runtime) {
            directory = runtime
        } else {
            let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array((base + "/kanban-serve-XXXXXX").utf8CString)
            guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { return nil }
            directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            madeDirectory = directory
        }
        if directory.hasSuffix("/") { directory.removeLast() }
        let path = directory + "/kanban-serve-\(getpid())-open.html"
        let escaped = url.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=\(escaped)"><title>kanban</title></head>
            <body><p><a href="\(escaped)">Open the board</a></p></body></html>

            """
        let descriptor = createPrivateFile(path)
        guard descriptor >= 0 else {
            if let madeDirectory { rmdir(madeDirectory) }
            return nil
        }
        let bytes = Array(html.utf8)
        let written = bytes.withUnsafeBytes { SystemCalls.writeAll(descriptor, $0) }
        close(descriptor)
        guard written == nil else {
            unlink(path)
            if let madeDirectory { rmdir(madeDirectory) }
            return nil
        }
        return BrowserLaunch(path: path, madeDirectory: madeDirectory)
    }

    /// Removes the file (and the directory made for it).
    func remove() {
        unlink(path)
        if let madeDirectory { rmdir(madeDirectory) }
    }

    /// Whether `path` is a directory owned by this user that no one else may enter.
    private static func isPrivateDirectory(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else { return false }
        return status.st_mode & 0o077 == 0
    }
}

/// `open(2)` of a new file, 0600, failing when anything is at `path` already (a link included).
private func createPrivateFile(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
}
