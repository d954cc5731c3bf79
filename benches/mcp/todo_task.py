"""The todo task through taria vs by screen scraping: tool calls and bytes read.

An agent adds "ship v0", marks it done, switches to the Done filter and sees it there,
deletes it and confirms the dialog — once through `taria-mcp` (spawn mode, the official
MCP Python client; the first read as an outline, then again as JSON), once by screen
scraping in tmux (`benches/scrape/todo_tmux.sh`: send-keys + capture-pane after each
step). Bytes are what the agent reads: the text of each tool result, the output of
each capture.

Run after building: `cargo build --workspace --all-features --examples --bins`.

    pip install -r examples/e2e/requirements.txt
    python3 benches/mcp/todo_task.py            # prints the Markdown table
    python3 benches/mcp/todo_task.py --check    # and fails unless taria reads <= 0.5x
                                                # the bytes in no more tool calls
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug"
BRIDGE = TARGET / "taria-mcp"
TODO = TARGET / "examples" / "todo"
COLS, ROWS = 100, 30


@dataclass
class Tally:
    calls: int = 0
    bytes: int = 0


def lines(result: dict) -> str:
    """What changed, or the whole tree when most of it did."""
    return result.get("changes") or result.get("outline", "")


async def call(session: ClientSession, tally: Tally, tool: str, **arguments) -> dict:
    result = await session.call_tool(tool, arguments)
    tally.calls += 1
    tally.bytes += sum(len(b.text.encode()) for b in result.content if getattr(b, "type", "") == "text")
    assert not result.is_error, f"{tool} {arguments}: {result.structured_content}"
    return result.structured_content or {}


async def taria_task(read_format: str) -> Tally:
    """The task as an agent does it through taria: one read, then one call per step,
    each step checked on the result the call returns (the tree's changes)."""
    for path in (BRIDGE, TODO):
        if not path.exists():
            raise SystemExit(f"{path} is not built: cargo build --workspace --all-features --examples --bins")
    params = StdioServerParameters(
        command=str(BRIDGE),
        args=["--cols", str(COLS), "--rows", str(ROWS), "--", str(TODO)],
        env={"TARIA_LOG": "warn", "PATH": os.environ.get("PATH", "")},
    )
    tally = Tally()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tree = await call(session, tally, "read_tree", format=read_format)
            text = tree["outline"] if read_format == "outline" else str(tree["tree"])
            assert "new-task" in text, tree

            await call(session, tally, "set_value", node="new-task", value="ship v0")
            added = await call(session, tally, "act", node="new-task", action="submit")
            found = re.search(r'"ship v0" \[id=(tasks/\d+)\]', lines(added))
            assert found, added
            task = found.group(1)

            done = await call(session, tally, "act", node=task, action="toggle")
            assert re.search(rf'\[id={task}\][^\n]*\[checked\]', lines(done)), done

            shown = await call(session, tally, "act", node="filter/done", action="select")
            assert '- tab "Done" [id=filter/done] [selected]' in lines(shown), shown
            assert task not in shown.get("removedIds", []), shown

            asked = await call(session, tally, "act", node=task, action="delete")
            assert "[id=confirm-delete]" in lines(asked), asked

            deleted = await call(session, tally, "act", node="confirm-delete", action="submit")
            assert task in deleted["removedIds"], deleted
    return tally


def scrape_task() -> Tally:
    out = subprocess.run(
        [str(ROOT / "benches" / "scrape" / "todo_tmux.sh"), str(TODO)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found = re.search(r"calls=(\d+) bytes=(\d+)", out)
    assert found, out
    return Tally(int(found.group(1)), int(found.group(2)))


def main() -> None:
    outline = asyncio.run(taria_task("outline"))
    as_json = asyncio.run(taria_task("json"))
    scraped = scrape_task()
    print(f"The todo task (todo example, {COLS}x{ROWS} terminal)")
    print("| how | tool calls | bytes read | bytes vs scraping |")
    print("|---|---|---|---|")
    for name, t in (("taria, tree as outline", outline), ("taria, tree as JSON", as_json), ("screen scraping (tmux)", scraped)):
        print(f"| {name} | {t.calls} | {t.bytes} | {t.bytes / scraped.bytes:.2f}x |")
    if "--check" in sys.argv:
        for name, t in (("outline", outline), ("json", as_json)):
            assert t.bytes <= 0.5 * scraped.bytes, f"taria ({name}) read {t.bytes} bytes, scraping {scraped.bytes}"
            assert t.calls <= scraped.calls, f"taria ({name}) took {t.calls} calls, scraping {scraped.calls}"


if __name__ == "__main__":
    main()
