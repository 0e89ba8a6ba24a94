import Foundation
import KanbanCore

extension GitSyncProvider {
    /// The paths at which any commit of the repository (every branch, tag and `HEAD`) added or removed the exact
    /// bytes of the file at `path` (as `git hash-object` names them), relative to the repository's top; empty when
    /// no commit holds them, nil when git cannot say.
    ///
    /// The merge driver asks this of the common version git hands it, to learn which card that version was: git
    /// gives the driver the result's path but not the path of the version it took as the common ancestor.
    package static func paths(holdingBytesOf path: String, in directory: String, configuration: GitConfiguration) -> [String]? {
        let git = Git(configuration: configuration, directory: directory)
        guard let hashed = try? git.run(["hash-object", "--no-filters", "--", path], readOnly: true), hashed.succeeded else { return nil }
        let object = hashed.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !object.isEmpty else { return nil }
        guard let log = try? git.run(["log", "--all", "--no-renames", "-z", "--format=", "--name-only", "--find-object=\(object)"], readOnly: true),
              log.succeeded else {
            return nil
        }
        var paths: [String] = []
        for name in log.output.split(separator: 0) {
            let path = String(decoding: name, as: UTF8.self)
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }
}
