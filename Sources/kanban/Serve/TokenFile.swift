import Foundation
import KanbanServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The token of `kanban serve --token-file FILE`: read from the file, or made and written there (0600) when it is
/// missing, so that a page left open (a read-only wall screen) carries on after the server restarts.
enum TokenFile {
    /// The token in the file at `path` (made when missing).
    /// - Parameter shown: The path as the person gave it, for messages.
    /// - Throws: ``CommandFailure`` when the file cannot be made or read, others may read it, or it holds no token.
    static func token(at path: String, shownAs shown: String) throws -> String {
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else { throw failure(shown, String(cString: strerror(errno))) }
            let token = ServeCommand.makeToken()
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw failure(shown, String(cString: strerror(errno))) }
            defer { close(descriptor) }
            let bytes = Array((token + "\n").utf8)
            if let code = bytes.withUnsafeBytes({ SystemCalls.writeAll(descriptor, $0) }) {
                unlink(path)
                throw failure(shown, String(cString: strerror(code)))
            }
            return token
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw failure(shown, "it is not a regular file") }
        guard status.st_uid == getuid() else { throw failure(shown, "it belongs to another user") }
        guard status.st_mode & 0o077 == 0 else {
            throw failure(shown, "others may read it (mode \(String(status.st_mode & 0o777, radix: 8))); run 'chmod 600 \(shown)'")
        }
        guard status.st_size <= 4096, let data = FileManager.default.contents(atPath: path) else { throw failure(shown, "it cannot be read") }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard (32...256).contains(token.utf8.count), token.utf8.allSatisfy({ isTokenByte($0) }) else {
            throw failure(shown, "it does not hold a token (32 to 256 letters, digits, '-' or '_'); remove it to have one made")
        }
        return token
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    private static func failure(_ path: String, _ reason: String) -> CommandFailure {
        CommandFailure(message: "cannot use the token file '\(path)': \(reason)")
    }
}
