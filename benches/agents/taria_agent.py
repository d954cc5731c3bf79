"""The four benchmark tasks done through taria, as a careful agent does them: the
official MCP Python client, the real `taria-mcp` in spawn mode (120x40), the real
example app. The agent knows only the task's words: every id it uses it first read
in a result, and it checks each step on what the call returned.

What the model pays is counted: the text of every tool result, plus, once per
session, `tools/list` as the host shows it to the model (its JSON) and the server's
instructions. Calls are tool calls (`tools/list` is not one: the host makes it).
The bridge runs as hosts run it (no `--structured`); each result is counted twice,
as each family of host gives it to its model: text hosts (openai-agents, langchain,
the Vercel AI SDK, gemini-cli, LlamaIndex) the text, structured hosts (Claude Code,
Codex, fast-agent, pydantic-ai) the result's `structuredContent` as JSON when it has
one, else the text. `examples/e2e/hosts/` checks both with the real hosts.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scraper import COLS, ROWS, TARGET, app  # noqa: E402

BRIDGE = TARGET / "taria-mcp"


@dataclass
class Tally:
    calls: int = 0
    bytes: int = 0  # the results as text hosts give them
    structured_bytes: int = 0  # the results as structured hosts give them
    surface: int = 0  # tools/list + instructions, once per session
    ok: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.bytes + self.surface

    @property
    def structured_total(self) -> int:
        return self.structured_bytes + self.surface


class Agent:
    def __init__(self, session: ClientSession, tally: Tally) -> None:
        self.session = session
        self.tally = tally

    async def call(self, tool: str, **arguments) -> tuple[str, dict]:
        """One tool call: the text the model reads, and the structured result."""
        result = await self.session.call_tool(tool, arguments)
        text = "".join(b.text for b in result.content if getattr(b, "type", "") == "text")
        self.tally.calls += 1
        self.tally.bytes += len(text.encode())
        structured = result.structured_content
        shown = text if structured is None else json.dumps(structured, ensure_ascii=False, separators=(",", ":"))
        self.tally.structured_bytes += len(shown.encode())
        assert not result.is_error, f"{tool} {arguments}: {text[:2000]}"
        return readable(text), result.structured_content or {}

    async def setup(self, tool: str, **arguments) -> None:
        """The benchmark's own setup: not the agent's, not counted."""
        result = await self.session.call_tool(tool, arguments)
        assert not result.is_error, result


def readable(text: str) -> str:
    """What a model takes from a result's text: its outline lines. A text that is a
    JSON object (an escaped outline inside) is read as the model would, unescaped."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if not isinstance(value, dict):
        return text
    parts = [value[k] for k in ("changes", "outline") if isinstance(value.get(k), str)]
    if isinstance(value.get("removedIds"), list):
        parts.append("removed: " + " ".join(value["removedIds"]))
    return "\n".join(parts) or text


def node_id(text: str, role: str, label: str) -> str:
    """The id of the node with `role` and `label` on an outline line of `text`."""
    found = re.search(rf'- {re.escape(role)} "{re.escape(label)}"[^\n]*?\[id=([^\]]+)\]', text)
    assert found, f"no {role} {label!r} in:\n{text[:3000]}"
    return found.group(1)


def node_like(text: str, role: str, word: str) -> str:
    """The id of the first `role` node whose label has `word` in it (any case)."""
    for found in re.finditer(rf'- {re.escape(role)} "([^"\n]*)"[^\n]*?\[id=([^\]]+)\]', text):
        if word.lower() in found.group(1).lower():
            return found.group(2)
    raise AssertionError(f"no {role} like {word!r} in:\n{text[:3000]}")


def line_of(text: str, node: str) -> str:
    found = re.search(rf"^.*\[id={re.escape(node)}\].*$", text, re.M)
    assert found, f"no line for {node} in:\n{text[:3000]}"
    return found.group(0)


async def todo(agent: Agent) -> None:
    text, _ = await agent.call("read_tree")
    field_id = node_id(text, "text_input", "New task")
    done = node_id(text, "tab", "Done")
    # Fill and submit in one call; the new task's line comes back.
    text, _ = await agent.call(
        "batch",
        steps=[
            {"tool": "act", "node": field_id, "action": "set_value", "value": "ship v0"},
            {"tool": "act", "node": field_id, "action": "submit"},
        ],
    )
    task = node_id(text, "list_item", "ship v0")
    # Done, the Done filter and delete in one call: the confirmation's id is only
    # known once it is open, so the batch ends there.
    text, _ = await agent.call(
        "batch",
        steps=[
            {"tool": "act", "node": task, "action": "toggle"},
            {"tool": "act", "node": done, "action": "select"},
            {"tool": "act", "node": task, "action": "delete"},
        ],
    )
    assert "[checked]" in line_of(text, task) and "[selected]" in line_of(text, done), text
    dialog = re.search(r"- dialog [^\n]*\[id=([^\]]+)\]", text)
    assert dialog, text
    text, _ = await agent.call("act", node=dialog.group(1), action="submit")
    removed = re.search(r"^removed: (.*)$", text, re.M)
    assert removed and task in removed.group(1).split(", "), text


