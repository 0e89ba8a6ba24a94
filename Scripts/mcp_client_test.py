"""Drives `kanban mcp` with the stdio client of PyPI's `mcp` package: a client we did not write.

Run by Scripts/mcp-client-test.sh, which makes the virtual environment. Usage:
    python mcp_client_test.py KANBAN_BINARY SAMPLE_BOARD
Prints one line per check, then `N passed, M failed`; exits 1 when a check failed.
"""

import asyncio
import json
import os
import shutil
import sys
import tempfile

from mcp import Client, StdioServerParameters

passed = 0
failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name} {detail}")


def text_of(result):
    return "".join(getattr(block, "text", "") for block in result.content)


async def drive(binary, board, mode):
    server = StdioServerParameters(command=binary, args=["--quiet", "mcp", "--board", board], env={"NO_COLOR": "1"})
    async with Client(server, mode=mode) as client:
        tag = f"[{mode}]"
        check(f"{tag} connected at a protocol version", client.session.protocol_version is not None)
        instructions = client.session.instructions or ""
        check(f"{tag} instructions say how to use the board", "move_card" in instructions, instructions[:80])

        tools = await client.list_tools()
        names = sorted(tool.name for tool in tools.tools)
        expected = sorted(["board", "list_cards", "search_cards", "show_card", "add_card", "update_card", "move_card",
                           "archive_card", "unarchive_card", "delete_card", "ready_cards", "claim_card", "release_card",
                           "board_status", "sync"])
        check(f"{tag} list tools", names == expected, str(names))
        move = next(tool for tool in tools.tools if tool.name == "move_card")
        columns = move.input_schema["properties"]["column"].get("enum")
        check(f"{tag} column ids are an enum", columns == ["backlog", "todo", "in-progress", "review", "done"], str(columns))
        check(f"{tag} move_card is not read-only", move.annotations is not None and move.annotations.read_only_hint is False)

        title = f"Agent card {mode}"
        added = await client.call_tool("add_card", {"title": title, "labels": ["bug"]})
        card = (added.structured_content or {}).get("card", {})
        check(f"{tag} add a card", not added.is_error and card.get("title") == title and card.get("column") == "backlog",
              text_of(added))
        slug = card.get("slug", "")
        check(f"{tag} the text content is the same JSON", json.loads(text_of(added)) == added.structured_content)

        moved = await client.call_tool("move_card", {"card": slug, "column": "in-progress", "top": True})
        moved_card = (moved.structured_content or {}).get("card", {})
        check(f"{tag} move it", not moved.is_error and moved_card.get("column") == "in-progress", text_of(moved))

        shown = await client.call_tool("show_card", {"card": slug})
        shown_card = shown.structured_content or {}
        check(f"{tag} show it with its body", not shown.is_error and shown_card.get("path") == f"cards/in-progress/{slug}.md"
              and "body" in shown_card, text_of(shown))

        missing = await client.call_tool("move_card", {"card": slug, "column": "nowhere"})
        check(f"{tag} a missing column is a tool error naming the columns", missing.is_error and "in-progress" in text_of(missing),
              text_of(missing))

        # The agent loop: the first ready card is claimed by this agent, and a second claim of it is refused.
        ready = await client.call_tool("ready_cards", {})
        first = ((ready.structured_content or {}).get("cards") or [{}])[0].get("slug")
        claimed = await client.call_tool("claim_card", {"next": True, "name": f"agent-{mode}"})
        claimed_card = (claimed.structured_content or {}).get("card", {})
        check(f"{tag} claim the first ready card", not claimed.is_error and claimed_card.get("slug") == first
              and claimed_card.get("fields", {}).get("claimed-by") == f"agent-{mode}", text_of(claimed))
        again = await client.call_tool("claim_card", {"card": first, "name": "someone-else"})
        check(f"{tag} a held card is refused, naming the holder", again.is_error and f"agent-{mode}" in text_of(again), text_of(again))

        resource = await client.read_resource(f"kanban://card/{slug}")
        contents = resource.contents[0]
        check(f"{tag} read the card resource", getattr(contents, "text", "").startswith("---") and title in contents.text)


async def drive_two_boards(binary, boards):
    """`kanban mcp DIR` on a directory of two boards: every tool takes `board`, and a card lands in the board named."""
    server = StdioServerParameters(command=binary, args=["--quiet", "mcp", boards], env={"NO_COLOR": "1"})
    async with Client(server, mode="legacy") as client:
        tag = "[two boards]"
        tools = await client.list_tools()
        add = next(tool for tool in tools.tools if tool.name == "add_card")
        enum = add.input_schema["properties"].get("board", {}).get("enum")
        check(f"{tag} add_card takes board, an enum of the names", enum == ["lumen", "side"], str(enum))
        check(f"{tag} board is required", "board" in add.input_schema.get("required", []), str(add.input_schema.get("required")))
        listed = await client.call_tool("boards", {})
        names = [board.get("name") for board in (listed.structured_content or {}).get("boards", [])]
        check(f"{tag} the boards tool lists them", not listed.is_error and names == ["lumen", "side"], text_of(listed))
        wrong = await client.call_tool("add_card", {"board": "nowhere", "title": "Lost"})
        check(f"{tag} a wrong board is a tool error naming the boards", wrong.is_error and "lumen, side" in text_of(wrong), text_of(wrong))
        added = await client.call_tool("add_card", {"board": "side", "title": "Side card from an agent"})
        card = (added.structured_content or {}).get("card", {})
        check(f"{tag} add a card to the second board", not added.is_error and card.get("column") == "todo", text_of(added))
        landed = os.path.join(boards, "side", "cards", "todo", "side-card-from-an-agent.md")
        check(f"{tag} it lands on disk in that board", os.path.exists(landed), landed)
        elsewhere = [name for _, _, files in os.walk(os.path.join(boards, "lumen")) for name in files if "side-card" in name]
        check(f"{tag} and not in the first", not elsewhere, str(elsewhere))
        resource = await client.read_resource("kanban://boards/side/card/side-card-from-an-agent")
        check(f"{tag} read it as the second board's resource", "Side card from an agent" in getattr(resource.contents[0], "text", ""))


async def main():
    binary, sample = sys.argv[1], sys.argv[2]
    root = tempfile.mkdtemp(prefix="kanban-mcp-client-")
    try:
        board = os.path.join(root, "board")
        shutil.copytree(sample, board)
        for mode in ("legacy", "auto"):
            try:
                await drive(binary, board, mode)
            except Exception as error:  # a client-side failure is a failed check, not a crash of the script
                check(f"[{mode}] the session ran to the end", False, repr(error))
        boards = os.path.join(root, "boards")
        shutil.copytree(sample, os.path.join(boards, "lumen"))
        side = os.path.join(boards, "side")
        os.makedirs(os.path.join(side, "cards", "todo"))
        os.makedirs(os.path.join(side, "cards", "done"))
        os.makedirs(os.path.join(side, "archive"))
        with open(os.path.join(side, "board.md"), "w", encoding="utf-8") as file:
            file.write("---\ntitle: Side\ncolumns:\n  - id: todo\n    name: To Do\n  - id: done\n    name: Done\n---\n")
        try:
            await drive_two_boards(binary, boards)
        except Exception as error:
            check("[two boards] the session ran to the end", False, repr(error))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
