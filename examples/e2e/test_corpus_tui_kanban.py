"""An agent does a task in `corpus/tui-kanban` (xRipzch/TUI-Kanban, ported to taria):
the official MCP client, the real `taria-mcp` bridge in spawn mode, the real app in
the bridge's pseudo-terminal, reading a vendored board.

The app keeps its board in `<config dir>/tui-kanban/projects.json`; the test runs it
with `HOME` set to a temporary folder holding a copy of `corpus/tui-kanban/sample/`
(the MCP client passes `HOME` on to the bridge, and the bridge to the app), so it
never reads or writes the real home.

The agent uses only ids and actions it read from the tree, and checks the board
ended where a person's keys would have left it: on the screen, in the tree and in
the file the app saved."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path

from harness import ROOT, dump, spawned

SAMPLE = ROOT / "corpus" / "tui-kanban" / "sample" / "projects.json"
TITLE = "Write release notes"


def nodes(outline: str, role: str) -> dict[str, str]:
    """The ids of `role` nodes in an outline, by label."""
    found = {}
    for line in outline.splitlines():
        m = re.match(rf'\s*- {role} "([^"]*)".*?\[id=("[^"]*"|[^\] ]+)', line)
        if m:
            found[m.group(1)] = m.group(2).strip('"')
    return found


def line_of(outline: str, node: str) -> str:
    """The outline's line of the node with that id."""
    ids = (f"[id={node}]", f"[id={node} ", f'[id="{node}"')
    return next(line for line in outline.splitlines() if any(i in line for i in ids))


def actions_of(line: str, prefix: str = "") -> set[str]:
    """The actions an outline line lists: its own (`{a, b}`), or with `prefix`
    `children`, those it says each of its children offers (`children{a, b}`)."""
    m = re.search(rf"(?<![a-z]){prefix}\{{([^}}]*)\}}", line)
    return {a.strip() for a in m.group(1).split(",")} if m else set()


def offered(outline: str, node: str) -> set[str]:
    """What the node offers: its own actions, else those its parent's line says
    its children offer."""
    return actions_of(line_of(outline, node)) or actions_of(
        line_of(outline, node.rsplit("/", 1)[0]), "children"
    )


def test_an_agent_adds_tags_and_moves_a_card(tmp_path: Path, monkeypatch) -> None:
    config = tmp_path / ".config" / "tui-kanban"
    config.mkdir(parents=True)
    shutil.copy(SAMPLE, config / "projects.json")
    monkeypatch.setenv("HOME", str(tmp_path))
    asyncio.run(_kanban(config / "projects.json"))


async def _kanban(saved: Path) -> None:
    async with spawned("corpus-tui-kanban", cols=100, rows=30, bin=True) as (agent, _):
        tree = await agent.ok("read_tree")
        outline = tree["outline"]
        # The vendored board, not a default one the app made up.
        assert "Project: Launch" in nodes(outline, "heading"), dump(tree)
        columns = nodes(outline, "list")
        assert set(columns) == {"To Do", "In Progress", "Testing", "Done"}, dump(tree)
        todo, in_progress = columns["To Do"], columns["In Progress"]
        assert "add_task" in actions_of(line_of(outline, todo)), dump(tree)

        # A new card in To Do: the column's `add_task` opens the input, the agent
        # types the title into it (the focused text input) and submits it.
        opened = await agent.ok("act", node=todo, action="add_task")
        assert opened["status"] == "delivered", dump(opened)
        inputs = nodes(opened.get("changes") or opened["outline"], "text_input")
        assert "Add Task" in inputs, dump(opened)
        field = inputs["Add Task"]
        await agent.ok("type_text", text=TITLE)
        added = await agent.ok("act", node=field, action="submit")
        assert added["status"] == "delivered", dump(added)

        tree = await agent.ok("read_tree")
        card = nodes(tree["outline"], "list_item")[TITLE]
        assert card.startswith(f"{todo}/"), dump(tree)
        assert "[selected]" in line_of(tree["outline"], card), dump(tree)
        actions = offered(tree["outline"], card)
        assert {"add_tag", "move_forward"} <= actions, dump(tree)

        # A tag: the card's `add_tag` opens the input for it.
        tagging = await agent.ok("act", node=card, action="add_tag")
        assert "Add Tag" in nodes(tagging.get("changes") or tagging["outline"], "text_input"), dump(tagging)
        await agent.ok("type_text", text="urgent")
        tagged = await agent.ok("act", node=field, action="submit")
        assert tagged["status"] == "delivered", dump(tagged)
        assert '"#urgent"' in line_of(tagged.get("changes") or tagged["outline"], card), dump(tagged)

        # Then into In Progress.
        moved = await agent.ok("act", node=card, action="move_forward")
        assert moved["status"] == "delivered", dump(moved)
        tree = await agent.ok("read_tree")
        card = nodes(tree["outline"], "list_item")[TITLE]
        assert card.startswith(f"{in_progress}/"), dump(tree)
        cards = [line for line in tree["outline"].splitlines() if f'- list_item "{TITLE}"' in line]
        assert len(cards) == 1, dump(tree)

        # What a person would see: the card and its tag in the second column.
        rows = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        column = [row[25:50] for row in rows.splitlines()]
        assert any(TITLE in row for row in column), rows
        assert any("#urgent" in row for row in column), rows

        # A card in a column the app's keys do not have on: "Password reset email",
        # in Testing, into Done. The columns declare the keys the app moves the focus
        # between them by (`focus = cycle("l", "h")`), so taria presses `l` until
        # Testing has focus, moves the selection onto the card, then presses its `m`.
        tree = await agent.ok("read_tree")
        testing, done = columns["Testing"], columns["Done"]
        assert "[focused]" not in line_of(tree["outline"], testing), dump(tree)
        reset = nodes(tree["outline"], "list_item")["Password reset email"]
        assert reset.startswith(f"{testing}/"), dump(tree)
        moved = await agent.ok("act", node=reset, action="move_forward")
        assert moved["status"] == "delivered", dump(moved)
        tree = await agent.ok("read_tree")
        reset = nodes(tree["outline"], "list_item")["Password reset email"]
        assert reset.startswith(f"{done}/"), dump(tree)

    # And what the app saved, as a person's session would have left it.
    board = json.loads(saved.read_text())[0]["board"]["columns"]
    cards = {c["id"]: [(t["title"], t["tags"]) for t in c["tasks"]] for c in board}
    assert (TITLE, ["urgent"]) in cards["in_progress"], cards
    assert all(title != TITLE for title, _ in cards["todo"]), cards
    assert ("Password reset email", ["feature"]) in cards["done"], cards
    assert cards["testing"] == [], cards
