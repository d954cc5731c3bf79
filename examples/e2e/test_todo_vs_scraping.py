"""The todo task through taria takes no more tool calls and at most half the bytes
that screen scraping in tmux takes (`benches/mcp/todo_task.py`, which also prints the
table in benches/README.md)."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches" / "mcp"))

import todo_task  # noqa: E402


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)")
def test_taria_reads_at_most_half_the_bytes_of_screen_scraping_in_no_more_calls() -> None:
    scraped = todo_task.scrape_task()
    for read_format in ("outline", "json"):
        taria = asyncio.run(todo_task.taria_task(read_format))
        assert taria.calls <= scraped.calls, (read_format, taria, scraped)
        assert taria.bytes <= 0.5 * scraped.bytes, (read_format, taria, scraped)
        print(f"todo task, tree as {read_format}: taria {taria}, scraping {scraped}")
