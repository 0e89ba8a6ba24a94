import Foundation

/// `--name value` and `--flag` options, and where the `kanban` binary is.
struct HarnessOptions {
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--") else { throw HarnessError(message: "unexpected argument '\(argument)'") }
            let name = String(argument.dropFirst(2))
            if let equals = name.firstIndex(of: "=") {
                values[String(name[..<equals])] = String(name[name.index(after: equals)...])
            } else if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") {
                values[name] = arguments[index + 1]
                index += 1
            } else {
                flags.insert(name)
            }
            index += 1
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func string(_ name: String) -> String? { values[name] }

    /// An integer option, or `fallback` when it is not given.
    func integer(_ name: String, default fallback: Int) throws -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), value >= 0 else { throw HarnessError(message: "--\(name) takes a whole number (got '\(text)')") }
        return value
    }

    /// `--seed N`, else one from the clock (printed by the harness, so that the run can be replayed).
    func seed() throws -> UInt64 {
        guard let text = values["seed"] else { return UInt64(Date().timeIntervalSince1970 * 1_000) % 1_000_000 }
        guard let value = UInt64(text) else { throw HarnessError(message: "--seed takes a whole number (got '\(text)')") }
        return value
    }

    /// The `kanban` binary: `--kanban PATH`, else `kanban` beside this program (the same build directory).
    func kanbanBinary() throws -> String {
        if let path = values["kanban"] {
            guard FileManager.default.isExecutableFile(atPath: path) else { throw HarnessError(message: "--kanban '\(path)' is not an executable file") }
            return path
        }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = (me as NSString).deletingLastPathComponent + "/kanban"
        guard FileManager.default.isExecutableFile(atPath: beside) else {
            throw HarnessError(message: "no kanban binary beside this program (\(beside)); build it ('swift build') or give --kanban PATH")
        }
        return beside
    }
}
