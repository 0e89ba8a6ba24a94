import Foundation

/// A program run to its end by a test, with what it wrote: git in the git tests' sandboxes, tools beside kanban.
public struct ProgramRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything written to standard output.
    public var output: String
    /// Everything written to standard error.
    public var errorOutput: String

    /// Runs `executable` with `arguments` and exactly `environment`, standard input from `/dev/null`, reading both
    /// outputs as it runs (so that a full pipe never blocks it), and waits for it.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> ProgramRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorHandle = errors.fileHandleForReading
        let group = DispatchGroup()
        let collected = CollectedBytes()
        DispatchQueue.global().async(group: group) { collected.set(errorHandle.readDataToEndOfFile()) }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProgramRun(status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
                          errorOutput: String(decoding: collected.get(), as: UTF8.self))
    }
}

/// Bytes one thread reads and another takes once it has finished.
private final class CollectedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ newValue: Data) { lock.withLock { data = newValue } }
    func get() -> Data { lock.withLock { data } }
}
