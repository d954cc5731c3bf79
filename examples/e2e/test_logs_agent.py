"""The app's log reaches an agent: the official MCP client, the real `taria-mcp`
bridge in spawn mode, the real `todo` example (which adds `taria::logs::layer()` to
its tracing subscriber). Submitting a task with an empty title is refused and logged
as a warning; the refused input's result says so, and `read_logs` reads it."""

from __future__ import annotations

import asyncio

import pytest

from harness import HANDSHAKE, MODERN, dump, spawned


@pytest.mark.parametrize("protocol", [HANDSHAKE, MODERN])
def test_a_warning_the_app_logs_reaches_the_agent(protocol: str) -> None:
    asyncio.run(_todo_warns(protocol))


def text_of(result) -> str:
    return "".join(block.text for block in result.content if getattr(block, "type", "") == "text")


async def _todo_warns(protocol: str) -> None:
    async with spawned("todo", protocol=protocol) as (agent, _):
        await agent.ok("read_tree")
        # Nothing at warn or worse yet; the cursor to read after.
        before = await agent.ok("read_logs")
        assert before["entries"] == [], dump(before)

        # Submit with no title: the app refuses, and logs a warning while handling it.
        refused = await agent.call("act", node="new-task", action="submit")
        assert refused.is_error, dump(refused.structured_content)
        said = text_of(refused)
        assert said.splitlines()[-1] == (
            '(1 warning logged: warn todo::app: "refused a task with an empty title")'
        ), said
        logged = refused.structured_content["logged"]
        assert logged == {"errors": 0, "warnings": 1, "since": before["next"]}, dump(logged)

        # The log tool has it, with its fields, after the cursor the result gave.
        logs = await agent.ok("read_logs", since=logged["since"])
        [entry] = logs["entries"]
        assert entry["level"] == "warn" and entry["target"] == "todo::app", dump(entry)
        assert entry["message"] == "refused a task with an empty title", dump(entry)
        assert entry["fields"] == {"draft": ""}, dump(entry)
        assert (await agent.ok("read_logs", since=logs["next"]))["entries"] == []

        # An input that logs nothing at warn or worse says nothing of the log.
        await agent.ok("act", node="new-task", action="set_value", value="ship v1")
        added = await agent.call("act", node="new-task", action="submit")
        assert not added.is_error and "logged" not in text_of(added), text_of(added)
        assert "logged" not in added.structured_content, dump(added.structured_content)
