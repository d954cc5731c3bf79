"""Two `taria-mcp` builds compared under the same load: the `act` round trip of
benches/mcp/bench_bridge.py, through both bridges at once, each driving its own
`todo` (the same app binary) in a pseudo-terminal, their calls alternating (the order
swapped every round) and paced 25 ms. On a shared machine, runs one after the other
see different loads; alternating calls see the same.

Build this tree (`cargo build --workspace --all-features --examples --bins`), and keep
the other build's binary (e.g. `git stash; cargo build -p taria-mcp; cp
target/debug/taria-mcp /tmp/base-taria-mcp; git stash pop`), then:

    python3 benches/mcp/ab_bridge.py /tmp/base-taria-mcp [ROUNDS]

Prints one line per build: p50, p90, p99 of ROUNDS acts (default 500), and on Linux
the CPU time the bridge process spent per act (user + system, from /proc), which the
machine's other work does not inflate as it does the wall-clock times.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "e2e"))

import harness  # noqa: E402

# Seconds between calls: taria-mcp refuses inputs over 50/s (`busy`).
PACE = 0.025


def bridge_cpu_ms(exe: Path) -> float | None:
    """CPU time (user + system, ms) of this process's child running `exe`, on Linux."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == os.getpid() and Path(stat.parent / "exe").resolve() == exe:
                return (int(fields[11]) + int(fields[12])) * 1000 / ticks
        except (OSError, IndexError, ValueError):
            continue
    return None


def pct(latencies: list[float], p: float) -> float:
    return latencies[min(len(latencies) - 1, int(round((len(latencies) - 1) * p)))]


async def compare(other: Path, rounds: int) -> None:
    this = harness.BRIDGE
    latencies: dict[str, list[float]] = {"other": [], "this": []}
    cpu: dict[str, float | None] = {}
    harness.BRIDGE = other
    async with harness.spawned("todo", 100, 30) as (other_agent, _):
        harness.BRIDGE = this
        async with harness.spawned("todo", 100, 30) as (this_agent, _):
            pair = [("other", other_agent), ("this", this_agent)]
            paths = {"other": other, "this": this.resolve()}
            before = {name: bridge_cpu_ms(path) for name, path in paths.items()}
            for i in range(rounds):
                node = "tasks/2" if i % 2 else "tasks/3"
                for name, agent in pair if i % 2 == 0 else pair[::-1]:
                    start = time.perf_counter()
                    result = await agent.session.call_tool("act", {"node": node, "action": "toggle"})
                    latencies[name].append((time.perf_counter() - start) * 1000)
                    assert not result.is_error, result.content
                    await asyncio.sleep(PACE)
            for name, path in paths.items():
                after = bridge_cpu_ms(path)
                if after is not None and before[name] is not None:
                    cpu[name] = (after - before[name]) / rounds
    print(f"act round trip, {rounds} acts each, alternating (100 x 30, debug builds)")
    print("| bridge | p50 | p90 | p99 | bridge CPU per act |")
    print("|---|---|---|---|---|")
    for name, path in (("other", other), ("this", this)):
        values = sorted(latencies[name])
        per_act = f"{cpu[name]:.2f} ms" if cpu.get(name) is not None else "-"
        print(f"| {name} ({path}) | {pct(values, 0.5):.2f} ms | {pct(values, 0.9):.2f} ms "
              f"| {pct(values, 0.99):.2f} ms | {per_act} |")


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    other = Path(sys.argv[1]).resolve()
    rounds = int(sys.argv[2]) if len(sys.argv) == 3 else 500
    asyncio.run(compare(harness.binary(other), rounds))


if __name__ == "__main__":
    main()
