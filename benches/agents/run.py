"""What an agent pays per task, through taria and by screen scraping: the four
benchmark tasks (`scraper.py`, `taria_agent.py`), each run 5 times, medians.

Run after `cargo build --workspace --all-features --examples --bins`:

    python3 benches/agents/run.py            # prints the table in benches/README.md
    python3 benches/agents/run.py --runs 1   # one run each
    python3 benches/agents/run.py --check    # fails unless issue 12's targets hold
    python3 benches/agents/run.py --structured   # results with structuredContent, as
                                                 # before issue 29 (the baseline)

Bytes are what the model is given; taria's total adds, once per session,
`tools/list` as the model sees it (its JSON) and the server's instructions. taria's
results are counted as each family of host gives them (`taria_agent.py`): text
hosts the text, structured hosts `structuredContent` when a result has one. Since
issue 29 a host's session has none, so both families read the same bytes; `--check`
fails if a structured host would read more than 1.05x a text host's.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scraper  # noqa: E402
import taria_agent  # noqa: E402

TASKS = ("todo", "form", "dashboard", "files")


def measure(runs: int, structured: bool = False) -> dict[str, dict[str, list]]:
    results: dict[str, dict[str, list]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = scraper.files_fixture(Path(tmp))
        for name in TASKS:
            taria = [asyncio.run(taria_agent.run(name, root, structured)) for _ in range(runs)]
            task = getattr(scraper, name)
            scraped = [scraper.run(task, *((root,) if name == "files" else ())) for _ in range(runs)]
            results[name] = {"taria": taria, "scraper": scraped}
    return results


def median(values) -> float:
    return statistics.median(values)


def table(results) -> str:
    lines = [
        "| task | taria calls | scraper calls | taria bytes, task only | tools/list + instructions | taria bytes in all, text hosts | taria bytes in all, structured hosts | scraper bytes | taria / scraper bytes | runs ok (taria, scraper) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        t, s = r["taria"], r["scraper"]
        total = median([x.total for x in t])
        structured = median([x.structured_total for x in t])
        scraped = median([x.bytes for x in s])
        lines.append(
            f"| {name} | {median([x.calls for x in t]):g} | {median([x.calls for x in s]):g} "
            f"| {median([x.bytes for x in t]):,.0f} | {median([x.surface for x in t]):,.0f} "
            f"| {total:,.0f} | {structured:,.0f} | {scraped:,.0f} | {max(total, structured) / scraped:.2f} "
            f"| {sum(x.ok for x in t)}/{len(t)}, {sum(x.ok for x in s)}/{len(s)} |"
        )
    return "\n".join(lines)


def failures(results) -> list[str]:
    out = []
    for name, r in results.items():
        for who in ("taria", "scraper"):
            for x in r[who]:
                if not x.ok:
                    out.append(f"{name} ({who}) failed: {x.notes[:1]}")
    return out


def target_misses(results) -> list[str]:
    """Issue 12's targets: bytes <= 0.35x the scraper's (surface included), calls <=
    the scraper's on every task and fewer on at least two."""
    misses, fewer = [], 0
    for name, r in results.items():
        t, s = r["taria"], r["scraper"]
        text_hosts, structured_hosts = median([x.total for x in t]), median([x.structured_total for x in t])
        if structured_hosts > 1.05 * text_hosts:
            misses.append(
                f"{name}: structured hosts read {structured_hosts:,.0f} B, over 1.05x the "
                f"{text_hosts:,.0f} B text hosts read (issue 29)"
            )
        total, scraped = median([x.total for x in t]), median([x.bytes for x in s])
        calls, scraper_calls = median([x.calls for x in t]), median([x.calls for x in s])
        if total > 0.35 * scraped:
            # What 0.35x would leave for the tool surface, beside the task's own results.
            task, surface = median([x.bytes for x in t]), median([x.surface for x in t])
            misses.append(
                f"{name}: taria reads {total:,.0f} B, over 0.35x the scraper's {scraped:,.0f} B; "
                f"0.35x leaves {0.35 * scraped - task:,.0f} B for tools/list and the instructions "
                f"({surface:,.0f} B), or {0.35 * scraped - surface:,.0f} B for the task's results ({task:,.0f} B)"
            )
        if calls > scraper_calls:
            misses.append(f"{name}: taria takes {calls:g} calls, the scraper {scraper_calls:g}")
        fewer += calls < scraper_calls
    if fewer < 2:
        misses.append(f"taria takes fewer calls than the scraper on {fewer} task(s), not at least 2")
    return misses


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--structured", action="store_true", help="run the bridge with --structured (before issue 29)")
    args = parser.parse_args()
    results = measure(args.runs, args.structured)
    print(f"Each task {args.runs} times at {scraper.COLS}x{scraper.ROWS}, medians.")
    print(table(results))
    problems = failures(results) + (target_misses(results) if args.check else [])
    for problem in problems:
        print(problem, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
