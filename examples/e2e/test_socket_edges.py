"""The real `todo` app, run in a terminal (a tmux pane) as a user runs it, driven by a
raw wire-protocol client on its socket (docs/protocol.md), for what an MCP client
cannot send by itself: several inputs in one write, a client that disconnects in the
middle of an input, a socket path too long for a socket address."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import tempfile
import time
from pathlib import Path

import pytest

from harness import TARGET, binary, tmux

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)")


class Wire:
    """A raw client of an app's socket: lines of JSON in and out."""

    def __init__(self, path: Path) -> None:
        deadline = time.monotonic() + 10
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                assert time.monotonic() < deadline, f"nothing listens at {path}"
                time.sleep(0.05)
        self.sock.settimeout(10)
        self.buffer = b""
        hello = self.next()
        assert hello["type"] == "hello", hello
        self.until(lambda m: m["type"] == "tree")

    def send(self, *messages: dict) -> None:
        """All of `messages` in one write."""
        self.sock.sendall(b"".join(json.dumps(m).encode() + b"\n" for m in messages))

    def next(self) -> dict:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            assert chunk, "the app closed the connection"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def until(self, matches) -> dict:
        while True:
            message = self.next()
            if matches(message):
                return message

    def ack(self, seq: int) -> dict:
        return self.until(lambda m: m["type"] == "ack" and m["seq"] == seq)

    def node(self, node_id: str) -> dict | None:
        """The node as the app draws it now (a full tree on request)."""
        self.send({"type": "get_tree"})
        tree = self.until(lambda m: m["type"] == "tree")["tree"]
        stack = list(tree["roots"])
        while stack:
            node = stack.pop()
            if node.get("id") == node_id:
                return node
            stack.extend(node.get("children", []))
        return None

    def close(self) -> None:
        self.sock.close()


@contextlib.contextmanager
def todo_in_tmux(pane: str = "todo"):
    """The real `todo` app in a tmux pane, serving a private socket: (terminal, path)."""
    todo = str(binary(TARGET / "examples" / "todo"))
    with tempfile.TemporaryDirectory(prefix="taria-") as tmp, tmux() as terminal:
        path = Path(tmp) / "todo.sock"
        terminal.start(pane, [todo], {"TARIA_SOCKET": str(path)})
        yield terminal, path


def act(seq: int, node: str, action: str) -> dict:
    return {"type": "input", "seq": seq, "kind": "act", "node": node, "action": action}


def wait_for_screen(terminal, pane: str, text: str) -> str:
    deadline = time.monotonic() + 10
    while text not in (screen := terminal.screen(pane)):
        assert time.monotonic() < deadline, screen
        time.sleep(0.05)
    return screen


def test_inputs_in_one_write_are_each_checked_against_what_the_ones_before_did() -> None:
    with todo_in_tmux() as (terminal, path):
        wire = Wire(path)
        # Delete "Record a demo", then, in the same write, pick the Done filter:
        # the second must be checked against the dialog the first opened.
        wire.send(act(1, "tasks/2", "delete"), act(2, "filter/done", "select"))
        assert wire.ack(1)["status"] == "delivered"
        refused = wire.ack(2)
        assert (refused["status"], refused["reason"]) == ("rejected", "action_not_offered"), refused
        wire.send(act(3, "confirm-delete", "submit"))
        assert wire.ack(3)["status"] == "delivered"
        screen = wait_for_screen(terminal, "todo", "Deleted the task")
        assert "Record a demo" not in screen and "Write the README" in screen, screen
        assert wire.node("filter/all").get("selected") is True, "the filter behind the dialog did not move"
        wire.close()


def test_a_text_from_a_client_that_disconnected_is_not_typed_on() -> None:
    with todo_in_tmux() as (_terminal, path):
        first = Wire(path)
        first.send(act(1, "new-task", "focus"))
        assert first.ack(1)["status"] == "delivered"
        first.send({"type": "input", "seq": 2, "kind": "text", "text": "x" * 4096})
        time.sleep(0.1)
        first.close()
        second = Wire(path)
        time.sleep(0.1)
        typed = len(second.node("new-task").get("value", ""))
        time.sleep(0.5)
        later = len(second.node("new-task").get("value", ""))
        assert later == typed < 4096, (typed, later)
        second.close()


def test_a_socket_path_too_long_is_refused_and_the_app_says_why() -> None:
    todo = str(binary(TARGET / "examples" / "todo"))
    with tempfile.TemporaryDirectory(prefix="taria-") as tmp, tmux() as terminal:
        path = Path(tmp) / ("s" * 120 + ".sock")
        # The pane outlives the app, to show what it printed when it ended.
        terminal.start("todo", ["sh", "-c", f"'{todo}; sleep 30'"], {"TARIA_SOCKET": str(path)})
        wait_for_screen(terminal, "todo", "Write the README")
        assert not path.exists(), "no socket file that nothing can connect to"
        terminal.run("send-keys", "-t", "todo", "q")
        screen = wait_for_screen(terminal, "todo", "agent access was off")
        assert "at most 107 bytes" in screen.replace("\n", "") and "TARIA_SOCKET" in screen, screen


def test_an_app_that_quits_leaves_the_socket_of_a_newer_app_at_its_path() -> None:
    todo = str(binary(TARGET / "examples" / "todo"))
    with todo_in_tmux("older") as (terminal, path):
        Wire(path).close()
        # Its file goes (a cleaner, a user), and a newer app takes the path.
        path.unlink()
        terminal.start("newer", [todo], {"TARIA_SOCKET": str(path)})
        Wire(path).close()
        terminal.run("send-keys", "-t", "older", "q")
        deadline = time.monotonic() + 10
        while "older" in terminal.run("list-sessions", "-F", "#{session_name}"):
            assert time.monotonic() < deadline, "the older app did not quit"
            time.sleep(0.05)
        assert path.exists(), "the newer app's socket is still there"
        wire = Wire(path)
        assert wire.node("tasks/1") is not None
        wire.close()
