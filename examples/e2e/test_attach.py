"""Attach mode, as a developer uses it: the real `todo` example runs in a real
terminal (a tmux pane) and serves its socket; the agent host started
`taria-mcp --socket <path>` on its own. The bridge answers before the app runs,
connects on the first call after it starts, says `app_exited` when the user quits
the app, and picks the app up again when it is started anew."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from harness import TARGET, attached, binary, dump, tmux


async def eventually(agent, tool: str, done, what: str, timeout: float = 10, **arguments):
    """Calls `tool` until `done(result)`; fails with `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = await agent.call(tool, **arguments)
        if done(result):
            return result
        assert time.monotonic() < deadline, f"{what}: {dump(result.structured_content)}"
        await asyncio.sleep(0.1)


def task_line(outline: str, node: str) -> str:
    return next(line for line in outline.splitlines() if f"[id={node}]" in line)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)")
def test_an_agent_attaches_to_a_running_app_and_follows_it_across_a_restart() -> None:
    asyncio.run(_attach())


async def _attach() -> None:
    todo = str(binary(TARGET / "examples" / "todo"))
    # A short private directory: a socket path must fit in 108 bytes.
    with tempfile.TemporaryDirectory(prefix="taria-") as tmp, tmux() as terminal:
        socket = Path(tmp) / "todo.sock"
        env = {"TARIA_SOCKET": str(socket)}
        async with attached(socket) as (agent, _):
            # Nothing runs yet: the agent is told to start the app.
            none = await agent.error("read_tree")
            assert none["code"] == "app_not_connected", dump(none)
            assert "no app is running" in none["message"], dump(none)

            # The user starts the app; the next calls reach it.
            terminal.start("first", [todo], env)
            first = await eventually(
                agent, "read_tree", lambda r: not r.is_error, "the app was not reached"
            )
            outline = first.structured_content["outline"]
            assert "[unchecked]" in task_line(outline, "tasks/2"), outline
            toggled = await agent.ok("act", node="tasks/2", action="toggle")
            assert "tasks/2" in toggled["changedIds"], dump(toggled)
            # The user's terminal shows what the agent did.
            deadline = time.monotonic() + 10
            while "[x] Record a demo" not in terminal.screen("first"):
                assert time.monotonic() < deadline, terminal.screen("first")
                await asyncio.sleep(0.1)

            # The user quits the app: the agent is told it exited.
            terminal.run("send-keys", "-t", "first", "q")
            exited = await eventually(
                agent, "read_tree", lambda r: r.is_error, "the exit was not noticed"
            )
            assert exited.structured_content["code"] == "app_exited", dump(exited.structured_content)
            assert "start it again" in exited.structured_content["message"], dump(exited.structured_content)

            # Started again, it is picked up: a fresh app, a revision that moved on.
            terminal.start("second", [todo], env)
            second = await eventually(
                agent, "read_tree", lambda r: not r.is_error, "the restarted app was not reached"
            )
            again = second.structured_content
            assert "[unchecked]" in task_line(again["outline"], "tasks/2"), again["outline"]
            assert again["revision"] > first.structured_content["revision"], (again, first.structured_content)
            toggled = await agent.ok("act", node="tasks/3", action="toggle")
            assert "tasks/3" in toggled["changedIds"], dump(toggled)
