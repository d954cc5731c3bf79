"""An agent does the todo task through taria: the official MCP client, the real
`taria-mcp` bridge in spawn mode, the real `todo` example in the bridge's
pseudo-terminal. The session has every kind of line a recording holds: a resize, a
batch, a modal dialog, the bridge's refusals, and the app's exit. Once per protocol era: 2025-11-25 (an `initialize` handshake) and
2026-07-28 (none; what the SDK's `Client` negotiates by default)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness import HANDSHAKE, MODERN, check_recording, dump, keep_recording, spawned


@pytest.mark.parametrize("protocol", [HANDSHAKE, MODERN])
def test_an_agent_adds_completes_filters_and_deletes_a_task(tmp_path: Path, protocol: str) -> None:
    """The session is recorded (`--record`), one input line per input sent."""
    recording = tmp_path / "todo.jsonl"
    agent = asyncio.run(_todo_task(protocol, recording))
    check_recording(recording, agent, "todo")
    if protocol == HANDSHAKE:
        keep_recording(recording, "todo", "add-complete-delete")


def test_a_2026_client_hears_of_tree_changes_on_its_listen_stream() -> None:
    asyncio.run(_listen_for_changes())


async def _listen_for_changes() -> None:
    async with spawned("todo", protocol=MODERN) as (agent, client):
        # `resources/subscribe` is gone in 2026-07-28; a client listens instead.
        async with client.listen(resource_subscriptions=["taria://tree"]) as stream:
            assert stream.honored.resource_subscriptions == ["taria://tree"], stream.honored
            await agent.ok("act", node="tasks/2", action="toggle")

            async def first_event():
                async for event in stream:
                    return event

            event = await asyncio.wait_for(first_event(), timeout=10)
            assert getattr(event, "uri", None) == "taria://tree", event
        # The resource reads the tree the update was about.
        read = await client.read_resource("taria://tree")
        text = read.contents[0].text
        line = next(line for line in text.splitlines() if "[id=tasks/2]" in line)
        assert "[checked]" in line, text


async def _todo_task(protocol: str, record: Path):
    async with spawned("todo", protocol=protocol, record=record) as (agent, init):
        assert init.server_info.name == "taria-mcp"
        assert "untrusted" in (init.instructions or "").lower()
        tools = {tool.name: tool for tool in (await agent.session.list_tools()).tools}
        for name in ("read_tree", "find_nodes", "act", "type_text", "press_key", "wait_for_change", "read_logs", "resize"):
            assert name in tools, name
            assert tools[name].input_schema["type"] == "object"
        assert tools["read_tree"].annotations.read_only_hint is True

        tree = await agent.ok("read_tree")
        assert '[id=new-task]' in tree["outline"], dump(tree)
        # A bigger terminal: the app draws the same tasks in it.
        resized = await agent.ok("resize", cols=110, rows=32)
        assert resized["changed"] and "[id=new-task]" in resized["outline"], dump(resized)

        # Add "ship v0" through the text input's handlers.
        await agent.ok("act", action="set_value", node="new-task", value="ship v0")
        added = await agent.ok("act", node="new-task", action="submit")
        assert added["status"] == "delivered", dump(added)
        # Only what changed comes back: the old tasks, whose count only went up, are
        # not listed again.
        assert not {"tasks/1", "tasks/2", "tasks/3"} & set(added["changedIds"]), dump(added)
        found = await agent.ok("find_nodes", label="ship v0", role="list_item")
        # Label search is case-insensitive: the sample task "Ship v0" matches too.
        ours = [m for m in found["matches"] if m["label"] == "ship v0"]
        assert len(ours) == 1, dump(found)
        task = ours[0]["id"]

        # Mark it done and switch to the Done filter in one batch, see it there.
        toggled = await agent.ok(
            "batch",
            steps=[
                {"tool": "act", "node": task, "action": "toggle"},
                {"tool": "act", "node": "filter/done", "action": "select"},
            ],
        )
        assert task in toggled["changedIds"], dump(toggled)
        done = await agent.ok("find_nodes", role="list_item", id=task)
        assert done["matches"][0]["checked"] is True, dump(done)
        tabs = await agent.ok("find_nodes", role="tab", state=["selected"])
        assert [m["label"] for m in tabs["matches"]] == ["Done"], dump(tabs)

        # Delete it: a modal confirmation appears; nothing behind it can be acted on.
        asked = await agent.ok("act", node=task, action="delete")
        assert "dialog confirm-delete opened" in asked["events"], dump(asked)
        dialog = await agent.ok("find_nodes", role="dialog")
        assert dialog["matches"][0]["id"] == "confirm-delete", dump(dialog)
        blocked = await agent.error("act", node="filter/all", action="select")
        assert blocked["code"] == "action_unsupported", dump(blocked)
        await agent.ok("act", node="confirm-delete", action="submit")
        gone = await agent.ok("find_nodes", id=task)
        assert gone["total"] == 0, dump(gone)

        # What a person sees agrees.
        screen = await agent.ok("read_tree", format="screen")
        text = "\n".join(screen["rows"])
        assert "ship v0" not in text
        assert "Deleted the task" in text, text

        # Errors say what to do next.
        missing = await agent.error("act", node="tasks/999", action="toggle")
        assert missing["code"] == "not_found" and "read_tree" in missing["message"], dump(missing)
        bad_key = await agent.error("press_key", key="ctrl+")
        assert bad_key["code"] == "invalid_arguments" and "modifiers" in bad_key["message"], dump(bad_key)

        # Done: quit the app, as a person would.
        quit = await agent.ok("press_key", key="q")
        assert "the app exited with exit status 0" in quit.get("note", ""), dump(quit)
        print(f"todo task: {agent.calls} tool calls, {agent.bytes_read} bytes read")
    return agent
