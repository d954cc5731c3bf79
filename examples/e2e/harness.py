"""Starts a real `taria-mcp` bridge in spawn mode, which runs a real example app in a
pseudo-terminal it owns, for end-to-end tests with the official Python MCP client.

Binaries come from the cargo target directory (`CARGO_TARGET_DIR`, else `target/`),
built by `cargo build --workspace --all-features --examples --bins` (`cargo test`
builds the examples only as tests).

The todo, form, files and dashboard agent sessions run with `taria-mcp --record` into pytest's
temporary directory and check the recording (`check_recording`). With
`TARIA_RECORD_DIR` set, they also write `<dir>/<app>-<task>.jsonl` (from the
2025-11-25 run of each). The committed recordings under
`examples/<app>/recordings/<task>.jsonl` are regenerated, from the repository's
root, with:

    cargo build --workspace --all-features --examples --bins && \
    rm -rf /tmp/taria-recordings && \
    TARIA_RECORD_DIR=/tmp/taria-recordings python3 -m pytest examples/e2e -q \
        -p no:cacheprovider -k "todo_agent or form_agent or files_agent or dashboard_agent" && \
    for f in /tmp/taria-recordings/*.jsonl; do n=$(basename "$f" .jsonl); \
        mkdir -p "examples/${n%%-*}/recordings" && \
        cp "$f" "examples/${n%%-*}/recordings/${n#*-}.jsonl"; done
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.client import Client

ROOT = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug"
BRIDGE = TARGET / "taria-mcp"


def binary(path: Path) -> Path:
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is not built: run "
            "`cargo build --workspace --all-features --examples --bins` first"
        )
    return path


class Agent:
    """A scripted agent: an MCP client session with `taria-mcp` driving an app.
    Counts tool calls and the bytes of every result it reads, and keeps their text."""

    def __init__(self, session: ClientSession | Client) -> None:
        self.session = session
        self.calls = 0
        self.bytes_read = 0
        self.transcript: list[str] = []
        # The inputs that reached the app, in order: (tool, arguments) for each input
        # line a recording of the session has (a repeated key or a batch's steps
        # count once each).
        self.inputs: list[tuple[str, dict]] = []
        # The read tools' calls that succeeded, in order.
        self.reads: list[str] = []
        # The input calls the bridge refused itself (nothing of them, or of a batch
        # the step it names, was sent): (tool, error code), in order.
        self.refused: list[tuple[str, str]] = []
        # The terminal sizes `resize` changed to, in order.
        self.resizes: list[tuple[int, int]] = []
        # Each tool's output schema, checked once and compiled once.
        self.output_validators: dict[str, jsonschema.protocols.Validator] | None = None

    async def call(self, tool: str, **arguments):
        if self.output_validators is None:
            listed = await self.session.list_tools()
            self.output_validators = {}
            for listed_tool in listed.tools:
                if schema := listed_tool.output_schema:
                    validator = jsonschema.validators.validator_for(schema)
                    validator.check_schema(schema)
                    self.output_validators[listed_tool.name] = validator(schema)
        result = await self.session.call_tool(tool, arguments)
        # Every result, errors included, conforms to the tool's output schema (clients
        # that validate error results too must not choke on taria's).
        if tool in self.output_validators and result.structured_content is not None:
            self.output_validators[tool].validate(result.structured_content)
        self.calls += 1
        self._note(tool, arguments, result)
        text = "".join(block.text for block in result.content if getattr(block, "type", "") == "text")
        self.bytes_read += len(text.encode())
        self.transcript.append(text)
        return result

    def _note(self, tool: str, arguments: dict, result) -> None:
        """Notes what the call sent to the app: an input call that succeeded sent
        all of its inputs; one the app refused (its answer's `status` is in the
        error) sent one; any other failure of these tasks is the bridge's own check,
        which sends nothing (a batch's steps before the one it names were sent)."""
        content = result.structured_content or {}
        if tool in INPUT_TOOLS:
            steps = [dict(step) for step in arguments.get("steps", [])]
            if not result.is_error:
                if tool == "batch":
                    for step in steps:
                        del step["tool"]
                        self.inputs += [("batch", step)] * int(step.get("repeat", 1))
                else:
                    self.inputs += [(tool, arguments)] * int(arguments.get("repeat", 1))
                return
            sent = steps[: int(content.get("failedStep", 1)) - 1]
            for step in sent:
                del step["tool"]
                self.inputs += [("batch", step)] * int(step.get("repeat", 1))
            if "status" in content:
                failed = steps[len(sent)] if steps else arguments
                self.inputs.append((tool, {k: v for k, v in failed.items() if k != "tool"}))
            else:
                self.refused.append((tool, content.get("code")))
        elif not result.is_error and tool == "resize" and content.get("changed") is not None:
            if content.get("note", "").startswith("the terminal already has that size"):
                return
            self.resizes.append((content["cols"], content["rows"]))
        elif not result.is_error and tool in READ_TOOLS:
            self.reads.append(tool)

    async def ok(self, tool: str, **arguments) -> dict:
        result = await self.call(tool, **arguments)
        assert not result.is_error, f"{tool} {arguments} failed: {result.structured_content}"
        assert result.structured_content is not None, f"{tool} returned no structuredContent"
        return result.structured_content

    async def error(self, tool: str, **arguments) -> dict:
        result = await self.call(tool, **arguments)
        assert result.is_error, f"{tool} {arguments} should have failed: {result.structured_content}"
        return result.structured_content


INPUT_TOOLS = ("act", "type_text", "press_key", "batch")
READ_TOOLS = ("read_tree", "find_nodes", "wait_for_change", "read_logs")


def check_recording(path: Path, agent: Agent, app: str, mode: str = "spawn") -> list[dict]:
    """Checks a `--record` file against the session the agent had: one JSON object
    per line, the header first, then the first tree; one input line per input the
    agent sent, in order, each with its ack and the tree after it (but an input
    the app exited on), an act with the node it was aimed at; its reads, resizes
    and the calls the bridge refused noted; the app's exit with its status.
    Returns the lines after the header."""
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n"), "the last line is complete"
    header, *lines = [json.loads(line) for line in text.splitlines()]
    assert header["taria_recording"] == 2 and header["app"] == app, header
    assert header["mode"] == mode and set(header["size"]) == {"width", "height"}, header
    assert lines[0]["kind"] == "tree" and lines[0]["tree"]["roots"], lines[0]["kind"]
    inputs = [line for line in lines if line["kind"] == "input"]
    assert len(inputs) == len(agent.inputs), (
        f"{len(inputs)} input lines for {len(agent.inputs)} inputs: "
        f"{[line['input'] for line in inputs]} vs {agent.inputs}"
    )
    for number, (line, (tool, arguments)) in enumerate(zip(inputs, agent.inputs), 1):
        assert line["step"] == number and line["tool"] == tool, (line["step"], line["tool"], tool)
        sent = line["input"]
        if "node" in arguments:
            assert sent["kind"] == "act" and sent["node"] == arguments["node"], (sent, arguments)
            assert sent["action"] == arguments.get("action", "set_value"), (sent, arguments)
        elif "key" in arguments:
            assert sent["kind"] == "key", sent
            assert sent["key"] == arguments["key"] or sent.get("redacted"), (sent, arguments)
        else:
            assert sent["kind"] == "text", sent
            assert sent["text"] == arguments["text"] or sent.get("redacted"), (sent, arguments)
        assert line["ack"]["status"] in ("delivered", "rejected"), line["ack"]
        if sent["kind"] == "act":
            assert {"role", "label"} <= set(line.get("target", {})), line
        if "tree" not in line:
            # The app exited on it, drawing nothing after.
            assert any(later["kind"] == "app" for later in lines[lines.index(line) :]), line
            continue
        assert line["tree"]["roots"] and line["revision"] >= lines[0]["revision"], line["step"]
    reads = [line["tool"] for line in lines if line["kind"] == "read"]
    assert reads == agent.reads, (reads, agent.reads)
    refused = [(line["tool"], line["code"]) for line in lines if line["kind"] == "refused"]
    assert refused == agent.refused, (refused, agent.refused)
    resizes = [(line["size"]["width"], line["size"]["height"]) for line in lines if line["kind"] == "resize"]
    assert resizes == agent.resizes, (resizes, agent.resizes)
    for line in lines:
        if line["kind"] == "app" and mode == "spawn":
            assert line["event"] == "exited" and "exit_code" in line, line
    return lines


def keep_recording(path: Path, app: str, task: str) -> None:
    """With `TARIA_RECORD_DIR` set, copies the recording to `<dir>/<app>-<task>.jsonl`."""
    if directory := os.environ.get("TARIA_RECORD_DIR"):
        Path(directory).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(directory) / f"{app}-{task}.jsonl")


