"""An agent opens two levels of the tree in tui-tree-widget's own example app
(`corpus/tree-widget`, EdJoPaTo/tui-rs-tree-widget's `examples/example.rs`) and selects
a leaf inside them, through the real `taria-mcp` bridge in spawn mode. It uses only the
ids and actions it read from the tree: each `expand` is the app's `right` key, pressed
after the app's arrow keys selected the item."""

from __future__ import annotations

import asyncio
import re

from harness import dump, spawned


def tree_items(outline: str) -> dict[str, str]:
    """The ids of the tree's items in an outline, by label."""
    found = {}
    for line in outline.splitlines():
        m = re.match(r'\s*- tree_item "([^"]*)".*?\[id=("[^"]*"|[^\] ]+)', line)
        if m:
            found[m.group(1)] = m.group(2).strip('"')
    return found


def line_of(outline: str, node: str) -> str:
    return next(l for l in outline.splitlines() if f"[id={node} " in l or f"[id={node}]" in l)


def test_an_agent_opens_papa_and_victor_and_selects_whiskey() -> None:
    asyncio.run(_open_and_select())


async def _open_and_select() -> None:
    async with spawned("corpus-tree-widget", cols=100, rows=30, bin=True) as (agent, _):
        tree = await agent.ok("read_tree")
        items = tree_items(tree["outline"])
        assert "Whiskey" not in items, dump(tree)
        papa = items["Papa"]
        assert "expand" in line_of(tree["outline"], papa), dump(tree)
        opened = await agent.ok("act", node=papa, action="expand")
        assert opened["status"] == "delivered", dump(opened)
        tree = await agent.ok("read_tree")
        assert "[expanded]" in line_of(tree["outline"], papa), dump(tree)
        victor = tree_items(tree["outline"])["Victor"]
        opened = await agent.ok("act", node=victor, action="expand")
        assert opened["status"] == "delivered", dump(opened)
        tree = await agent.ok("read_tree")
        whiskey = tree_items(tree["outline"])["Whiskey"]
        picked = await agent.ok("act", node=whiskey, action="select")
        assert picked["status"] == "delivered", dump(picked)
        tree = await agent.ok("read_tree")
        assert "[selected]" in line_of(tree["outline"], whiskey), dump(tree)
        assert sum("[selected]" in l for l in tree["outline"].splitlines()) == 1, dump(tree)
        # Where a person's keys would have left it: the highlight on Whiskey, and the
        # state the app prints in its bottom border.
        screen = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        assert re.search(r">>\s+Whiskey", screen), screen
        assert 'selected: ["p", "v", "w"]' in screen, screen
