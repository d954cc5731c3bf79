"""The act round trip through the real bridge, and where its time goes.

A raw JSON-RPC client (this script: no MCP SDK, one line per message) drives the
real `taria-mcp` in spawn mode, which runs the real `todo` example in its own
pseudo-terminal, 120 x 40 by default. Each sample is one `tools/call` of `act`
(toggle a task): the clock starts as the request line is written to the bridge's
stdin and stops when the response line has arrived (it is parsed after the clock
stops: the client's JSON parsing is not the bridge's time). Samples are 25 ms apart,
under the bridge's 50 inputs/s limit, after 20 untimed ones.

Build the release binaries first:

    cargo build --release -p taria-mcp --bin taria-mcp -p taria-examples --example todo

Then, from the repository's root:

    python3 benches/mcp/act_latency.py              # 3 runs of 300 acts: p50, p90, p99, max
    python3 benches/mcp/act_latency.py --split      # and one run hop by hop
    python3 benches/mcp/act_latency.py --fifo ...   # under SCHED_FIFO (root): see below
    python3 benches/mcp/act_latency.py --builds OLD target/release --runs 6
                                                    # A/B: the builds' runs alternate

`--builds` takes directories that each hold `taria-mcp` and the `todo` example,
either side by side or as a cargo profile directory (`taria-mcp`,
`examples/todo`); copy an older build's two binaries into a directory to compare.

`--split` adds a run with the latency events on, the bridge's
(`taria_mcp::latency`, to its stderr) and the app's (`taria::latency`, to the file
`TARIA_LOG_FILE` names, which the todo example logs to), and prints, per hop, the
median and p90 over the acts of the time between two steps: the request reaching
the bridge, rmcp's dispatch, the pre-check and the socket write, the app's reader
thread, its loop woken, the handler, the frame begun, drawn and published, the
patch sent, the tree in the bridge's mirror, the answer worked out, the response
written and read. Each event is a line written to a log, which slows each act by a
few microseconds per event.

`--wrap` runs the bridge (and so the app) under another command: instructions per
act, exact where times are not, are the difference of two callgrind runs (the app's
and the bridge's totals, `callgrind_annotate FILE | head`, for 120 acts minus 20,
over 100):

    for n in 20 120; do python3 benches/mcp/act_latency.py --runs 1 --samples $n \
        --warmup 0 --pace 0.03 --wrap "valgrind --tool=callgrind --trace-children=yes \
        --callgrind-out-file=/tmp/act-$n.%p"; done

The machine this runs on may be shared: `--fifo` runs the client, and so the
bridge and the app it starts, under SCHED_FIFO (priority 10), so other processes'
work does not delay theirs; each cross-process wake-up still costs what the
machine's scheduler takes (on the VM of benches/README.md, SCHED_FIFO makes a lone
pipe round trip slower and the act faster). `--floor` adds the same client, line
and pacing through `cat`, for scale. On a VM, what the host runs meanwhile moves
paced numbers: compare builds within one `--builds` run. Linux only for the CPU
columns (/proc): user + system time from `stat` (10 ms ticks, about 0.03 ms per act
over 300 acts), the scheduler's run time from each thread's `schedstat` (ns), and
the voluntary context switches per act (each thread woken from a wait), which is
where the time beyond the instructions goes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_BUILD = ROOT / "target" / "release"
BUILD_COMMAND = "cargo build --release -p taria-mcp --bin taria-mcp -p taria-examples --example todo"
# The bridge's latency events (see `--split`).
LATENCY_TARGET = "taria_mcp::latency"


def binaries(build: Path) -> tuple[Path, Path]:
    """The bridge and the todo app of a build directory."""
    bridge = build / "taria-mcp"
    for app in (build / "examples" / "todo", build / "todo"):
        if bridge.is_file() and app.is_file():
            return bridge, app
    sys.exit(f"{build}: no taria-mcp and todo there; build them with `{BUILD_COMMAND}`")


class Bridge:
    """`taria-mcp --cols C --rows R -- <todo>` with pipes for stdin and stdout."""

    def __init__(
        self, bridge: Path, app: Path, cols: int, rows: int, stderr, log: str, wrap: list[str]
    ) -> None:
        env = dict(os.environ, TARIA_LOG=log)
        command = [*wrap, str(bridge), "--cols", str(cols), "--rows", str(rows), "--", str(app)]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env, bufsize=0
        )
        self.out = self.process.stdout.fileno()
        self.pending = b""
        self.next_id = 0

    def line_for(self, method: str, params: dict | None = None, request: bool = True) -> tuple[bytes, int]:
        """A message's line, and its id (a request's next number)."""
        message: dict = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        return json.dumps(message, separators=(",", ":")).encode() + b"\n", self.next_id

    def write(self, method: str, params: dict | None = None, request: bool = True) -> int:
        line, id = self.line_for(method, params, request)
        self.process.stdin.write(line)
        return id

    def line(self) -> tuple[bytes, int]:
        """The next line from stdout, and when its newline arrived (perf_counter_ns)."""
        while b"\n" not in self.pending:
            chunk = os.read(self.out, 1 << 16)
            if not chunk:
                sys.exit("the bridge closed stdout; its stderr says why")
            self.pending += chunk
        arrived = time.perf_counter_ns()
        line, self.pending = self.pending.split(b"\n", 1)
        return line, arrived

    def answer(self, id: int) -> tuple[dict, int]:
        """The response to request `id` (notifications before it are skipped)."""
        while True:
            line, arrived = self.line()
            message = json.loads(line)
            if message.get("id") == id:
                if "error" in message:
                    sys.exit(f"the bridge answered an error: {message['error']}")
                return message["result"], arrived

    def call(self, tool: str, arguments: dict) -> tuple[dict, int, int]:
        """One `tools/call`: its result, when its line was written and when the answer
        arrived (perf_counter_ns)."""
        line, id = self.line_for("tools/call", {"name": tool, "arguments": arguments})
        written = time.perf_counter_ns()
        self.process.stdin.write(line)
        result, arrived = self.answer(id)
        if result.get("isError"):
            sys.exit(f"{tool} failed: {result['content'][0]['text']}")
        return result, written, arrived

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


def cpu_ms(pid: int) -> float:
    """CPU time a process used so far (all its threads), in milliseconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def threads(pid: int) -> list[Path]:
    """The task directories of a process's threads."""
    return list(Path(f"/proc/{pid}/task").iterdir())