# The MCP protocol versions the tests speak: the last with an `initialize` handshake,
# and the first without (`server/discover`, then `_meta` on every request).
HANDSHAKE = "2025-11-25"
MODERN = "2026-07-28"


@contextlib.asynccontextmanager
async def spawned(
    example: str,
    cols: int = 100,
    rows: int = 30,
    args: tuple[str, ...] = (),
    protocol: str = HANDSHAKE,
    record: Path | None = None,
    bin: bool = False,
):
    """An MCP session with `taria-mcp --cols C --rows R -- <example> [args…]`: the
    bridge starts the example in a `cols` x `rows` pseudo-terminal with a private
    socket, and stops it when the session ends. With `record`, the bridge records
    the session to that file (`--record`).

    Yields the agent and what the server said of itself (`server_info`,
    `instructions`). `protocol` is `HANDSHAKE` (a `ClientSession` that sends
    `initialize`) or `MODERN` (the SDK's `Client`, negotiating as it does by
    default; the test fails unless that lands on 2026-07-28). With `bin`, `example`
    names a binary target (a corpus app, `corpus/`), not an example."""
    exe = binary(TARGET / example if bin else TARGET / "examples" / example)
    recording = ["--record", str(record)] if record else []
    args = ["--cols", str(cols), "--rows", str(rows), *recording, "--", str(exe), *args]
    async with bridge(args, protocol) as session:
        yield session


