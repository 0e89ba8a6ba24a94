#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import KanbanTestSupport
import Testing

@testable import KanbanServer

/// `kanban mcp` run as a child and talked to over pipes, as an MCP client talks to it.
@Suite struct MCPCommandTests {
    static var modern: [String: Any] { [
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": ["name": "kanban-tests", "version": "1"],
        "io.modelcontextprotocol/clientCapabilities": [String: Any](),
    ] }

    // MARK: Protocol generations

    @Test func theHandshakeNegotiatesTheVersionAndListsTheTools() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            let result = try server.initialize("2025-06-18")
            #expect(result["protocolVersion"] as? String == "2025-06-18")
            #expect((result["serverInfo"] as? [String: Any])?["name"] as? String == "kanban")
            #expect((result["instructions"] as? String)?.contains("move_card") == true)
            let capabilities = try #require(result["capabilities"] as? [String: Any])
            #expect((capabilities["resources"] as? [String: Any])?["subscribe"] as? Bool == true)
            #expect(try server.result("ping").isEmpty)

            let tools = try #require(try server.result("tools/list")["tools"] as? [[String: Any]])
            #expect(tools.map { $0["name"] as? String ?? "" } == ["board", "list_cards", "search_cards", "show_card", "add_card", "update_card",
                                                                  "move_card", "archive_card", "unarchive_card", "delete_card", "ready_cards", "claim_card",
                                                                  "release_card", "board_status", "sync"])
            for tool in tools {
                #expect(tool["outputSchema"] as? [String: Any] != nil, "\(tool)")
                let annotations = try #require(tool["annotations"] as? [String: Any])
                // Each hint where it means something: a tool that changes the board says whether it destroys.
                let readOnly = try #require(annotations["readOnlyHint"] as? Bool)
                #expect(readOnly || annotations["destructiveHint"] is Bool, "\(tool)")
            }
            let move = try #require(tools.first { $0["name"] as? String == "move_card" })
            let properties = try #require((move["inputSchema"] as? [String: Any])?["properties"] as? [String: Any])
            #expect((properties["column"] as? [String: Any])?["enum"] as? [String] == ["backlog", "todo", "in-progress", "review", "done"])
            let add = try #require(tools.first { $0["name"] as? String == "add_card" })
            let addInput = try #require(add["inputSchema"] as? [String: Any])
            #expect(addInput["required"] as? [String] == ["title"])
            let labels = try #require((addInput["properties"] as? [String: Any])?["labels"] as? [String: Any])
            #expect((labels["items"] as? [String: Any])?["enum"] as? [String] == ["feature", "bug", "design", "docs", "infra", "marketing"])
            #expect((tools.first { $0["name"] as? String == "delete_card" }?["annotations"] as? [String: Any])?["destructiveHint"] as? Bool == true)
            #expect((tools.first { $0["name"] as? String == "show_card" }?["annotations"] as? [String: Any])?["readOnlyHint"] as? Bool == true)

            // A version this server does not speak gets its newest; the client decides.
            let other = try MCPProcess(board: board)
            #expect(try other.initialize("1999-01-01")["protocolVersion"] as? String == "2025-11-25")
            other.closeInput()
            #expect(other.waitForExit() == 0)
            server.closeInput()
            #expect(server.waitForExit() == 0, "\(server)")
            #expect(server.strayLines.isEmpty, "\(server)")
        }
    }

    @Test func statelessRequestsNeedNoHandshake() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            let discover = try server.result("server/discover", ["_meta": Self.modern])
            #expect((discover["supportedVersions"] as? [String])?.contains("2026-07-28") == true)
            #expect((discover["supportedVersions"] as? [String])?.contains("2025-11-25") == true)
            #expect(discover["resultType"] as? String == "complete")
            #expect(discover["capabilities"] is [String: Any])
            #expect((discover["instructions"] as? String)?.isEmpty == false)
            let meta = try #require(discover["_meta"] as? [String: Any])
            #expect((meta["io.modelcontextprotocol/serverInfo"] as? [String: Any])?["name"] as? String == "kanban")

            let tools = try server.result("tools/list", ["_meta": Self.modern])
            #expect((tools["tools"] as? [Any])?.count == 15)
            #expect(tools["ttlMs"] as? Int == 0 && tools["cacheScope"] as? String == "private")
            let shown = try server.callTool("show_card", ["card": "press-kit"], meta: Self.modern)
            #expect(shown["resultType"] as? String == "complete")
            #expect((shown["structuredContent"] as? [String: Any])?["slug"] as? String == "press-kit-and-screenshots", "\(shown)")

            var wrongVersion = Self.modern
            wrongVersion["io.modelcontextprotocol/protocolVersion"] = "2099-01-01"
            let refused = try server.request("tools/list", ["_meta": wrongVersion])
            let error = try #require(refused["error"] as? [String: Any])
            #expect(error["code"] as? Int == -32022)
            #expect(((error["data"] as? [String: Any])?["supported"] as? [String])?.contains("2026-07-28") == true)

            var noCapabilities = Self.modern
            noCapabilities["io.modelcontextprotocol/clientCapabilities"] = nil
            #expect((try server.request("tools/list", ["_meta": noCapabilities])["error"] as? [String: Any])?["code"] as? Int == -32602)

            // A method it does not know is answered at once, in both generations.
            #expect((try server.request("prompts/list", ["_meta": Self.modern])["error"] as? [String: Any])?["code"] as? Int == -32601)
            #expect((try server.request("no/such/method")["error"] as? [String: Any])?["code"] as? Int == -32601)
            server.closeInput()
            #expect(server.waitForExit() == 0, "\(server)")
        }
    }

    // MARK: Tools

    @Test func readingToolsAnswerWithTheJSONOfTheCommandLine() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            try server.initialize()

            let overview = structured(try server.callTool("board"))
            #expect(overview["title"] as? String == "Lumen 2.0 Launch")
            let columns = try #require(overview["columns"] as? [[String: Any]])
            #expect(columns.map { $0["id"] as? String ?? "" } == ["backlog", "todo", "in-progress", "review", "done"])
            #expect(columns.map { $0["count"] as? Int ?? -1 } == [5, 5, 5, 4, 6])
            #expect((overview["labels"] as? [[String: Any]])?.count == 6)
            #expect(overview["archived"] as? Int == 4)

            let todo = try board.listJSON(["--column", "todo"])
            let listed = try server.callTool("list_cards", ["column": "todo"])
            #expect((structured(listed)["cards"] as? [[String: Any]])?.map { $0["slug"] as? String ?? "" } == todo.map(\.slug))
            // The text is the same JSON as the structured result.
            let text = try #require(content(listed).data(using: .utf8))
            #expect(NSDictionary(dictionary: try #require(try JSONSerialization.jsonObject(with: text) as? [String: Any]))
                    == NSDictionary(dictionary: structured(listed)))
            let bugs = structured(try server.callTool("list_cards", ["labels": ["bug"]]))
            #expect((bugs["cards"] as? [[String: Any]])?.allSatisfy { ($0["labels"] as? [String])?.contains("bug") == true } == true)
            let bugCards = try board.listJSON(["--label", "bug"])
            #expect(bugs["count"] as? Int == bugCards.count)
            let archived = structured(try server.callTool("list_cards", ["archived": true]))
            #expect(archived["count"] as? Int == 4)

            let found = structured(try server.callTool("search_cards", ["query": "thumbnail -column:done"]))
            let slugs = (found["cards"] as? [[String: Any]])?.map { $0["slug"] as? String ?? "" } ?? []
            #expect(slugs.contains("crash-on-launch-corrupted-thumbnail-cache"), "\(found)")
            #expect((found["cards"] as? [[String: Any]])?.first?["match"] is [String: Any])

            let shown = structured(try server.callTool("show_card", ["card": "cards/todo/press-kit-and-screenshots.md"]))
            let expected = try board.showJSON("press-kit-and-screenshots")
            #expect(shown["slug"] as? String == expected.slug && shown["title"] as? String == expected.title)
            #expect(shown["body"] as? String == expected.body && shown["path"] as? String == expected.path)
            #expect(structured(try server.callTool("show_card", ["card": "pick-the-launch-date"]))["archived"] as? Bool == true)

            let status = structured(try server.callTool("board_status"))
            #expect(status["state"] as? String == "not-a-repository", "\(status)")
            let sync = try server.callTool("sync")
            #expect(isError(sync), "sync outside git fails as kanban sync does: \(sync)")
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
    }

    @Test func changingToolsChangeTheBoardAsTheCommandsDo() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            try server.initialize()

            let added = structured(try server.callTool("add_card", ["title": "Agent wrote this"]))
            let card = try #require(added["card"] as? [String: Any])
            #expect(card["column"] as? String == "backlog" && card["path"] as? String == "cards/backlog/agent-wrote-this.md")
            #expect(board.exists("cards/backlog/agent-wrote-this.md"))
            #expect(try board.slugs(inColumn: "backlog").last == "agent-wrote-this")
            let top = structured(try server.callTool("add_card", ["title": "On top", "column": "todo", "labels": ["bug"], "body": "Hello\n", "top": true]))
            #expect((top["card"] as? [String: Any])?["body"] as? String == "Hello\n")
            #expect(try board.slugs(inColumn: "todo").first == "on-top")

            let before = try board.text("cards/todo/update-website-download-page.md")
            let updated = structured(try server.callTool("update_card", [
                "card": "update-website", "title": "Update the download page", "add_labels": ["docs"], "fields": ["assignee": "mei"],
            ]))
            #expect((updated["card"] as? [String: Any])?["title"] as? String == "Update the download page")
            let after = try board.text("cards/todo/update-website-download-page.md")
            let changes = lineChanges(from: before, to: after)
            #expect(changes.added.contains("assignee: mei") && changes.added.contains { $0.hasPrefix("title:") }, "\(changes)")
            #expect(changes.removed.count <= 3, "only the title, labels and modified lines change: \(changes)")
            #expect(CardText(after).body == CardText(before).body)

            let moved = structured(try server.callTool("move_card", ["card": "update-website", "column": "in-progress", "after": "crash-on"]))
            #expect(moved["from"] as? String == "todo")
            #expect(try board.slugs(inColumn: "in-progress").prefix(2) == ["crash-on-launch-corrupted-thumbnail-cache", "update-website-download-page"])
            let reordered = try server.callTool("move_card", ["card": "update-website", "bottom": true])
            let inProgress = try board.slugs(inColumn: "in-progress")
            #expect(!isError(reordered) && inProgress.last == "update-website-download-page")

            let archived = structured(try server.callTool("archive_card", ["card": "update-website"]))
            #expect((archived["card"] as? [String: Any])?["archived"] as? Bool == true)
            #expect(!board.exists("cards/in-progress/update-website-download-page.md"))
            let unarchived = structured(try server.callTool("unarchive_card", ["card": "update-website", "column": "review"]))
            #expect((unarchived["card"] as? [String: Any])?["column"] as? String == "review")
            #expect(board.exists("cards/review/update-website-download-page.md"))

            let deleted = structured(try server.callTool("delete_card", ["card": "agent-wrote"]))
            #expect(deleted["deleted"] as? String == "agent-wrote-this" && deleted["path"] as? String == "cards/backlog/agent-wrote-this.md")
            #expect(!board.exists("cards/backlog/agent-wrote-this.md"))
            let doctor = try board.run(["doctor"])
            #expect(doctor.status == 0, "\(doctor)")
            server.closeInput()
            #expect(server.waitForExit() == 0)
            #expect(server.strayLines.isEmpty, "\(server)")
        }
    }

    @Test func wrongArgumentsAreToolErrorsAnAgentCanActOn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            try server.initialize()
            let cases: [(String, [String: Any], String)] = [
                ("show_card", ["card": "no-such-card"], "no card"),
                ("show_card", ["card": "press-kit-and-screenshotz"], "did you mean: press-kit-and-screenshots"),
                ("move_card", ["card": "p", "column": "done"], "it could be: "),
                ("move_card", ["card": "press-kit", "column": "doing"], "the board's columns are: backlog, todo, in-progress, review, done"),
                ("list_cards", ["column": "doing"], "the board's columns are: backlog"),
                ("move_card", ["card": "press-kit"], "give the column"),
                ("move_card", ["card": "press-kit", "top": true, "after": "new-app"], "give one of top, bottom, before and after"),
                ("move_card", ["card": "press-kit", "colum": "done"], "unknown argument 'colum'"),
                ("add_card", [:], "'title' is required"),
                ("add_card", ["title": 7], "'title' must be a string"),
                ("add_card", ["title": "x", "column": "nowhere"], "nowhere"),
                ("update_card", ["card": "press-kit"], "nothing to change"),
                ("update_card", ["card": "press-kit", "add_labels": ["no-such-label"]], "no-such-label"),
                ("search_cards", ["query": "\"unclosed"], "is not closed"),
                ("unarchive_card", ["card": "press-kit-and-screenshots"], "press-kit-and-screenshots"),
                ("delete_card", ["card": ""], "'card' is required"),
            ]
            for (tool, arguments, message) in cases {
                let result = try server.callTool(tool, arguments)
                #expect(isError(result), "\(tool) \(arguments) should fail: \(result)")
                #expect(content(result).hasPrefix("error: ") && content(result).contains(message), "\(tool) \(arguments): \(content(result))")
                #expect(result["structuredContent"] == nil)
            }
            #expect(board.exists("cards/todo/press-kit-and-screenshots.md"), "nothing moved")

            let unknown = try server.request("tools/call", ["name": "rm_rf", "arguments": [String: Any]()])
            let error = try #require(unknown["error"] as? [String: Any])
            #expect(error["code"] as? Int == -32602 && (error["message"] as? String)?.contains("rm_rf") == true)
            #expect((try server.request("tools/call", ["name": "board", "arguments": [1]])["error"] as? [String: Any])?["code"] as? Int == -32602)
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
    }

    // MARK: Bad input

    @Test func malformedMessagesGetJSONRPCErrorsAndTheServerCarriesOn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            let garbage = [
                "garbage", "{", "[]", "null", "42", "\"text\"", "{\"jsonrpc\":\"1.0\",\"id\":101,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":102,\"method\":7}",
                "{\"jsonrpc\":\"2.0\",\"id\":103,\"method\":\"ping\",\"params\":5}", String(repeating: "[", count: 100_000),
                "{\"jsonrpc\":\"2.0\",\"id\":104}", "{\"a\":\"\\ud800\"}",
            ]
            for line in garbage { server.send(line) }
            server.write([0xFF, 0xFE, 0x7B, 0x0A])  // not UTF-8
            server.send("")  // blank lines are skipped
            let pong = try server.request("ping")
            #expect(pong["result"] is [String: Any], "the server carries on: \(server)")
            let errors = server.messages.filter { $0["error"] != nil }
            #expect(errors.count == garbage.count + 1, "one error per bad line: \(server)")
            let codes = errors.compactMap { ($0["error"] as? [String: Any])?["code"] as? Int }
            #expect(codes.allSatisfy { [-32700, -32600].contains($0) }, "\(codes)")
            #expect(codes.first == -32700)
            // A batch is answered as a batch.
            server.send("[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}]")
            #expect(server.waitForLine { $0.hasPrefix("[") && $0.contains("\"id\":\"a\"") } != nil, "\(server)")
            #expect(server.strayLines.filter { !$0.hasPrefix("[") }.isEmpty, "\(server)")
            server.closeInput()
            #expect(server.waitForExit() == 0, "\(server)")
        }
    }

    @Test func aHugeLineIsRefusedWithoutBeingHeldAndTheServerCarriesOn() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
            server.write(Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"".utf8))
            for _ in 0..<6 { server.write(chunk) }
            server.write(Array("\"}}\n".utf8))
            let refused = try #require(server.waitForMessage { $0["error"] != nil }, "\(server)")
            let error = try #require(refused["error"] as? [String: Any])
            #expect(error["code"] as? Int == -32600 && (error["message"] as? String)?.contains("limit") == true, "\(error)")
            #expect(try server.request("ping")["result"] != nil)
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
    }

    // MARK: Resources

    @Test func resourcesAreListedAndRead() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            try server.initialize()
            let listed = try #require(try server.result("resources/list")["resources"] as? [[String: Any]])
            let uris = listed.map { $0["uri"] as? String ?? "" }
            #expect(uris.first == "kanban://board")
            #expect(uris.contains("kanban://card/press-kit-and-screenshots"))
            let active = try board.listJSON()
            #expect(uris.count == 1 + active.count)
            let templates = try #require(try server.result("resources/templates/list")["resourceTemplates"] as? [[String: Any]])
            #expect(templates.first?["uriTemplate"] as? String == "kanban://card/{slug}")

            let card = try #require((try server.result("resources/read", ["uri": "kanban://card/press-kit-and-screenshots"])["contents"] as? [[String: Any]])?.first)
            #expect(card["text"] as? String == (try board.text("cards/todo/press-kit-and-screenshots.md")))
            #expect(card["mimeType"] as? String == "text/markdown")
            let overview = try #require((try server.result("resources/read", ["uri": "kanban://board"])["contents"] as? [[String: Any]])?.first)
            let markdown = try #require(overview["text"] as? String)
            #expect(markdown.hasPrefix("# Lumen 2.0 Launch\n") && markdown.contains("## In Progress (`in-progress`, 5 cards)"), "\(markdown)")
            #expect(markdown.contains("[Press kit and screenshots](kanban://card/press-kit-and-screenshots)"))

            for uri in ["kanban://card/press-kit", "kanban://card/nothing", "file:///etc/passwd", "kanban://card/../board.md"] {
                let answer = try server.request("resources/read", ["uri": uri])
                #expect((answer["error"] as? [String: Any])?["code"] as? Int == -32002, "\(uri): \(answer)")
            }
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
    }

    @Test func aSubscriberIsToldOfChangesOnDiskWhoeverMadeThem() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            try server.initialize()
            #expect(try server.result("resources/subscribe", ["uri": "kanban://card/update-website-download-page"]).isEmpty)
            #expect(try server.result("resources/subscribe", ["uri": "kanban://board"]).isEmpty)

            // Another kanban, then an editor's save.
            #expect(try board.run(["move", "update-website-download-page", "done"]).status == 0)
            let card = "kanban://card/update-website-download-page"
            #expect(server.waitForMessage { isUpdate($0, card) } != nil, "\(server)")
            #expect(server.waitForMessage { isUpdate($0, "kanban://board") } != nil, "\(server)")
            let seen = server.messages.count
            let path = "cards/done/update-website-download-page.md"
            try board.write(try board.text(path).replacingOccurrences(of: "title: ", with: "title: Edited "), to: path)
            #expect(server.waitForMessage(after: seen) { isUpdate($0, card) } != nil, "\(server)")

            #expect(try server.result("resources/unsubscribe", ["uri": card]).isEmpty)
            #expect(try board.run(["add", "Brand new"]).status == 0)
            #expect(server.waitForMessage { $0["method"] as? String == "notifications/resources/list_changed" } != nil, "\(server)")
            server.closeInput()
            #expect(server.waitForExit() == 0)
            #expect(server.strayLines.isEmpty)
        }
    }

    @Test func aListenStreamIsAcknowledgedToldOfChangesAndClosedWhenTheServerStops() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board)
            let card = "kanban://card/write-release-notes-for-2-0"
            server.send(["jsonrpc": "2.0", "id": 41, "method": "subscriptions/listen", "params": [
                "_meta": Self.modern,
                "notifications": ["resourceSubscriptions": [card, "https://elsewhere"], "resourcesListChanged": true, "toolsListChanged": true],
            ] as [String: Any]])
            let acknowledged = try #require(server.waitForMessage { $0["method"] as? String == "notifications/subscriptions/acknowledged" }, "\(server)")
            let params = try #require(acknowledged["params"] as? [String: Any])
            #expect((params["_meta"] as? [String: Any])?["io.modelcontextprotocol/subscriptionId"] as? Int == 41)
            let granted = try #require(params["notifications"] as? [String: Any])
            #expect(granted["resourceSubscriptions"] as? [String] == [card], "an unknown URI is not granted")

            #expect(try board.run(["set", "write-release-notes-for-2-0", "--title", "Release notes"]).status == 0)
            let updated = try #require(server.waitForMessage { isUpdate($0, card) }, "\(server)")
            #expect(((updated["params"] as? [String: Any])?["_meta"] as? [String: Any])?["io.modelcontextprotocol/subscriptionId"] as? Int == 41)
            #expect(try board.run(["add", "Listen for me"]).status == 0)
            #expect(server.waitForMessage { $0["method"] as? String == "notifications/resources/list_changed" } != nil, "\(server)")
            #expect(try board.run(["column", "add", "qa", "QA"]).status == 0)
            #expect(server.waitForMessage { $0["method"] as? String == "notifications/tools/list_changed" } != nil, "\(server)")
            // The new column is in the schemas now.
            let tools = try #require(try server.result("tools/list", ["_meta": Self.modern])["tools"] as? [[String: Any]])
            let move = try #require(tools.first { $0["name"] as? String == "move_card" }?["inputSchema"] as? [String: Any])
            #expect(((move["properties"] as? [String: Any])?["column"] as? [String: Any])?["enum"] as? [String] == ["backlog", "todo", "in-progress", "review", "done", "qa"])

            // A cancelled stream ends without an answer; one still open is answered when the server stops.
            server.send(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 41]])
            server.send(["jsonrpc": "2.0", "id": 42, "method": "subscriptions/listen", "params": ["_meta": Self.modern, "notifications": [String: Any]()]])
            #expect(server.waitForMessage { ($0["params"] as? [String: Any]).map { (($0["_meta"] as? [String: Any])?["io.modelcontextprotocol/subscriptionId"] as? Int) == 42 } == true } != nil)
            server.closeInput()
            #expect(server.waitForExit() == 0, "\(server)")
            let closing = server.messages.filter { ($0["result"] as? [String: Any])?["resultType"] as? String == "complete" && $0["id"] as? Int ?? 0 > 40 }
            #expect(closing.map { $0["id"] as? Int } == [42], "the cancelled stream gets no answer, the open one its last: \(server)")
            #expect((closing.first?["result"] as? [String: Any])?["resultType"] as? String == "complete")
        }
    }

    // MARK: Lifecycle and the board

    @Test func closingStandardInputOrSIGTERMExitsZero() throws {
        try withTemporaryBoard(.sample) { board throws in
            let closed = try MCPProcess(board: board)
            try closed.initialize()
            // A last message without its newline is still answered.
            closed.write(Array("{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\"}".utf8))
            closed.closeInput()
            #expect(closed.waitForExit() == 0, "\(closed)")
            #expect(closed.messages.contains { $0["id"] as? Int == 77 && $0["result"] != nil }, "\(closed)")
            #expect(closed.stderr.contains("serving the board at"), "diagnostics go to standard error: \(closed)")

            let terminated = try MCPProcess(board: board)
            try terminated.initialize()
            terminated.signal(SIGTERM)
            #expect(terminated.waitForExit() == 0, "\(terminated)")
            #expect(terminated.strayLines.isEmpty)
        }
    }

    @Test func aClientThatStoppedReadingCannotKeepItFromStopping() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(directory: board.path, environment: ["HOME": board.root], readsOutput: false)
            server.send(["jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": ["_meta": Self.modern, "notifications": [String: Any]()]])
            // Answers nobody reads fill the pipe until the server blocks writing one.
            let listing = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n"
            #expect(waitUntil { server.stderr.contains("serving the board") }, "\(server)")
            server.write(Array(String(repeating: listing, count: 40).utf8))
            #expect(waitUntil { server.unreadOutputBytes > 48_000 }, "the pipe fills up")
            server.signal(SIGTERM)
            #expect(server.waitForExit() == 0, "\(server)")
        }
    }

    @Test func aBoardLockedByAnotherCommandIsAClearErrorWithinTheLockTimeout() throws {
        try withTemporaryBoard(.sample) { board throws in
            let server = try MCPProcess(board: board, environment: ["KANBAN_LOCK_TIMEOUT": "1"])
            try server.initialize()
            let holder = open(board.path, O_RDONLY | O_DIRECTORY)
            #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
            defer { close(holder) }
            let started = Date()
            let result = try server.callTool("add_card", ["title": "Blocked"])
            #expect(isError(result) && content(result).contains("another kanban process") && content(result).contains("try again"), "\(result)")
            #expect(Date().timeIntervalSince(started) < 60)
            #expect(!board.exists("cards/backlog/blocked.md"))
            flock(holder, LOCK_UN)
            #expect(!isError(try server.callTool("add_card", ["title": "Unblocked"])))
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
    }

    @Test func withoutABoardToolsSayHowToPointAtOneAndTheClientsRootsFindIt() throws {
        try withTemporaryBoard(.sample) { board throws in
            // The temporary root holds the board in board/, and nothing above it is a board.
            let server = try MCPProcess(directory: board.root, environment: ["HOME": board.root])
            try server.initialize(capabilities: ["roots": ["listChanged": true]])
            let asked = try #require(server.waitForMessage { $0["method"] as? String == "roots/list" }, "\(server)")
            let lost = try server.callTool("board")
            #expect(isError(lost) && content(lost).contains("--board") && content(lost).contains("KANBAN_BOARD"), "\(lost)")
            #expect((try server.request("resources/read", ["uri": "kanban://board"])["error"] as? [String: Any])?["code"] as? Int == -32002)

            server.send(["jsonrpc": "2.0", "id": asked["id"] ?? 0, "result": ["roots": [["uri": URL(fileURLWithPath: board.path + "/cards").absoluteString]]]])
            let found = try server.callTool("board")
            #expect(structured(found)["title"] as? String == "Lumen 2.0 Launch", "\(found) \(server)")
            server.closeInput()
            #expect(server.waitForExit() == 0)

            // A board named with --board that is not there is an error to fix, whatever the roots.
            let named = try MCPProcess(["mcp", "--board", board.root + "/nowhere"], directory: board.root, environment: ["HOME": board.root])
            try named.initialize(capabilities: ["roots": [String: Any]()])
            let failed = try named.callTool("list_cards")
            #expect(isError(failed) && content(failed).contains("nowhere"), "\(failed)")
            named.closeInput()
            #expect(named.waitForExit() == 0)
            #expect(!named.messages.contains { $0["method"] as? String == "roots/list" })
        }
    }

    @Test func changesAreCommittedWhenTheBoardAsksForIt() throws {
        try withGitWorkspace { workspace throws in
            let repository = workspace.root + "/repo"
            try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
            try workspace.git(["init", "-q"], in: repository)
            #expect(try workspace.kanban(["init", ".", "--title", "Team"], in: repository).status == 0)
            try workspace.git(["add", "-A"], in: repository)
            try workspace.git(["commit", "-qm", "Board"], in: repository)

            var environment = workspace.environment
            environment["KANBAN_COMMIT"] = "1"
            // git as the server runs it notes what its standard input and output are.
            let log = workspace.root + "/descriptors.log"
            try workspace.script(workspace.root + "/git", """
                input=$(readlink /proc/$$/fd/0); output=$(readlink /proc/$$/fd/1)
                printf '%s\\n%s\\n' "$input" "$output" >> '\(log)'
                exec '\(workspace.gitPath)' "$@"
                """)
            environment["KANBAN_GIT"] = workspace.root + "/git"
            let server = try MCPProcess(directory: repository, environment: environment)
            try server.initialize()
            let added = structured(try server.callTool("add_card", ["title": "Fix login bug"]))
            let committed = try #require(added["committed"] as? [String: Any], "\(added)")
            #expect(committed["message"] as? String == "Add \"Fix login bug\" to To Do")
            let moved = structured(try server.callTool("move_card", ["card": "fix-login", "column": "done"]))
            #expect((moved["committed"] as? [String: Any])?["message"] as? String == "Move \"Fix login bug\" from To Do to Done")
            #expect(try workspace.subjects(in: repository, count: 2) == ["Move \"Fix login bug\" from To Do to Done", "Add \"Fix login bug\" to To Do"])
            #expect(try workspace.git(["status", "--porcelain"], in: repository).isEmpty)
            let status = structured(try server.callTool("board_status"))
            #expect(status["clean"] as? Bool == true && status["branch"] as? String == "main", "\(status)")
            #if os(Linux)
                // No git ever got the server's standard input (the client's pipe) or its standard output.
                let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
                #expect(lines.count >= 4, "\(lines)")
                for (index, line) in lines.enumerated() {
                    #expect(index % 2 == 0 ? line == "/dev/null" : !line.isEmpty && line != server.standardOutputIdentity, "\(lines)")
                }
            #endif
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
    }

    @Test func syncPullsWhatOthersPushedAndSaysWhatItDid() throws {
        try withGitWorkspace { workspace throws in
            let (ana, ben) = try workspace.makeSharedBoard()
            #expect(try workspace.kanban(["add", "From Ben", "--commit"], in: ben).status == 0)
            #expect(try workspace.kanban(["sync"], in: ben).status == 0)
            let server = try MCPProcess(directory: ana, environment: workspace.environment)
            try server.initialize()
            #expect(!isError(try server.callTool("add_card", ["title": "From Ana"])))
            let synced = try server.callTool("sync")
            let result = structured(synced)
            #expect(result["ok"] as? Bool == true, "\(synced) \(server)")
            let messages = (result["messages"] as? [String] ?? []).joined(separator: "\n")
            #expect(messages.contains("pulled") && messages.contains("pushed"), "\(messages)")
            let titles = (structured(try server.callTool("list_cards"))["cards"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
            #expect(titles?.sorted() == ["From Ana", "From Ben"])
            server.closeInput()
            #expect(server.waitForExit() == 0)
        }
    }

    @Test func helpShowsTheUsage() throws {
        try withTemporaryBoard(.sample) { board throws in
            let result = try board.run(["mcp", "--help"])
            #expect(result.status == 0)
            #expect(result.stdout.contains("USAGE: kanban mcp [<directory>...] [--board <directory>] [--commit]"), "\(result.stdout)")
            let wrong = try board.run(["mcp", "--port", "3"])
            #expect(wrong.status == 64 && wrong.stdout.isEmpty, "\(wrong)")
        }
    }
}

private func structured(_ result: [String: Any]) -> [String: Any] {
    result["structuredContent"] as? [String: Any] ?? [:]
}

private func content(_ result: [String: Any]) -> String {
    ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
}

private func isError(_ result: [String: Any]) -> Bool {
    result["isError"] as? Bool == true
}

private func isUpdate(_ message: [String: Any], _ uri: String) -> Bool {
    message["method"] as? String == "notifications/resources/updated" && (message["params"] as? [String: Any])?["uri"] as? String == uri
}

extension MCPProcess {
    /// The first complete line of standard output that `matches`, waiting up to 30 s.
    func waitForLine(_ matches: (String) -> Bool) -> String? {
        var found: String?
        _ = waitUntil {
            found = lines.first(where: matches)
            return found != nil
        }
        return found
    }
}
