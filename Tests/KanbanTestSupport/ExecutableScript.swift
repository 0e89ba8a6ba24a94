#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes an executable `sh` script at `path` (a git hook, a fake ssh) through a descriptor closed on exec.
///
/// Tests run in parallel threads of one process, and each spawns processes. A script written through a descriptor
/// that a child spawned meanwhile inherits stays open for writing in that child, and running it then fails with
/// ETXTBSY ("Text file busy"): a flaky test. With `O_CLOEXEC` the child drops the descriptor when it execs.
public func writeExecutableScript(_ path: String, _ body: String) throws {
    let bytes = Array(("#!/bin/sh\n" + body + "\n").utf8)
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        written += count
    }
    guard fchmod(descriptor, 0o755) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}
