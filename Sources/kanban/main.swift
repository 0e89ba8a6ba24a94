import Foundation

let environment = ProcessInfo.processInfo.environment
let status = KanbanTool.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
BufferedOutput.flushStandardStreams()
exit(status.rawValue)
