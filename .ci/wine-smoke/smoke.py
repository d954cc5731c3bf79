"""The wine smoke test's client: runs `wine taria-mcp.exe <args>` in <dir>, speaks
MCP JSON-RPC by hand over its stdio and checks what it can (see ./run).

Every wait has a deadline, so a hung bridge fails the step with what it was waiting
for and the bridge's log rather than stalling CI."""

import json
import os
import select
import subprocess
import sys
import threading
import time

HELLO = {"protocolVersion": "2025-11-25", "capabilities": {},
         "clientInfo": {"name": "wine-smoke", "version": "0"}}
# One answer from the bridge under wine: its first answer starts wine's process
# (a second or two, more on a loaded machine); later ones take milliseconds.
ANSWER_SECONDS = 60
# The bridge's exit after its stdin closes: it stops the app first (under wine the
# console close does not end it, so that is the 2 s TerminateProcess fallback).
EXIT_SECONDS = 60


class Bridge:
    def __init__(self, cwd, args, read_log=True):
        env = dict(os.environ, TARIA_LOG="info")
        self.args = args
        # A program's session: results carry structuredContent, which this reads.
        self.proc = subprocess.Popen(["wine", "taria-mcp.exe", "--structured", *args], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.log = []
        self.pending = b""
        self.drainer = threading.Thread(target=self._drain, daemon=True)
        if read_log:
            self.drainer.start()
        self.next_id = 0
        init = self.request("initialize", HELLO)
        assert init["result"]["serverInfo"]["name"] == "taria-mcp", init
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line.decode(errors="replace"))

    def _fail(self, what):
        """Kills the bridge and fails with what went wrong, how it ended and its log."""
        try:
            ended = f"it exited with {self.proc.wait(timeout=2)}"
        except subprocess.TimeoutExpired:
            ended = "killed by the test"
            self.proc.kill()
            self.proc.wait()
        if self.drainer.is_alive():
            self.drainer.join(timeout=5)  # the rest of the log, now that it has ended
        raise AssertionError(f"`taria-mcp {' '.join(self.args)}`: {what} ({ended}); "
                             "its log:\n" + "".join(self.log))

    def _send(self, message):
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            self._fail(f"the bridge stopped reading stdin before {message.get('method')}")

    def _read_line(self, waiting_for):
        """One line of stdout within ANSWER_SECONDS (select, not a thread, so a
        scenario may close stdout while nothing reads it)."""
        deadline = time.monotonic() + ANSWER_SECONDS
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self._fail(f"no answer to {waiting_for} within {ANSWER_SECONDS} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                self._fail(f"the bridge closed stdout before answering {waiting_for}")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line

    def request(self, method, params):
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = json.loads(self._read_line(method))
            if message.get("id") == self.next_id:
                return message

    def call(self, name, arguments):
        result = self.request("tools/call", {"name": name, "arguments": arguments})["result"]
        content = result.get("structuredContent", {})
        print(f"  {name} {json.dumps(arguments)} -> "
              f"{'error ' + content.get('code', '?') if result.get('isError') else 'ok'}")
        return result.get("isError", False), content

    def ok(self, name, arguments):
        failed, content = self.call(name, arguments)
        assert not failed, content
        return content

    def wait(self, after):
        """The bridge's exit code within EXIT_SECONDS of `after`."""
        try:
            return self.proc.wait(timeout=EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            self._fail(f"still running {EXIT_SECONDS} s after {after}")

    def close(self):
        """Closes stdin; the seconds until the bridge exited (with 0)."""
        started = time.monotonic()
        self.proc.stdin.close()
        code = self.wait("its stdin closed")
        took = time.monotonic() - started
        assert code == 0, f"the bridge ended with {code} (101: a panic); its log:\n" \
            + "".join(self.log)
        return took

    def act(self, arguments):
        """An `act` that must succeed; what the app drew after it: the changed nodes'
        lines, or the whole outline when most of the tree changed."""
        result = self.ok("act", arguments)
        drawn = result.get("changes") or result.get("outline")
        assert drawn, f"act {arguments} answered no changes and no outline: {result}"
        return drawn

    def logged(self, text):
        return any(text in line for line in self.log)


def spawn(cwd):
    """Spawn mode (ConPTY) with the headless app."""
    bridge = Bridge(cwd, ["--", "taria-wine-headless.exe"])
    outline = bridge.ok("read_tree", {})["outline"]
    assert '- button "Count 0" [id=more] {activate}' in outline, outline
    drawn = bridge.act({"node": "more", "action": "activate"})
    assert '"Count 1"' in drawn, drawn
    failed, resized = bridge.call("resize", {"cols": 100, "rows": 30})
    if failed:
        # wine 8's ResizePseudoConsole is a stub (E_NOTIMPL, HRESULT 0x80004001);
        # Windows implements it. Any other failure is the bridge's.
        assert "HRESULT: -2147467263" in resized.get("message", ""), resized
        # The app is still connected: the failure is the bridge's, not app_not_connected.
        assert resized.get("code") == "internal", resized
        print(f"  (resize failed, as wine 8 makes it: {resized.get('message')})")
    # The session goes on after the resize, failed or not.
    outline = bridge.ok("read_tree", {})["outline"]
    assert '"Count 1"' in outline, outline
    took = bridge.close()
    assert bridge.logged("stopping the app (closing its console)"), "".join(bridge.log)
    assert bridge.logged("the app exited"), "".join(bridge.log)
    print(f"  the bridge stopped the app and exited {took:.1f} s after stdin closed")


def spawn_abrupt(cwd):
    """Spawn mode: a host that closes all the bridge's pipes at once."""
    # No thread reads stderr: closing a pipe another thread reads blocks in Python.
    bridge = Bridge(cwd, ["--", "taria-wine-headless.exe"], read_log=False)
    bridge.ok("read_tree", {})
    bridge.proc.stdout.close()
    bridge.proc.stderr.close()
    bridge.proc.stdin.close()
    code = bridge.wait("all its pipes closed")
    assert code == 0, f"the bridge ended with {code} (101: a panic)"


def spawn_failure(cwd):
    """Spawn mode: an app that exits at once is reported with its exit status."""
    bridge = Bridge(cwd, ["--", "taria-mcp.exe", "--no-such-flag"])
    deadline = time.monotonic() + 30
    while True:
        failed, content = bridge.call("read_tree", {})
        assert failed, content
        if content["code"] == "app_exited" or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert content["code"] == "app_exited" and content["exitCode"] == 2, content
    bridge.close()


def attach(cwd, socket):
    """Attach mode over the named pipe of a real example running on a tty."""
    bridge = Bridge(cwd, ["--socket", socket])
    # The app starts under wine beside the bridge: its pipe appears within seconds.
    deadline = time.monotonic() + 60
    while True:
        failed, tree = bridge.call("read_tree", {})
        if not failed or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert not failed, f"no app on {socket} within 60 s: {tree}"
    assert '- list "Tasks" [id=tasks]' in tree["outline"], tree
    drawn = bridge.act({"node": "tasks/list_item#1", "action": "toggle"})
    assert '"Write docs" [id=tasks/list_item#1 positional] [selected] [checked]' in drawn, drawn
    rows = bridge.ok("read_tree", {"format": "screen"})["rows"]
    assert any("[x] Write docs" in row for row in rows), rows
    bridge.ok("press_key", {"key": "q"})
    bridge.close()


if __name__ == "__main__":
    scenario, cwd, *rest = sys.argv[1:]
    print(f"== {scenario}")
    {"spawn": spawn, "spawn-abrupt": spawn_abrupt, "spawn-failure": spawn_failure,
     "attach": attach}[scenario](cwd, *rest)
    print("   passed")
