import KanbanCore
import KanbanTestSupport
import Testing

@testable import KanbanServer

/// What `tools/list` costs an agent's context, measured as bytes of the JSON sent (about four to a token): all the
/// tools under 4,000 tokens, the agent loop's core under 1,500, on the sample board (its columns and labels are enums
/// in the schemas).
@Suite struct MCPToolBudgetTests {
    private func sampleBoard() throws -> Board {
        try BoardStore(directory: TestFixtures.sampleBoard).loadBoard()
    }

    @Test func everyToolFitsInFourThousandTokensAndTheCoreInFifteenHundred() throws {
        let board = try sampleBoard()
        let all = MCPTools.listingBytes(.all, board: board)
        let core = MCPTools.listingBytes(.core, board: board)
        #expect(all / 4 < 4_000, "tools/list is \(all) bytes")
        #expect(core / 4 < 1_500, "the core tools are \(core) bytes")
        #expect(core < all)
    }

    @Test func theSelectionNamesToolsOrATier() throws {
        #expect(try MCPToolSelection(parsing: "all") == .all)
        #expect(try MCPToolSelection(parsing: "core") == .core)
        let named = try MCPToolSelection(parsing: "claim_card, show_card")
        #expect(named.tools(of: MCPTools.catalogue).map(\.name) == ["show_card", "claim_card"])
        let grown = try MCPToolSelection(parsing: "core,board")
        #expect(grown.tools(of: MCPTools.catalogue).count == MCPToolSelection.coreTools.count + 1)
        #expect(throws: MCPToolError.self) { try MCPToolSelection(parsing: "claim") }
        #expect(throws: MCPToolError.self) { try MCPToolSelection(parsing: " , ") }
    }
}
