"""An agent reads the two months of ratatui's own calendar example
(`corpus/ratatui-calendar`, ratatui's `ratatui-widgets/examples/calendar.rs`) through
the real `taria-mcp` bridge in spawn mode, and quits it. The example keeps no state:
each frame draws the current month (today marked) beside June 2007 (Ratatouille's
release date marked); taria-widgets' `Monthly` records each as `text` labelled by
the month it shows, its value the date the app gave it."""

from __future__ import annotations

import asyncio
import datetime

from harness import dump, spawned

WEEKDAYS = "Su Mo Tu We Th Fr Sa"


def today() -> datetime.date:
    """The app's today: `OffsetDateTime::now_utc().date()`."""
    return datetime.datetime.now(datetime.timezone.utc).date()


def drawn(rows: list[str], bounds: list[int]) -> list[str]:
    """The screen's lines inside a node's bounds `[x, y, w, h]`, without blank ones."""
    x, y, w, h = bounds
    return [line for line in (row[x : x + w].strip() for row in rows[y : y + h]) if line]


def month_lines(day: datetime.date) -> list[str]:
    """A month as ratatui's `Monthly` draws it: its header, the weekdays, then a line
    per week starting on Sunday, the days of other months left blank."""
    first = day.replace(day=1)
    lead = (first.weekday() + 1) % 7
    days = [""] * lead
    d = first
    while d.month == day.month:
        days.append(str(d.day))
        d += datetime.timedelta(days=1)
    weeks = [days[i : i + 7] for i in range(0, len(days), 7)]
    return [f"{day:%B %Y}", WEEKDAYS] + [" ".join(f"{n:>2}" for n in week).strip() for week in weeks]


def test_an_agent_reads_both_months_and_quits() -> None:
    asyncio.run(_read_both_months())


async def _read_both_months() -> None:
    async with spawned("corpus-ratatui-calendar", cols=100, rows=20, bin=True) as (agent, _):
        before = today()
        tree = await agent.ok("read_tree", format="json", bounds=True)
        after = today()
        current, release = tree["tree"]
        # The app drew its frame between the two readings of the clock.
        assert current["value"] in {before.isoformat(), after.isoformat()}, dump(tree)
        now = datetime.date.fromisoformat(current["value"])
        assert current["role"] == "text" and current["label"] == f"{now:%B %Y}", dump(tree)
        assert release["role"] == "text" and release["label"] == "June 2007", dump(tree)
        assert release["value"] == "2007-06-29", dump(tree)
        # Nothing to act on: the example only shows the months.
        assert not any("actions" in node for node in tree["tree"]), dump(tree)

        # What a person sees in each node's bounds: that month, drawn day by day.
        rows = (await agent.ok("read_tree", format="screen"))["rows"]
        assert drawn(rows, current["bounds"]) == month_lines(now), rows
        june = drawn(rows, release["bounds"])
        # June 2007 also shows the days of May and July around it.
        assert june[:3] == ["June 2007", WEEKDAYS, "27 28 29 30 31  1  2"], rows
        assert june[-1] == "24 25 26 27 28 29 30", rows

        # Done: quit as the title says ("Press 'q' to quit").
        assert "(Press 'q' to quit)" in rows[0], rows
        quit = await agent.ok("press_key", key="q")
        assert "the app exited with exit status 0" in quit.get("note", ""), dump(quit)
