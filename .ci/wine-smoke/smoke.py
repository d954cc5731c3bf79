"""The wine smoke test's client: runs `wine taria-mcp.exe <args>` in <dir>, speaks
MCP JSON-RPC by hand over its stdio and checks what it can (see ./run)."""

import json
import os
import subprocess
import sys
import threading
import time

HELLO = {"protocolVersion": "2025-11-25", "capabilities": {},
         "clientInfo": {"name": "wine-smoke", "version": "0"}}


class Bridge:
    def __init__(self, cwd, args, read_log=True):
        env = dict(os.environ, TARIA_LOG="info")
        self.proc = subprocess.Popen(["wine", "taria-mcp.exe", *args], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.log = []
        if read_log:
            threading.Thread(target=self._drain, daemon=True).start()
        self.next_id = 0
        init = self.request("initialize", HELLO)
        assert init["result"]["serverInfo"]["name"] == "taria-mcp", init
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _drain(self):
        for line in self.proc.stderr:
            self.log.append(line.decode(errors="replace"))

    def _send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("the bridge closed stdout; its log:\n" + "".join(self.log))
            message = json.loads(line)
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

    def close(self):
        """Closes stdin; the seconds until the bridge exited."""
        started = time.monotonic()
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        return time.monotonic() - started

    def logged(self, text):
        return any(text in line for line in self.log)


def spawn(cwd):
    """Spawn mode (ConPTY) with the headless app."""
    bridge = Bridge(cwd, ["--", "taria-wine-headless.exe"])
    outline = bridge.ok("read_tree", {})["outline"]
    assert '- button "Count 0" [id=more] {activate}' in outline, outline
    changes = bridge.ok("act", {"node": "more", "action": "activate"})["changes"]
    assert '"Count 1"' in changes, changes
    failed, resized = bridge.call("resize", {"cols": 100, "rows": 30})
    if failed:
        # wine 8's ResizePseudoConsole is a stub (E_NOTIMPL); Windows implements it.
        print(f"  (resize failed, as wine 8 makes it: {resized.get('message')})")
    took = bridge.close()
    assert bridge.logged("stopping the app (closing its console)"), "".join(bridge.log)
    assert bridge.logged("the app exited"), "".join(bridge.log)
    print(f"  the bridge stopped the app and exited {took:.1f} s after stdin closed")


def spawn_abrupt(cwd):
    """Spawn mode: a host that closes all the bridge's pipes at once (stderr too)."""
    # No thread reads stderr: closing a pipe another thread reads blocks in Python.
    bridge = Bridge(cwd, ["--", "taria-wine-headless.exe"], read_log=False)
    bridge.ok("read_tree", {})
    bridge.proc.stderr.close()
    bridge.proc.stdin.close()
    code = bridge.proc.wait(timeout=60)
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
    deadline = time.monotonic() + 60
    while True:
        failed, tree = bridge.call("read_tree", {})
        if not failed or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert not failed, tree
    assert '- list "Tasks" [id=tasks]' in tree["outline"], tree
    changes = bridge.ok("act", {"node": "tasks/list_item#1", "action": "toggle"})["changes"]
    assert '"Write docs" [id=tasks/list_item#1 positional] [selected] [checked]' in changes, changes
    rows = bridge.ok("read_screen", {})["rows"]
    assert any("[x] Write docs" in row for row in rows), rows
    bridge.ok("press_key", {"key": "q"})
    bridge.close()


if __name__ == "__main__":
    scenario, cwd, *rest = sys.argv[1:]
    print(f"== {scenario}")
    {"spawn": spawn, "spawn-abrupt": spawn_abrupt, "spawn-failure": spawn_failure, "attach": attach}[scenario](cwd, *rest)
    print("   passed")
