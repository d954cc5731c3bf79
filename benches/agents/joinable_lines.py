"""Issue 12.3's measurement: what joining tab and option lines onto their parent's line
(as a table row's cells are) would save on each example's first read_tree at 120x40,
against what the instructions would need to say so (the sentence below, paid once
per session).

    python3 benches/agents/joinable_lines.py   # after cargo build --workspace --all-features --examples --bins
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scraper import COLS, ROWS, TARGET, app, files_fixture  # noqa: E402

# What the instructions would have to add for a model to read a joined line. Tabs and
# options carry ids and actions, so each keeps its own `[id=…]` on the joined line.
EXPLAIN = (
    ' Tabs and options are one line too: `- tabs [id=…]: "a" [id=…] [selected] | "b" [id=…]`.'
)

JOINABLE = re.compile(r"^(\s*)- (tab|option|menu_item|radio) ")


def saving(outline: str) -> tuple[int, int]:
    """(lines that would join their parent's line, bytes that saves): each joined line
    trades its `\\n<indent>- role ` for ` | `."""
    lines = saved = 0
    for line in outline.splitlines():
        if found := JOINABLE.match(line):
            lines += 1
            saved += len(("\n" + found.group(0)).encode()) - len(" | ")
    return lines, saved


async def first_read(name: str, args: list[str]) -> str:
    params = StdioServerParameters(
        command=str(TARGET / "taria-mcp"),
        args=["--cols", str(COLS), "--rows", str(ROWS), "--", app(name), *args],
        env={"PATH": os.environ.get("PATH", ""), "TARIA_LOG": "warn"},
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("read_tree", {})
            return "".join(b.text for b in result.content if getattr(b, "type", "") == "text")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = files_fixture(Path(tmp))
        for name, args in (("todo", []), ("form", []), ("dashboard", []), ("files", [str(root)])):
            text = asyncio.run(first_read(name, args))
            lines, saved = saving(text)
            total = len(text.encode())
            print(f"{name}: {total} B read, {lines} tab/option lines, joining them saves {saved} B ({100 * saved / total:.1f} %)")
    print(f"the instructions would grow by {len(EXPLAIN.encode())} B, in every session")


if __name__ == "__main__":
    main()
