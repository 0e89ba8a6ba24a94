import Foundation

let environment = ProcessInfo.processInfo.environment
TrapExit.install(environment: environment)
// How the tests see what a trap does to the process (there is no other way to cause one from outside: that is the point).
if environment["KANBAN_TRAP_FOR_TESTS"] == "1" { preconditionFailure("a trap the tests asked for") }
let status = KanbanTool.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
BufferedOutput.flushStandardStreams()
exit(status.rawValue)
