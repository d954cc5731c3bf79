"""The screen as a picture for a model that reads images: `read_tree` with `format:
picture` through the real bridge and the official MCP client, on the real todo app.
The PNG is read back pixel by pixel and held against the tree: the selected task's
row (the todo highlights it reversed) is lit where its bounds say, and nowhere else."""

from __future__ import annotations

import asyncio
import base64
import io

from PIL import Image

from harness import HANDSHAKE, MODERN, dump, spawned

# The picture's cell, and the colours of taria's default look.
CELL_W, CELL_H = 10, 20
BACKGROUND = (0x1E, 0x1E, 0x1E)
FOREGROUND = (0xCC, 0xCC, 0xCC)


def test_the_picture_shows_the_selected_task_where_the_tree_says() -> None:
    asyncio.run(_picture(HANDSHAKE))


def test_a_2026_client_gets_the_picture_too() -> None:
    asyncio.run(_picture(MODERN))


async def _read_picture(agent):
    result = await agent.call("read_tree", format="picture")
    assert not result.is_error, result
    text, image = result.content
    assert text.type == "text" and image.type == "image", result.content
    assert image.mime_type == "image/png", image.mime_type
    png = base64.b64decode(image.data)
    # The bytes go to the model as the image only, not again in the fields.
    fields = result.structured_content
    assert "png" not in fields and fields["bytes"] == len(png), dump(fields)
    assert text.text.startswith(
        f"screen of revision {fields['revision']}, 120 columns, 40 rows, as a 1200 × 800 PNG"
    ), text.text
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    assert picture.size == (1200, 800) == (fields["width"], fields["height"])
    # docs/tools.md says about 18 kB: flat colours compress well.
    assert len(png) < 40_000, len(png)
    assert fields["colors"] == "app", dump(fields)
    return picture


def _row_is_lit(picture, node) -> bool:
    """Whether the row of `node` (its bounds, in cells) shows the reversed highlight:
    the default foreground as the background, sampled at the right end of the row,
    which the item's text does not reach. Any other row is the plain background
    there."""
    x, y, w, _h = node["bounds"]
    pixel = picture.getpixel(((x + w - 2) * CELL_W + CELL_W // 2, y * CELL_H + 2))
    assert pixel in (FOREGROUND, BACKGROUND), (node["id"], pixel)
    return pixel == FOREGROUND


async def _picture(protocol: str) -> None:
    async with spawned("todo", cols=120, rows=40, protocol=protocol) as (agent, _):
        tree = await agent.ok("read_tree", format="json", bounds=True)
        items = _items(tree["tree"])
        assert len(items) >= 3, dump(tree)
        picture = await _read_picture(agent)
        lit = [item["id"] for item in items if _row_is_lit(picture, item)]
        selected = [item["id"] for item in items if item.get("selected")]
        assert lit == selected and len(selected) == 1, (lit, selected)

        # Select another task: the lit row moves with the tree.
        other = next(item for item in items if item["id"] not in selected)
        await agent.ok("act", node=other["id"], action="select")
        picture = await _read_picture(agent)
        lit = [item["id"] for item in items if _row_is_lit(picture, item)]
        assert lit == [other["id"]], lit

        # Root, depth and bounds are for the tree's formats.
        refused = await agent.error("read_tree", format="picture", depth=1)
        assert refused["code"] == "invalid_arguments", dump(refused)
        assert "format picture reads the whole screen" in refused["message"], dump(refused)


def _items(nodes: list[dict]) -> list[dict]:
    found = []
    for node in nodes:
        if node.get("role") == "list_item":
            found.append(node)
        found += _items(node.get("children", []))
    return found
