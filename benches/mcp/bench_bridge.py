"""Bridge benchmarks through real processes: the official MCP Python client, the real
`taria-mcp` bridge in spawn mode, the real `todo` example in its pseudo-terminal.

Run after building: `cargo build --workspace --all-features --examples --bins`.

    pip install -r examples/e2e/requirements.txt
    python3 benches/mcp/bench_bridge.py

Prints Markdown tables for benches/README.md.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "e2e"))

import mcp.types as types  # noqa: E402
from harness import spawned  # noqa: E402

SAMPLES = 300
# Seconds between samples: taria-mcp refuses inputs over 50/s (`busy`).
PACE = 0.025


def text_of(result) -> str:
    return "".join(block.text for block in result.content if getattr(block, "type", "") == "text")


async def toggles(agent, samples: int) -> list[float]:
    """Milliseconds per `act` (toggle a task: tool call -> ack -> what changed in the
    tree drawn after it), `samples` times, sorted."""
    latencies = []
    for i in range(samples):
        node = "tasks/2" if i % 2 else "tasks/3"
        # The SDK's own call: the test agent's extra schema check is not the bridge's time.
        start = time.perf_counter()
        result = await agent.session.call_tool("act", {"node": node, "action": "toggle"})
        latencies.append((time.perf_counter() - start) * 1000)
        assert not result.is_error, text_of(result)
        # Stay under the bridge's input rate limit (50/s), outside the timed call.
        await asyncio.sleep(PACE)
    return sorted(latencies)


def percentiles(latencies: list[float]) -> str:
    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(round((len(latencies) - 1) * p)))]

    return f"| {pct(0.5):.2f} ms | {pct(0.9):.2f} ms | {pct(0.99):.2f} ms | {latencies[-1]:.2f} ms |"


async def bench(cols: int, rows: int) -> None:
    # (bytes, changed ids) of each update notification.
    notifications: list[tuple[int, int]] = []

    async with spawned("todo", cols, rows) as (agent, _):
        nodes = (await agent.ok("read_tree", depth=0))["nodeCount"]
        listed = await agent.session.list_tools()
        tools = [t.model_dump(by_alias=True, exclude_none=True) for t in listed.tools]
        # As the model reads it: UTF-8, compact (as benches/agents/taria_agent.py counts).
        tools_bytes = len(json.dumps(tools, ensure_ascii=False, separators=(",", ":")).encode())
        plain = await toggles(agent, SAMPLES)

        # Subscribed to the tree resource, each toggle also sends an update
        # notification, which the client reads (and here measures) too.
        async def on_message(message) -> None:
            if isinstance(message, types.ResourceUpdatedNotification):
                raw = message.model_dump_json(by_alias=True, exclude_none=True)
                changed = json.loads(raw)["params"]["_meta"]["changedCount"]
                notifications.append((len(raw.encode()), changed))

        agent.session._message_handler = on_message  # the SDK calls it for every notification
        with warnings.catch_warnings():
            # The SDK deprecates resources/subscribe (gone in MCP 2026-07-28); this
            # session speaks 2025-11-25, where it is how a client subscribes.
            warnings.simplefilter("ignore")
            await agent.session.subscribe_resource("taria://tree")
        subscribed = await toggles(agent, SAMPLES // 3)
        await asyncio.sleep(0.2)
        toggled = list(notifications)
        # A one-node change: typing into the new-task field changes only its value.
        # Spaced past the bridge's 50 ms notification coalescing, one notification each.
        notifications.clear()
        for i in range(20):
            await agent.session.call_tool("act", {"node": "new-task", "action": "set_value", "value": f"task {i}"})
            await asyncio.sleep(0.1)
        one_node = [size for size, changed in notifications if changed == 1]

    print(f"tools/list: {tools_bytes} bytes of JSON ({len(tools)} tools)")
    print()
    print(f"act round trip (toggle a task: tool call -> ack -> tree after), {nodes} nodes")
    print("| client | samples | p50 | p90 | p99 | max |")
    print("|---|---|---|---|---|---|")
    print(f"| not subscribed | {len(plain)} {percentiles(plain)}")
    print(f"| subscribed to taria://tree | {len(subscribed)} {percentiles(subscribed)}")
    print()
    sizes = [size for size, _ in toggled]
    assert sizes and one_node, "no update notifications arrived"
    print(f"resource update notification while toggling tasks (the task and the status line change): "
          f"median {statistics.median(sizes):.0f} bytes ({len(sizes)} notifications)")
    print(f"resource update notification for a one-node change (the new-task field's value): "
          f"median {statistics.median(one_node):.0f} bytes ({len(one_node)} notifications)")


# The examples whose first frame is measured, with their arguments (`files` browses
# this repository's examples folder).
EXAMPLES = [
    ("todo", ()),
    ("dashboard", ()),
    ("form", ()),
    ("files", (str(Path(__file__).resolve().parents[2] / "examples"),)),
]


def app_text(nodes: list[dict]) -> int:
    """Bytes of the app's own text in the nodes: labels and values."""
    total = 0
    for node in nodes:
        for field in ("label", "value"):
            if isinstance(node.get(field), str):
                total += len(node[field].encode())
        total += app_text(node.get("children", []))
    return total


async def size(example: str, args: tuple[str, ...], cols: int, rows: int) -> tuple[int, int, int, int, int]:
    """(nodes, outline bytes, compact JSON bytes, screen text bytes, app text bytes) of
    the first frame."""
    async with spawned(example, cols, rows, args) as (agent, _):
        outline = await agent.ok("read_tree", format="outline")
        as_json = await agent.ok("read_tree", format="json")
        screen = await agent.ok("read_tree", format="screen")
    nodes = outline["nodeCount"]
    assert outline["shown"] == nodes, f"{example}: the tree was cut"
    return (
        nodes,
        len(outline["outline"].encode()),
        len(json.dumps(as_json["tree"], separators=(",", ":"), ensure_ascii=False).encode()),
        len("\n".join(screen["rows"]).encode()),
        app_text(as_json["tree"]),
    )


async def sizes(cols: int, rows: int) -> None:
    print(f"read_tree size of each example's first frame, screen {cols}x{rows}")
    print("| example | nodes | outline bytes | outline B/node | JSON bytes | JSON B/node | app text B/node | screen text bytes |")
    print("|---|---|---|---|---|---|---|---|")
    totals = [0, 0, 0, 0, 0]
    for example, args in EXAMPLES:
        measured = await size(example, args, cols, rows)
        totals = [t + m for t, m in zip(totals, measured)]
        nodes, outline, as_json, screen, text = measured
        print(f"| {example} | {nodes} | {outline} | {outline / nodes:.1f} | {as_json} | {as_json / nodes:.1f} | {text / nodes:.1f} | {screen} |")
    nodes, outline, as_json, screen, text = totals
    print(f"| all four | {nodes} | {outline} | {outline / nodes:.1f} | {as_json} | {as_json / nodes:.1f} | {text / nodes:.1f} | {screen} |")
    print()


def main() -> None:
    # `python3 benches/mcp/bench_bridge.py [COLS ROWS]`, 100 x 30 by default.
    cols, rows = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) == 3 else (100, 30)
    asyncio.run(sizes(cols, rows))
    asyncio.run(bench(cols, rows))


if __name__ == "__main__":
    main()
