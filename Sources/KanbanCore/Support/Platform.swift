#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where Linux and Apple's systems differ, in one place: every other file of KanbanCore outside `Sync/` is the same
/// on both (the POSIX calls it makes have the same names and meaning).
///
/// CI builds and tests the Linux branches; the Darwin branches are written from Darwin's headers and not built here.
package enum Platform {
    /// A file's modification and status-change times and its device, as `stat` gives them on each system.
    package static func times(of info: stat) -> (modified: timespec, changed: timespec, device: UInt64) {
        #if os(Linux)
        (info.st_mtim, info.st_ctim, UInt64(info.st_dev))
        #else
        (info.st_mtimespec, info.st_ctimespec, UInt64(UInt32(bitPattern: info.st_dev)))
        #endif
    }

    /// `pid 123: kanban sync` for the process holding the `flock` on the file `descriptor` is open on, from
    /// `/proc/locks` on Linux; nil where the system does not say (Darwin has no way to ask).
    static func lockHolder(of descriptor: Int32) -> String? {
        #if os(Linux)
        var info = stat()
        guard fstat(descriptor, &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        let inode = "\(info.st_ino)"
        for line in locks.split(separator: "\n") {
            // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5].split(separator: ":").last.map(String.init) == inode,
                  let pid = Int32(fields[4]), pid != getpid() else { continue }
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))
                .map { data in data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } }
                .map { words in words.enumerated().map { $0.offset == 0 ? ($0.element as NSString).lastPathComponent : $0.element }.joined(separator: " ") }
            return "pid \(pid)" + (command.map { ": \($0)" } ?? "")
        }
        return nil
        #else
        return nil
        #endif
    }

    /// A file's modification time: `st_mtim` on Linux, `st_mtimespec` on Darwin.
    static func modificationTime(of info: stat) -> timespec {
        #if os(Linux)
        info.st_mtim
        #else
        info.st_mtimespec
        #endif
    }
}
