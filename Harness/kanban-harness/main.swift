#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// kanban-harness: the adversaries that attack kanban's guarantees, run against the built `kanban` binary.
//
//   kanban-harness crash    [--kanban PATH] [options]   kill each mutating command at every system call that changes the disk
//   kanban-harness stress   [--kanban PATH] [options]   many processes changing one board at once, some committing, while `kanban watch` runs
//   kanban-harness converge [--kanban PATH] [options]   many clones of one board behind one remote, random work, sync until quiet
//   kanban-harness agents   [--kanban PATH] [options]   many agents in the worktrees and clones of one board claim cards with dependencies
//
// Each prints what it did and what it found, and exits 0 when every check held, 1 when one failed, 2 when it could
// not run (77 with a message when a tool it needs, such as strace, is missing: the tests read that as a skip).

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let command = HarnessCommand.all.first(where: { $0.name == name }) else {
    print(HarnessCommand.usage)
    exit(arguments.first == "--help" || arguments.first == "-h" ? 0 : 2)
}
do {
    let options = try HarnessOptions(Array(arguments.dropFirst()))
    if options.flag("help") {
        print(command.help)
        exit(0)
    }
    exit(try command.run(options).rawValue)
} catch let error as HarnessError {
    FileHandle.standardError.write(Data("kanban-harness \(name): \(error.message)\n".utf8))
    exit(error.status.rawValue)
} catch {
    FileHandle.standardError.write(Data("kanban-harness \(name): \(error)\n".utf8))
    exit(HarnessStatus.cannotRun.rawValue)
}