def sched_ms(pid: int) -> float:
    """CPU time the process's live threads ran, by the scheduler's count
    (`schedstat`, ns), in milliseconds: finer than `cpu_ms`'s ticks."""
    total = 0
    for task in threads(pid):
        with contextlib.suppress(FileNotFoundError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e6


def switches(pid: int) -> int:
    """Voluntary context switches of the process's live threads (each a wait that
    something woke)."""
    total = 0
    for task in threads(pid):
        with contextlib.suppress(FileNotFoundError):
            for line in (task / "status").read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches"):
                    total += int(line.split()[1])
    return total


def counters(pid: int) -> tuple[float, float, int]:
    return cpu_ms(pid), sched_ms(pid), switches(pid)


def run(build: Path, args: argparse.Namespace, log: str = "warn", stderr=subprocess.DEVNULL) -> dict:
    """One run: the sorted latencies (ms), each act's wall-clock start and end
    (time_ns, for the split), and the CPU time per act of the bridge and the app."""
    bridge_path, app_path = binaries(build)
    bridge = Bridge(bridge_path, app_path, args.cols, args.rows, stderr, log, shlex.split(args.wrap))
    bridge.answer(
        bridge.write(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "act_latency", "version": "1"},
            },
        )
    )
    bridge.write("notifications/initialized", request=False)
    # Waits for the app to start and serve its first tree.
    bridge.call("read_tree", {"depth": 0})
    app_pid = None
    children = Path(f"/proc/{bridge.process.pid}/task/{bridge.process.pid}/children")
    if children.exists() and children.read_text().split():
        app_pid = int(children.read_text().split()[0])

    def toggle(i: int) -> tuple[int, int]:
        node = "tasks/2" if i % 2 else "tasks/3"
        _, written, arrived = bridge.call("act", {"node": node, "action": "toggle"})
        return written, arrived

    for i in range(args.warmup):
        toggle(i)
        time.sleep(args.pace)
    before = (counters(bridge.process.pid), counters(app_pid)) if app_pid else None
    latencies, acts = [], []
    for i in range(args.samples):
        wall = time.time_ns() - time.perf_counter_ns()
        written, arrived = toggle(i)
        latencies.append((arrived - written) / 1e6)
        acts.append((written + wall, arrived + wall))
        time.sleep(args.pace)
    cpu = sched = switched = None
    if before:
        after = (counters(bridge.process.pid), counters(app_pid))
        per_act = [[(a - b) / args.samples for a, b in zip(x, y)] for x, y in zip(after, before)]
        cpu = (per_act[0][0], per_act[1][0])
        sched = (per_act[0][1], per_act[1][1])
        switched = (per_act[0][2], per_act[1][2])
    bridge.close()
    return {"latencies": sorted(latencies), "acts": acts, "cpu": cpu, "sched": sched,
            "switches": switched}


