"""An agent writes a line into ratatui-textarea's `minimal` example (`corpus/textarea`,
ratatui/ratatui-textarea's `examples/minimal.rs`, tui-textarea's successor for ratatui
0.30) and finishes, through the real `taria-mcp` bridge in spawn mode: the text area is
a focused `text_area` whose value is its lines and whose `submit` is the app's esc,
read from the tree; the app prints its lines as it exits."""

from __future__ import annotations

import asyncio
import json

from harness import dump, spawned

FIRST = "Click to move the cursor, drag to select, scroll to move the view."


def test_an_agent_writes_a_line_and_reads_the_lines_the_app_printed() -> None:
    asyncio.run(_write_and_finish())


async def _write_and_finish() -> None:
    async with spawned("corpus-textarea", cols=100, rows=20, bin=True) as (agent, _):
        found = await agent.ok("find_nodes", role="text_area")
        [text] = found["matches"]
        assert text["value"].startswith(FIRST) and "submit" in text["actions"], dump(found)
        # The cursor starts at the top: the typed line goes in above the sample text.
        typed = await agent.ok("type_text", text="Written by an agent.\n")
        assert typed["status"] == "delivered", dump(typed)
        found = await agent.ok("find_nodes", id=text["id"])
        lines = found["matches"][0]["value"].split("\n")
        assert lines[:2] == ["Written by an agent.", FIRST] and len(lines) == 5, dump(found)
        screen = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        assert "Written by an agent." in screen, screen
        done = await agent.ok("act", node=text["id"], action="submit")
        assert "the app exited with exit status 0" in done["note"], dump(done)
        # What it printed, quoted as one JSON string: `Lines: [...]` with the new line first.
        assert json.dumps('Lines: ["Written by an agent.", "Click')[1:-1] in done["note"], dump(done)
