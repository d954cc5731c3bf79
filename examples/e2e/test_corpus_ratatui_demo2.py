"""An agent reads a mail and a recipe in ratatui's demo2 app (`corpus/ratatui-demo2`,
ratatui's `examples/apps/demo2`) through the real `taria-mcp` bridge in spawn mode.

The app polls its events with a 20 ms timeout and draws every turn: 50 frames a
second, whether anything changed or not. Its five pages are tabs in the title bar,
switched by the app's left/right keys; the agent selects them by id, and taria presses
those keys (the Email page has tabs of its own, " Inbox / Sent / Drafts ", that nothing
switches: the port marks them `fixed`, so they offer no `select` and do not seem to
take the arrows too).
The inbox's mails and the recipe's ingredients are selected with the app's own up/down
keys (taria's key fallback, checked against the next frame): the draw rebuilds their
state from the app's index each frame."""

from __future__ import annotations

import asyncio

from harness import dump, spawned

SECOND_MAIL = {
    "from": "Bob <bob@example.com>",
    "subject": "Re: Hello",
    "body": "Hi Alice,\nI'm fine, thanks!\n\nBob",
}

# The recipe's quantities, in the table's order (the pepper's is left empty).
QUANTITIES = ["4 tbsp", "1", "4", "1", "1", "1", "1", "4", "1 tsp", "1/4 cup", ""]


async def page_tab(agent, title: str) -> dict:
    """The title bar's tab named `title` (its tabs are padded with spaces)."""
    tabs = (await agent.ok("find_nodes", role="tab"))["matches"]
    [tab] = [t for t in tabs if t.get("label", "").strip() == title and t["parentId"] == "tabs"]
    return tab


async def screen(agent) -> list[str]:
    """The screen's rows, without the colour swatch the app draws around each page."""
    rows = (await agent.ok("read_tree", format="screen"))["rows"]
    return [row.strip("▀▐ ") for row in rows]


async def select_page(agent, title: str) -> None:
    tab = await page_tab(agent, title)
    assert "selected" not in tab.get("state", []), dump(tab)
    moved = await agent.ok("act", node=tab["id"], action="select")
    assert moved["status"] == "delivered" and moved["changed"], dump(moved)
    tab = await page_tab(agent, title)
    assert "selected" in tab.get("state", []), dump(tab)


async def read_second_mail(agent) -> None:
    await select_page(agent, "Email")
    # The Email page's own tabs, whose " Inbox " nothing in the app ever leaves.
    tabs = (await agent.ok("find_nodes", role="tab"))["matches"]
    inner = [t for t in tabs if t["parentId"] != "tabs"]
    assert [t["label"].strip() for t in inner] == ["Inbox", "Sent", "Drafts"], dump(inner)
    assert "selected" in inner[0].get("state", []), dump(inner)
    assert all(not t.get("actions") for t in inner), dump(inner)

    [inbox] = (await agent.ok("find_nodes", role="list"))["matches"]
    mails = (await agent.ok("find_nodes", role="list_item"))["matches"]
    assert [m["parentId"] for m in mails] == [inbox["id"]] * len(mails), dump(mails)
    assert "selected" in mails[0].get("state", []), dump(mails)
    second = mails[1]
    assert second["label"].split() == [*SECOND_MAIL["from"].split(), *SECOND_MAIL["subject"].split()], dump(second)

    picked = await agent.ok("act", node=second["id"], action="select")
    assert picked["status"] == "delivered" and picked["changed"], dump(picked)
    [selected] = (await agent.ok("find_nodes", role="list_item", state=["selected"]))["matches"]
    assert selected["id"] == second["id"], dump(selected)

    # The mail view: its headers and its body, each a text node.
    texts = [t["value"] for t in (await agent.ok("find_nodes", role="text"))["matches"]]
    headers = f"From: {SECOND_MAIL['from']}\nSubject: {SECOND_MAIL['subject']}\n"
    assert any(t.startswith(headers) for t in texts), texts
    assert SECOND_MAIL["body"] in texts, texts
    # What a person sees: the highlight symbol on Bob's line, his headers and body.
    rows = await screen(agent)
    assert [r.split()[:2] for r in rows if r.startswith(">>")] == [[">>Bob", "<bob@example.com>"]], rows
    for line in [f"From: {SECOND_MAIL['from']}", f"Subject: {SECOND_MAIL['subject']}",
                 *filter(None, SECOND_MAIL["body"].splitlines())]:
        assert line in rows, (line, rows)


async def read_quantities(agent) -> list[str]:
    """Every ingredient's quantity, read from the table's rows on screen, scrolled by
    selecting the last row shown (and pressing the app's down key once it is)."""
    await select_page(agent, "Recipe")
    [table] = (await agent.ok("find_nodes", role="table"))["matches"]
    count = table["position"]["count"]
    quantities: dict[int, str] = {}
    for _ in range(count):
        rows = {r["id"]: r for r in (await agent.ok("find_nodes", role="row"))["matches"]}
        for cell in (await agent.ok("find_nodes", role="cell", label="Qty"))["matches"]:
            if "position" in rows[cell["parentId"]]:
                quantities[rows[cell["parentId"]]["position"]["index"]] = cell["value"]
        await check_screen(agent, rows)
        if len(quantities) == count:
            break
        last = max((r for r in rows.values() if "position" in r), key=lambda r: r["position"]["index"])
        if "selected" in last.get("state", []):
            moved = await agent.ok("press_key", key="down")
        else:
            moved = await agent.ok("act", node=last["id"], action="select")
        assert moved["status"] == "delivered" and moved["changed"], dump(moved)
    assert sorted(quantities) == list(range(count)), quantities
    return [quantities[i] for i in range(count)]


async def check_screen(agent, rows: dict[str, dict]) -> None:
    """Each row shown draws its quantity beside its ingredient's first line, as the
    tree says, and the selected one is the row the tree marks."""
    cells = (await agent.ok("find_nodes", role="cell"))["matches"]
    by_row: dict[str, dict[str, str]] = {}
    for cell in cells:
        by_row.setdefault(cell["parentId"], {})[cell["label"]] = cell["value"]
    drawn = await screen(agent)
    for row_id, cell in by_row.items():
        if "position" not in rows[row_id]:
            continue
        line = f"{cell['Qty']:<7} {cell['Ingredient'].splitlines()[0]}"
        assert any(row.endswith(line) for row in drawn), (line, drawn)


async def _read_mail_and_recipe() -> None:
    async with spawned("corpus-ratatui-demo2", cols=100, rows=30, bin=True) as (agent, _):
        await read_second_mail(agent)
        assert await read_quantities(agent) == QUANTITIES
        # Done: quit as the bottom bar says.
        quit = await agent.ok("press_key", key="q")
        assert "the app exited with exit status 0" in quit.get("note", ""), dump(quit)


def test_an_agent_reads_a_mail_and_the_recipe() -> None:
    asyncio.run(_read_mail_and_recipe())