def pct(sorted_values: list[float], p: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(round((len(sorted_values) - 1) * p)))]


# Each act's steps, in the order it meets them: the bridge's latency events
# (`taria_mcp::latency`) and the app's (`taria::latency`, from the todo example's log
# file), each with what the hop that ends there is.
CHAIN = [
    ("request", "the client writes the request line"),
    ("stdin read", "bridge: stdin readable, its bytes read (client -> bridge)"),
    ("call read", "bridge: the line checked and parsed"),
    ("act", "bridge: rmcp's dispatch, the tool's arguments"),
    ("input sent", "bridge: pre-check, turn, the input written to the app's socket"),
    ("input queued", "app: the socket's reader thread read the line, queued it, poked the loop"),
    ("loop woken", "app: the event wait (taria::event) returned for the poke"),
    ("input routed", "app: the loop's drain ran the handler"),
    ("frame begun", "app: the loop's next draw began"),
    ("frame drawn", "app: the frame rendered and its recording closed (ratatui's diff and terminal write come after it is published)"),
    ("frame published", "app: the frame handed to the writer thread"),
    ("frame sent", "app: the writer built, diffed and sent the patch"),
    ("tree", "bridge: the patch read and applied to the mirror"),
    ("answer ready", "bridge: what changed, for the agent"),
    ("stdout", "bridge: the result through rmcp, written to stdout"),
    ("answer read", "the client read the response line (bridge -> client)"),
]
# Steps off that chain, timed from the input sent.
ASIDE = [
    ("ack", "bridge: the app's ack read"),
    ("terminal output", "bridge: the frame's bytes read from the pty"),
]
APP_TARGET = "taria::latency"


def read_events(path: Path, target: str) -> list[tuple[int, str]]:
    """(wall-clock ns, step) for each latency event of `target` in a log."""
    events = []
    for line in path.read_text(errors="replace").splitlines():
        stamp, _, rest = line.partition(" ")
        marker = f" {target}: "
        if marker not in rest:
            continue
        words = rest.split(marker, 1)[1].split()
        # The step's name, without the fields after it (`input sent seq=7`).
        name = " ".join(word for word in words if "=" not in word)
        when = datetime.fromisoformat(stamp)
        events.append((int(when.timestamp() * 1_000_000) * 1000, name))
    return events


def split(build: Path, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="act-latency-") as logs:
        bridge_log, app_log = Path(logs) / "bridge.log", Path(logs) / "app.log"
        os.environ["TARIA_LOG_FILE"] = str(app_log)
        try:
            with bridge_log.open("w") as stderr:
                measured = run(build, args, f"warn,{LATENCY_TARGET}=trace,{APP_TARGET}=trace", stderr)
        finally:
            del os.environ["TARIA_LOG_FILE"]
        events = sorted(read_events(bridge_log, LATENCY_TARGET) + read_events(app_log, APP_TARGET))
    # Each act's first event of each kind between its request and its answer.
    per_act = []
    index = 0
    for start, end in measured["acts"]:
        while index < len(events) and events[index][0] < start:
            index += 1
        seen: dict[str, int] = {"request": start, "answer read": end}
        j = index
        while j < len(events) and events[j][0] <= end:
            seen.setdefault(events[j][1], events[j][0])
            j += 1
        per_act.append(seen)

    def hop(a: str, b: str) -> list[float]:
        return sorted((s[b] - s[a]) / 1000 for s in per_act if a in s and b in s)

    latencies = measured["latencies"]
    print(f"Hop by hop: one run of {args.samples} acts with the latency events on (p50 "
          f"{pct(latencies, 0.5):.3f} ms, p99 {pct(latencies, 0.99):.3f} ms in this run; each "
          "event is a line written to a log, which the times below include):")
    print()
    print("| to | the hop | median | p90 |")
    print("|---|---|---|---|")
    total = 0.0
    for (a, _), (b, what) in zip(CHAIN, CHAIN[1:]):
        values = hop(a, b)
        if values:
            total += statistics.median(values)
            print(f"| {b} | {what} | {statistics.median(values):.1f} us | {pct(values, 0.9):.1f} us |")
    print(f"| | sum of the medians | {total:.1f} us | |")
    print()
    print("| from the input sent to | | median | p90 |")
    print("|---|---|---|---|")
    for b, what in ASIDE + [("tree", "bridge: the tree after the input in the mirror")]:
        values = hop("input sent", b)
        if values:
            print(f"| {b} | {what} | {statistics.median(values):.1f} us | {pct(values, 0.9):.1f} us |")


