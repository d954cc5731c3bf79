"""An agent records a message with tui-input's ratatui example (`corpus/tui-input`,
sayanarijit/tui-input's `examples/ratatui_crossterm_input.rs`) through the real
`taria-mcp` bridge in spawn mode: the input line is a `text_input` whose `focus` and
`submit` are the app's own `e` and enter, read from the tree."""

from __future__ import annotations

import asyncio
import re

from harness import dump, spawned


def test_an_agent_records_a_message_through_the_input_line() -> None:
    asyncio.run(_record_a_message())


async def _record_a_message() -> None:
    async with spawned("corpus-tui-input", cols=80, rows=20, bin=True) as (agent, _):
        found = await agent.ok("find_nodes", role="text_input")
        [line] = found["matches"]
        # Not editing: it offers `focus` (the app's `e`); its `submit` (enter) waits for the
        # focus, as the app's Enter does nothing until then.
        assert line["label"] == "Input" and set(line["actions"]) == {"focus"}, dump(found)
        # Not focused yet: typing is refused, and nothing is pressed.
        refused = await agent.error("type_text", text="q")
        assert "no text input has focus" in refused["message"], dump(refused)
        steps = [
            {"tool": "act", "node": line["id"], "action": "focus"},
            {"tool": "type_text", "text": "hello from the agent"},
        ]
        typed = await agent.ok("batch", steps=steps, read=True)
        assert re.search(r'text_input "Input": "hello from the agent" .*\[focused\]', typed["read"]), dump(typed)
        sent = await agent.ok("act", node=line["id"], action="submit")
        assert sent["status"] == "delivered", dump(sent)
        tree = await agent.ok("read_tree")
        assert '- list_item "0: hello from the agent"' in tree["outline"], dump(tree)
        assert re.search(r'text_input "Input": "" .*\[focused\]', tree["outline"]), dump(tree)
        # What a person sees: the message in the list, the help line of editing mode.
        screen = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        assert "0: hello from the agent" in screen and "to stop editing" in screen, screen