@contextlib.asynccontextmanager
async def attached(socket: Path, protocol: str = HANDSHAKE):
    """An MCP session with `taria-mcp --socket <socket>`: the bridge attaches to an
    app someone else runs (see `spawned` for what it yields)."""
    async with bridge(["--socket", str(socket)], protocol) as session:
        yield session


@functools.lru_cache
def structured_flag(bridge: Path) -> tuple[str, ...]:
    """`--structured`, where `bridge` knows it: a build from before issue 29 refuses it
    (`benches/mcp/ab_bridge.py` runs one), and always sent structured content."""
    usage = subprocess.run([str(bridge), "--help"], capture_output=True, text=True, check=False)
    return ("--structured",) if "--structured" in usage.stderr + usage.stdout else ()


@contextlib.asynccontextmanager
async def bridge(args: list[str], protocol: str, errlog=None):
    """An MCP session with `taria-mcp <args>`, speaking `protocol`; the bridge's
    standard error goes to `errlog` (a file), else to the test's. A program's session
    (`--structured`): results carry `structuredContent` beside the text, which the
    tests read fields from; what hosts give their model is `examples/e2e/hosts/`'s."""
    params = StdioServerParameters(
        command=str(binary(BRIDGE)),
        args=[*structured_flag(BRIDGE), *args],
        env={"TARIA_LOG": "warn"},
    )
    if protocol == MODERN:
        assert errlog is None, "the SDK's Client keeps the server's stderr"
        async with Client(params, read_timeout_seconds=30) as client:
            assert client.protocol_version == MODERN, client.protocol_version
            yield Agent(client), client
        return
    assert protocol == HANDSHAKE, protocol
    async with stdio_client(params, errlog=errlog or sys.stderr) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=30) as session:
            init = await session.initialize()
            assert init.protocol_version == HANDSHAKE, init.protocol_version
            yield Agent(session), init


def dump(value) -> str:
    return json.dumps(value, indent=2)[:4000]


class Tmux:
    """A private tmux server (its own socket) whose panes run apps as a user would."""

    servers = 0

    def __init__(self) -> None:
        Tmux.servers += 1
        self.server = f"taria-e2e-{os.getpid()}-{Tmux.servers}"

    def run(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.server, *args], check=True, capture_output=True, text=True
        ).stdout

    def start(self, name: str, command: list[str], env: dict[str, str]) -> None:
        line = " ".join(f"{key}={value}" for key, value in env.items())
        line += " exec " + " ".join(command)
        self.run("new-session", "-d", "-s", name, "-x", "100", "-y", "30", line)

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", name)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True)


@contextlib.contextmanager
def tmux():
    server = Tmux()
    # A session that outlives the apps': the server stays up between them.
    server.start("keep", ["sleep", "600"], {})
    try:
        yield server
    finally:
        server.kill()
