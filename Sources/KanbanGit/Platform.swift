#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KanbanCore

/// Where Linux and Apple's systems differ for the git provider, in one place.
///
/// CI builds and tests the Linux branches; the Darwin branches are written from Darwin's headers and not built here.
enum Platform {
    /// The modification time of the file at `path` (not following a link), in whole seconds since 1970; nil when it
    /// cannot be read.
    static func modificationSeconds(ofFileAt path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if os(Linux)
        return Int(info.st_mtim.tv_sec)
        #else
        return Int(info.st_mtimespec.tv_sec)
        #endif
    }

    /// Whether some process has the file at `path` open: from `/proc/*/fd` on Linux; nil where the system does not
    /// say (Darwin has no `/proc`).
    static func isOpenByAnyProcess(_ path: String) -> Bool? {
        #if os(Linux)
        guard let target = FileSystem.realPath(path), let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
            return nil
        }
        for process in processes where process.allSatisfy(\.isNumber) {
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/fd") else { continue }
            for descriptor in descriptors {
                if let open = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process)/fd/\(descriptor)"), open == target {
                    return true
                }
            }
        }
        return false
        #else
        return nil
        #endif
    }
}
