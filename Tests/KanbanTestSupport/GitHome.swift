import Foundation

/// git as the tests run it: in a directory of their own that is also `HOME`, with a global configuration of their
/// own (branch `main`, no detached-HEAD advice, and the identity of Ana Lee unless `identity` is false) and none of
/// the machine's, so that no setting of the machine running the tests changes what git does.
public enum GitHome {
    /// Writes `root/gitconfig` and returns the environment that makes git use it, with `PATH` as given.
    public static func environment(root: String, path: String, identity: Bool) throws -> [String: String] {
        var config = "[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
        if identity { config += "[user]\n\tname = Ana Lee\n\temail = ana@example.com\n" }
        try Data(config.utf8).write(to: URL(fileURLWithPath: root + "/gitconfig"))
        return [
            "PATH": path,
            "HOME": root,
            "GIT_CONFIG_GLOBAL": root + "/gitconfig",
            "GIT_CONFIG_NOSYSTEM": "1",
            "TMPDIR": root,
        ]
    }
}
