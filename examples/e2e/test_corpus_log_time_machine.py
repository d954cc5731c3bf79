"""An agent does a task in `corpus/log-time-machine` (LxYuan0420/log-time-machine, ported
to taria): the official MCP client, the real `taria-mcp` bridge in spawn mode, the real
app in the bridge's pseudo-terminal, tailing its built-in mock feed, which draws new
lines every 200 ms from a seeded generator (the same lines in the same order every
run, only their clock times and how many arrive per tick vary).

The app reads `<config dir>/logtm/config.toml`; the test runs it with `HOME` set to a
temporary folder holding a copy of `corpus/log-time-machine/samples/config.toml`, so
it never reads the real home.

The agent uses only ids and actions it read from the tree: it filters the live log to
the lines that mention a deadlock, pauses it, and checks that what it shows then holds
still while new lines keep arriving, and that every line shown (and only such lines)
mentions deadlock."""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path

from harness import ROOT, dump, spawned

CONFIG = ROOT / "corpus" / "log-time-machine" / "samples" / "config.toml"


def nodes(outline: str, role: str) -> dict[str, str]:
    """The ids of `role` nodes in an outline, by label."""
    found = {}
    for line in outline.splitlines():
        m = re.match(rf'\s*- {role} "([^"]*)".*?\[id=("[^"]*"|[^\] ]+)', line)
        if m:
            found[m.group(1)] = m.group(2).strip('"')
    return found


def log_lines(outline: str) -> list[str]:
    """The labels of the items of the `Logs` list, top to bottom."""
    lines = outline.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r'\s*- list "Logs"', line))
    depth = len(lines[start]) - len(lines[start].lstrip())
    items = []
    for line in lines[start + 1 :]:
        if len(line) - len(line.lstrip()) <= depth:
            break
        if m := re.match(r'\s*- list_item "([^"]*)"', line):
            items.append(m.group(1))
    return items


def line_of(outline: str, node: str) -> str:
    """The outline's line of the node with that id."""
    return next(line for line in outline.splitlines() if f"[id={node}]" in line or f"[id={node} " in line)


def test_an_agent_filters_and_pauses_the_live_log(tmp_path: Path, monkeypatch) -> None:
    config = tmp_path / ".config" / "logtm"
    config.mkdir(parents=True)
    shutil.copy(CONFIG, config / "config.toml")
    monkeypatch.setenv("HOME", str(tmp_path))
    asyncio.run(_log())


async def _log() -> None:
    async with spawned("corpus-log-time-machine", cols=120, rows=40, bin=True) as (agent, _):
        tree = await agent.ok("read_tree")
        outline = tree["outline"]
        fields = nodes(outline, "text_input")
        assert "Filter" in fields, dump(tree)
        status = nodes(outline, "status")
        assert "LIVE" in status, dump(tree)
        filter_id, mode_id = fields["Filter"], status["LIVE"]

        # The log animates: new lines arrive on the app's timer.
        changed = await agent.ok("wait_for_change", since=tree["revision"], timeout_ms=5000)
        assert changed["changed"] is True, dump(changed)

        # Filter: the input's `focus` opens it, the agent types and submits.
        await agent.ok("act", node=filter_id, action="focus")
        await agent.ok("type_text", text="deadlock")
        applied = await agent.ok("act", node=filter_id, action="submit")
        assert applied["status"] == "delivered", dump(applied)
        assert '"deadlock"' in line_of(applied.get("changes") or applied["outline"], filter_id), dump(applied)

        # Wait for a line to match (the seeded feed has one every few seconds).
        await agent.ok("wait_for_change", role="list_item", label="deadlock", timeout_ms=30000)

        # Pause, then check that the view holds still while lines keep arriving.
        paused = await agent.ok("act", node=mode_id, action="pause_resume")
        assert paused["status"] == "delivered", dump(paused)
        tree = await agent.ok("read_tree")
        assert "PAUSED" in nodes(tree["outline"], "status"), dump(tree)
        shown = log_lines(tree["outline"])
        assert shown and all("deadlock" in line for line in shown), dump(tree)
        queued = queued_lines(await screen(agent))
        await asyncio.sleep(1.5)
        later = await agent.ok("read_tree")
        assert log_lines(later["outline"]) == shown, dump(later)

        # The screen says the same: only deadlock lines in the log's box, held still
        # while the lines that kept arriving wait in the queue the header counts.
        text = await screen(agent)
        assert queued_lines(text) > queued, text
        logged = [row for row in text.splitlines() if re.search(r"\d\d:\d\d:\d\d (INFO|WARN|ERROR)", row)]
        assert len(logged) == len(shown) and all("deadlock" in row for row in logged), text


async def screen(agent) -> str:
    """The app's screen as the bridge's terminal shows it."""
    return "\n".join((await agent.ok("read_tree", format="screen"))["rows"])


def queued_lines(screen: str) -> int:
    """The header's count of the lines that arrived while paused (`Queued: +N`)."""
    m = re.search(r"Queued: \+(\d+)", screen)
    assert m, screen
    return int(m.group(1))
