"""An agent finds how much garlic the recipe takes in ratatui's own table example
(`corpus/ratatui-table`, ratatui's `ratatui-widgets/examples/table.rs`) through the
real `taria-mcp` bridge in spawn mode. The example keeps its `TableState` in a local
of `main`; taria-widgets' `Table` (with an id) takes the agent's `select` on a cell
into that state, and the app's own keys go on moving it from there."""

from __future__ import annotations

import asyncio
import unicodedata

from harness import dump, spawned


def cell_text(rows: list[str], bounds: list[int]) -> str:
    """The text a person sees inside a one-line node's bounds `[x, y, w, h]`: the
    screen's columns, a wide character (the app's highlight symbol) taking two."""
    x, y, w, _ = bounds
    columns = []
    for ch in rows[y]:
        columns += [ch] + [""] * (unicodedata.east_asian_width(ch) in "WF")
    return "".join(columns[x : x + w]).strip()


def find(node: dict, id_: str) -> dict | None:
    if node.get("id") == id_:
        return node
    for child in node.get("children", []):
        if found := find(child, id_):
            return found
    return None


async def node_with_bounds(agent, id_: str) -> dict:
    tree = await agent.ok("read_tree", format="json", bounds=True)
    for root in tree["tree"]:
        if found := find(root, id_):
            return found
    raise AssertionError(f"{id_} is not in the tree: {dump(tree)}")


def test_an_agent_selects_the_garlic_quantity() -> None:
    asyncio.run(_select_the_garlic_quantity())


async def _select_the_garlic_quantity() -> None:
    async with spawned("corpus-ratatui-table", cols=100, rows=20, bin=True) as (agent, _):
        [table] = (await agent.ok("find_nodes", role="table"))["matches"]
        assert set(table["actions"]) >= {"select", "scroll"}, dump(table)
        [garlic] = (await agent.ok("find_nodes", role="row", label="Garlic"))["matches"]
        assert "selected" not in garlic.get("state", []), dump(garlic)
        cells = (await agent.ok("find_nodes", role="cell", label="Quantity"))["matches"]
        [quantity] = [c for c in cells if c["parentId"] == garlic["id"]]
        assert quantity["value"] == "2 cloves" and "select" in quantity["actions"], dump(cells)

        picked = await agent.ok("act", node=quantity["id"], action="select")
        assert picked["status"] == "delivered" and picked["changed"], dump(picked)
        [row] = (await agent.ok("find_nodes", role="row", state=["selected"]))["matches"]
        assert row["id"] == garlic["id"], dump(row)
        [cell] = (await agent.ok("find_nodes", role="cell", state=["selected"]))["matches"]
        assert cell["id"] == quantity["id"] and cell["value"] == "2 cloves", dump(cell)
        # What a person sees: the app's highlight symbol on the garlic row, and the
        # selected cell's bounds hold "2 cloves".
        rows = (await agent.ok("read_tree", format="screen"))["rows"]
        [marked] = [line for line in rows if "🍴" in line]
        assert marked.split() == ["🍴", "Garlic", "2", "cloves", "9", "kcal,", "2g", "carbs,", "0.4g", "protein"], rows
        drawn = await node_with_bounds(agent, quantity["id"])
        assert cell_text(rows, drawn["bounds"]) == "2 cloves", (drawn, rows)

        # The app's own keys move on from where the agent left its state: `k` (up)
        # keeps the column, `h` (left) moves it to the ingredient's name.
        for key in ("k", "h"):
            moved = await agent.ok("press_key", key=key)
            assert moved["status"] == "delivered" and moved["changed"], dump(moved)
        [cell] = (await agent.ok("find_nodes", role="cell", state=["selected"]))["matches"]
        assert cell["label"] == "Ingredient" and cell["value"] == "Bell Pepper", dump(cell)
        rows = (await agent.ok("read_tree", format="screen"))["rows"]
        assert [line.split()[:3] for line in rows if "🍴" in line] == [["🍴", "Bell", "Pepper"]], rows

        # Done: quit as the title says.
        quit = await agent.ok("press_key", key="q")
        assert "the app exited with exit status 0" in quit.get("note", ""), dump(quit)