def floor(args: argparse.Namespace) -> None:
    """The same client, pacing and line through `cat`: what one round trip through a
    process that does nothing costs on this machine (the client's own share, two
    pipe writes and two wake-ups), for scale."""
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "act", "arguments": {"node": "tasks/2", "action": "toggle"}}}).encode() + b"\n"
    cat = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    out = cat.stdout.fileno()
    latencies = []
    for i in range(args.warmup + args.samples):
        written = time.perf_counter_ns()
        cat.stdin.write(line)
        got = b""
        while not got.endswith(b"\n"):
            got += os.read(out, 1 << 16)
        if i >= args.warmup:
            latencies.append((time.perf_counter_ns() - written) / 1e6)
        time.sleep(args.pace)
    cat.stdin.close()
    cat.wait()
    latencies.sort()
    print(f"floor (the same line through `cat`): p50 {pct(latencies, 0.5):.3f} ms, "
          f"p99 {pct(latencies, 0.99):.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--builds", nargs="+", type=Path, default=[DEFAULT_BUILD],
                        help="build directories; with several, their runs alternate")
    parser.add_argument("--runs", type=int, default=3, help="runs per build")
    parser.add_argument("--samples", type=int, default=300, help="timed acts per run")
    parser.add_argument("--warmup", type=int, default=20, help="untimed acts before them")
    parser.add_argument("--pace", type=float, default=0.025, help="seconds between acts")
    parser.add_argument("--cols", type=int, default=120)
    parser.add_argument("--rows", type=int, default=40)
    parser.add_argument("--split", action="store_true", help="and one run hop by hop")
    parser.add_argument("--fifo", action="store_true",
                        help="run under SCHED_FIFO priority 10 (needs root or CAP_SYS_NICE)")
    parser.add_argument("--floor", action="store_true",
                        help="and, for scale, the same round trip through `cat`")
    parser.add_argument("--wrap", default="",
                        help="a command the bridge runs under (e.g. valgrind's callgrind)")
    args = parser.parse_args()
    if args.fifo:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    for build in args.builds:
        binaries(build)
    print(f"act round trip (toggle a task), todo at {args.cols}x{args.rows}, {args.samples} acts "
          f"paced {args.pace * 1000:.0f} ms per run{', SCHED_FIFO' if args.fifo else ''}:")
    print()
    print("| build | run | p50 | p90 | p99 | max | CPU per act: bridge, app | by schedstat | "
          "context switches per act |")
    print("|---|---|---|---|---|---|---|---|---|")
    p50s: dict[Path, list[float]] = {build: [] for build in args.builds}
    p99s: dict[Path, list[float]] = {build: [] for build in args.builds}
    for i in range(args.runs):
        for build in args.builds:
            measured = run(build, args)
            lat = measured["latencies"]
            p50s[build].append(pct(lat, 0.5))
            p99s[build].append(pct(lat, 0.99))
            cpu, sched, switched = measured["cpu"], measured["sched"], measured["switches"]
            cpu_text = f"{cpu[0]:.2f} ms, {cpu[1]:.2f} ms" if cpu else "-"
            sched_text = f"{sched[0]:.3f} ms, {sched[1]:.3f} ms" if sched else "-"
            switch_text = f"{switched[0]:.1f}, {switched[1]:.1f}" if switched else "-"
            print(f"| {build} | {i + 1} | {pct(lat, 0.5):.3f} ms | {pct(lat, 0.9):.3f} ms | "
                  f"{pct(lat, 0.99):.3f} ms | {lat[-1]:.3f} ms | {cpu_text} | {sched_text} | "
                  f"{switch_text} |", flush=True)
    print()
    for build in args.builds:
        a, b = p50s[build], p99s[build]
        print(f"{build}: p50 median {statistics.median(a):.3f} ms (runs {min(a):.3f}-{max(a):.3f}), "
              f"p99 median {statistics.median(b):.3f} ms (runs {min(b):.3f}-{max(b):.3f})")
    if args.floor:
        print()
        floor(args)
    if args.split:
        print()
        split(args.builds[-1], args)


if __name__ == "__main__":
    main()
