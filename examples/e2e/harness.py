"""Runs a real example app in a real pseudo-terminal and a real `taria-mcp` bridge,
for end-to-end tests with the official Python MCP client.

Binaries come from the cargo target directory (`CARGO_TARGET_DIR`, else `target/`),
built by `cargo test --workspace --all-features` (or `cargo build --examples
--features taria-runtime/mcp`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import signal
import struct
import tempfile
import termios
import threading
import time
from datetime import timedelta
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "debug"
BRIDGE = TARGET / "taria-mcp"


def binary(path: Path) -> Path:
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is not built: run `cargo test --workspace --all-features` "
            "(or `cargo build --examples --features taria-runtime/mcp --bins`) first"
        )
    return path


class PtyApp:
    """An example app running in a pseudo-terminal of `cols` x `rows`, serving its
    semantic tree on a private socket. The terminal output is read all the time."""

    def __init__(self, example: str, cols: int = 100, rows: int = 30) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="taria-e2e-"))
        os.chmod(self.dir, 0o700)
        self.socket = self.dir / f"{example}.sock"
        exe = binary(TARGET / "examples" / example)
        env = dict(os.environ, TARIA_SOCKET=str(self.socket), TERM="xterm-256color")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the app
            os.execve(str(exe), [str(exe)], env)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.output = bytearray()
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 20
        while not self.socket.exists():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{example} did not open {self.socket}; output: {bytes(self.output[-500:])!r}")
            time.sleep(0.02)

    def _drain(self) -> None:
        with contextlib.suppress(OSError):
            while chunk := os.read(self.fd, 65536):
                self.output += chunk

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.fd)


class Agent:
    """A scripted agent: an MCP client session with `taria-mcp` attached to an app.
    Counts tool calls and the bytes of every result it reads."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session
        self.calls = 0
        self.bytes_read = 0

    async def call(self, tool: str, **arguments):
        result = await self.session.call_tool(tool, arguments)
        self.calls += 1
        text = "".join(block.text for block in result.content if getattr(block, "type", "") == "text")
        self.bytes_read += len(text.encode())
        return result

    async def ok(self, tool: str, **arguments) -> dict:
        result = await self.call(tool, **arguments)
        assert not result.is_error, f"{tool} {arguments} failed: {result.structured_content}"
        assert result.structured_content is not None, f"{tool} returned no structuredContent"
        return result.structured_content

    async def error(self, tool: str, **arguments) -> dict:
        result = await self.call(tool, **arguments)
        assert result.is_error, f"{tool} {arguments} should have failed: {result.structured_content}"
        return result.structured_content


@contextlib.asynccontextmanager
async def attached(app: PtyApp):
    params = StdioServerParameters(
        command=str(binary(BRIDGE)), args=["--socket", str(app.socket)], env={"TARIA_LOG": "warn"}
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=30) as session:
            init = await session.initialize()
            yield Agent(session), init


def dump(value) -> str:
    return json.dumps(value, indent=2)[:4000]
