#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Where Linux and macOS differ for the `kanban` executable, in one place: every other file is the same on both.
///
/// CI builds and tests the Linux branches; the Darwin branches are written from Darwin's headers and not built here.
enum Platform {
    /// This process's environment as `posix_spawn` takes it: Darwin declares no `environ` for programs to use.
    static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
            _NSGetEnviron().pointee
        #else
            environ
        #endif
    }

    #if canImport(Darwin)
        /// Spawn attributes, uninitialised: an opaque pointer on Darwin, a structure on Linux.
        typealias SpawnAttributes = posix_spawnattr_t?
        static func spawnAttributes() -> SpawnAttributes { nil }
    #else
        /// Spawn attributes, uninitialised: an opaque pointer on Darwin, a structure on Linux.
        typealias SpawnAttributes = posix_spawnattr_t
        static func spawnAttributes() -> SpawnAttributes { posix_spawnattr_t() }
    #endif

    /// The path of the running executable, links resolved where the system says.
    static var runningExecutable: String {
        #if os(Linux)
            FileSystemPaths.resolved("/proc/self/exe")
        #else
            FileSystemPaths.resolved(Bundle.main.executablePath ?? CommandLine.arguments.first ?? "kanban")
        #endif
    }

    /// Whether `kanban watch` uses inotify (Linux) rather than polling.
    static var hasInotify: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// The shell script that opens `$1` in the desktop's browser, or nil when there is no desktop session to open
    /// it in.
    static func browserOpener(environment: [String: String]) -> String? {
        #if os(macOS)
            return "open \"$1\" >/dev/null 2>&1 </dev/null &"
        #else
            guard !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else { return nil }
            return "command -v xdg-open >/dev/null 2>&1 && xdg-open \"$1\" >/dev/null 2>&1 </dev/null &"
        #endif
    }
}
