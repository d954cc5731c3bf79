"""An agent opens two levels of the tree in tui-tree-widget's own example app
(`corpus/tree-widget`, EdJoPaTo/tui-rs-tree-widget's `examples/example.rs`) and selects
a leaf inside them, through the real `taria-mcp` bridge in spawn mode. It uses only the
ids and actions it read from the tree: the tree is taria_widgets' adapter of
tui-tree-widget's, which takes `expand`, `select` and `scroll` into the app's
`TreeState` (`open`, `select`, `scroll_down`) as it draws."""

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


def test_at_60x12_an_agent_scrolls_the_tree_to_its_lower_rows() -> None:
    asyncio.run(_scroll_to_the_last_row())


async def _scroll_to_the_last_row() -> None:
    """Found at 60×12: with two branches open, the tree's lower rows are below its
    view. The tree (taria_widgets::tui_tree_widget, with an id) offers `scroll`, taken
    into the app's `TreeState` as its mouse wheel's `scroll_down` is (nothing is
    selected: the view moves, down to the last row); rows that scrolled out read as
    scrolled out, not removed, and the last row is then selected by its id."""
    async with spawned("corpus-tree-widget", cols=60, rows=12, bin=True) as (agent, _):
        tree = await agent.ok("read_tree")
        for name in ("Bravo", "India"):
            node = tree_items(tree["outline"])[name]
            opened = await agent.ok("act", node=node, action="expand")
            assert opened["status"] == "delivered", dump(opened)
            tree = await agent.ok("read_tree")
        items = tree_items(tree["outline"])
        assert "Zulu" not in items, dump(tree)
        assert "scroll" in line_of(tree["outline"], "tree"), dump(tree)
        scrolled = await agent.ok("act", node="tree", action="scroll", direction="down", amount=20)
        assert scrolled["status"] == "delivered", dump(scrolled)
        # The rows above left the view: scrolled out, not removed.
        assert scrolled.get("scrolledOutIds"), dump(scrolled)
        assert not scrolled.get("removedIds"), dump(scrolled)
        tree = await agent.ok("read_tree")
        zulu = tree_items(tree["outline"])["Zulu"]
        # At the last row, a scroll down is refused, saying so, and nothing moves.
        refused = await agent.call("act", node="tree", action="scroll", direction="down", amount=1)
        assert refused.is_error, refused
        assert "its last row is at the top already" in refused.content[0].text, refused
        picked = await agent.ok("act", node=zulu, action="select")
        assert picked["status"] == "delivered", dump(picked)
        tree = await agent.ok("read_tree")
        assert "[selected]" in line_of(tree["outline"], zulu), dump(tree)
        # With the last row selected, a scroll down is refused too.
        refused = await agent.call("act", node="tree", action="scroll", direction="down", amount=1)
        assert refused.is_error, refused
        assert re.search(r"its last item \(\d+\) is selected already", refused.content[0].text), refused
        screen = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        assert re.search(r">>\s+Zulu", screen), screen