async def form(agent: Agent) -> None:
    text, _ = await agent.call("read_tree")
    ids = {word: node_like(text, role, word) for role, word in (
        ("text_input", "Name"), ("text_input", "Email"), ("text_input", "Password"),
        ("checkbox", "Terms"), ("select", "Plan"), ("slider", "Seats"), ("button", "Submit"),
    )}
    text, _ = await agent.call(
        "batch",
        steps=[
            {"tool": "act", "node": ids["Name"], "action": "set_value", "value": "Ada Lovelace"},
            {"tool": "act", "node": ids["Email"], "action": "set_value", "value": "ada@example"},
            {"tool": "act", "node": ids["Password"], "action": "set_value", "value": "correct horse battery"},
            {"tool": "act", "node": ids["Terms"], "action": "toggle"},
            {"tool": "act", "node": ids["Plan"], "action": "set_value", "value": "Team"},
            {"tool": "act", "node": ids["Seats"], "action": "set_value", "value": 5},
            {"tool": "act", "node": ids["Submit"], "action": "activate"},
        ],
    )
    assert "[invalid" in line_of(text, ids["Email"]), text
    text, _ = await agent.call(
        "batch",
        steps=[
            {"tool": "act", "node": ids["Email"], "action": "set_value", "value": "ada@example.com"},
            {"tool": "act", "node": ids["Submit"], "action": "activate"},
        ],
    )
    assert "Submitted: Ada Lovelace <ada@example.com>" in text, text


async def dashboard(agent: Agent) -> None:
    await agent.setup("press_key", key="1")  # sorted by PID: not the agent's doing
    text, _ = await agent.call("read_tree")
    by_cpu = re.search(r'- tab "CPU%[^"]*" \[id=([^\]]+)\]', text)
    assert by_cpu, text
    # Sorting redraws the table: the rows come back with the result.
    table, _ = await agent.call("act", node=by_cpu.group(1), action="select")
    # A row is one line: its states, then its cells (the header row names them).
    rows = re.findall(r"- row \[id=(processes/\d+)\]([^\n:]*): ([^\n]*)", table)
    assert rows, table
    cpu = [float(json.loads(cells.split(" | ")[3])) for _, _, cells in rows]
    top = rows[cpu.index(max(cpu))]
    assert "[selected]" in top[1], table


async def files(agent: Agent) -> None:
    text, _ = await agent.call("read_tree")
    src = node_id(text, "tree_item", "src")
    text, _ = await agent.call("act", node=src, action="expand")
    main_rs = node_id(text, "tree_item", "main.rs")
    text, _ = await agent.call("act", node=main_rs, action="select")
    assert re.search(r'println!\(\\?"hi\\?"\)', text), text


TASKS = {"todo": (todo, ()), "form": (form, ()), "dashboard": (dashboard, ()), "files": (files, ("ROOT",))}


async def run(name: str, files_root: Path | None = None, structured: bool = False) -> Tally:
    """One task. With `structured`, the bridge runs with `--structured`, as every host
    session did before issue 29: what structured hosts read then."""
    task, args = TASKS[name]
    args = [str(files_root) if a == "ROOT" else a for a in args]
    params = StdioServerParameters(
        command=str(BRIDGE),
        args=[*(["--structured"] if structured else []), "--cols", str(COLS), "--rows", str(ROWS), "--", app(name), *args],
        env={"TARIA_LOG": "warn", "PATH": os.environ.get("PATH", "")},
    )
    tally = Tally()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=30) as session:
            init = await session.initialize()
            listed = await session.list_tools()
            surface = json.dumps(listed.model_dump(by_alias=True, exclude_none=True)["tools"], ensure_ascii=False, separators=(",", ":"))
            tally.surface = len(surface.encode()) + len((init.instructions or "").encode())
            try:
                await task(Agent(session, tally))
                tally.ok = True
            except AssertionError as failure:
                tally.notes.append(str(failure)[:2000])
    return tally


if __name__ == "__main__":
    import asyncio
    import tempfile

    from scraper import files_fixture

    with tempfile.TemporaryDirectory() as tmp:
        root = files_fixture(Path(tmp))
        for name in TASKS:
            t = asyncio.run(run(name, root))
            print(name, t.calls, t.bytes, t.surface, t.ok, t.notes[:1])
