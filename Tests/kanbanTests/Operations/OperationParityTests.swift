import Foundation
import KanbanCore
import Testing

@testable import KanbanServer
@testable import kanban

/// Every board operation on every surface (issue 36): each surface names, for each ``BoardOperation``, what offers it
/// or why nothing does; what it names exists; and nothing a surface offers is left out of the list.
@Suite struct OperationParityTests {
    static let surfaces: [(name: String, table: [BoardOperation: OperationAdapter])] = [
        ("command line", KanbanTool.operations),
        ("kanban tui", TUIKeys.operations),
        ("kanban serve", ServeApp.operations),
        ("kanban mcp", MCPTools.operations),
    ]

    @Test func everySurfaceSaysHowItOffersEveryOperationOrWhyNot() {
        for surface in Self.surfaces {
            for operation in BoardOperation.allCases {
                switch surface.table[operation] {
                case nil:
                    Issue.record("\(surface.name) says nothing of '\(operation.rawValue)': offer it, or record why not beside the others")
                case .absent(let reason)?:
                    #expect(reason.count >= 20, "\(surface.name): '\(operation.rawValue)' is left out without a reason worth the name")
                case .offered(let name)?:
                    #expect(!name.isEmpty)
                }
            }
        }
    }

    @Test func theCommandsNamedExist() {
        for case .offered(let line) in KanbanTool.operations.values {
            let words = line.split(separator: " ").map(String.init)
            #expect(words.first == "kanban", "\(line)")
            var spec = KanbanTool.root
            for word in words.dropFirst() where !word.hasPrefix("-") {
                guard let sub = spec.subcommands.first(where: { $0.name == word }) else {
                    Issue.record("'\(line)': no command '\(word)'")
                    break
                }
                spec = sub
            }
            for option in words.filter({ $0.hasPrefix("--") }) {
                #expect(spec.options.contains { "--" + $0.name == option }, "'\(line)': no option \(option)")
            }
        }
    }

    @Test func theKeysNamedAreTheHelpScreensKeys() {
        let keys = Set(TUIKeys.table.map(\.keys))
        for case .offered(let key) in TUIKeys.operations.values where !key.hasPrefix("(") {
            #expect(keys.contains(key), "kanban tui has no key '\(key)' in its help")
        }
    }

    @Test func theRoutesNamedExistAndEveryAPIRouteIsAnOperation() {
        // With several boards, ServeBoards adds its routes before each board's.
        let routes = Set(ServeApp.routes.map { $0.method + " /" + $0.pattern.joined(separator: "/") }).union(ServeBoards.routes)
        var named: Set<String> = []
        for case .offered(let route) in ServeApp.operations.values {
            #expect(routes.contains(route), "kanban serve has no route '\(route)'")
            named.insert(route)
        }
        // The page itself and its assets are not board operations.
        let page: Set<String> = ["GET /", "GET /assets/*", "GET /favicon.ico"]
        for route in routes.subtracting(page) {
            #expect(named.contains(route), "route '\(route)' is no board operation: add it to ServeApp.operations")
        }
    }

    @Test func theToolsNamedExistAndEveryToolIsAnOperation() {
        let tools = Set(MCPTools.catalogue.map(\.name))
        var named: Set<String> = []
        for case .offered(let tool) in MCPTools.operations.values where tool != "resources/subscribe" {
            #expect(tools.contains(tool), "kanban mcp has no tool '\(tool)'")
            named.insert(tool)
        }
        #expect(named == tools, "tools that are no board operation: \(tools.subtracting(named).sorted())")
    }

    /// The table docs/operations.md shows, as the surfaces declare it.
    static func table() -> String {
        func cell(_ adapter: OperationAdapter?) -> String {
            switch adapter {
            case .offered(let name)?: "`\(name)`"
            case .absent(let reason)?: "— " + reason
            case nil: "?"
            }
        }
        var lines = ["| operation | library call | command line | `kanban tui` | `kanban serve` | `kanban mcp` |",
                     "|---|---|---|---|---|---|"]
        for operation in BoardOperation.allCases {
            lines.append("| \(operation.rawValue) | `\(operation.libraryCall)` | " + surfaces.map { cell($0.table[operation]) }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    @Test func theDocsShowTheTableAsTheSurfacesDeclareIt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent("docs/operations.md")
        var text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "<!-- operations table: made by OperationParityTests -->\n"))
        let end = try #require(text.range(of: "\n<!-- end of the operations table -->", range: start.upperBound..<text.endIndex))
        // UPDATE_DOCS=1 swift test --filter OperationParityTests writes the table anew.
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            text.replaceSubrange(start.upperBound..<end.lowerBound, with: Self.table())
            try text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[start.upperBound..<end.lowerBound]) == Self.table(),
                "docs/operations.md does not show the operations as the surfaces declare them; UPDATE_DOCS=1 swift test --filter OperationParityTests writes it")
    }
}
