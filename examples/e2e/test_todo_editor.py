"""A person edits a task's title in $EDITOR from the todo app, which runs taria: while
the editor has the terminal, taria's background reader must not take its keys
(`taria::event::pause`). The app runs in a real pseudo-terminal; the "editor" is a
shell script that reads the new title from the terminal one key at a time (so a
reader that competes for the terminal would take some of them)."""

from __future__ import annotations

import contextlib
import os
import pty
import signal
import struct
import fcntl
import termios
import time
from pathlib import Path

from harness import TARGET, binary

TITLE = b"Write the docs"

EDITOR = f"""#!/bin/sh
stty -icanon -echo min 1 time 0
printf 'editor ready\\n'
title=$(dd bs=1 count={len(TITLE)} 2>/dev/null)
printf '%s\\n' "$title" > "$1"
"""


def wait_for(fd: int, seen: bytearray, needle: bytes, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while needle not in seen:
        assert time.monotonic() < deadline, f"never saw {needle!r}; last output: {bytes(seen[-600:])!r}"
        with contextlib.suppress(BlockingIOError, OSError):
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError(f"the app ended before {needle!r}")
            seen += chunk
        time.sleep(0.01)


def test_the_editor_gets_every_key_while_it_has_the_terminal(tmp_path: Path) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text(EDITOR)
    editor.chmod(0o755)
    exe = binary(TARGET / "examples" / "todo")
    env = dict(
        os.environ,
        EDITOR=str(editor),
        TARIA_SOCKET=str(tmp_path / "todo.sock"),
        TERM="xterm-256color",
    )
    env.pop("VISUAL", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the app
        os.execve(str(exe), [str(exe)], env)
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        os.set_blocking(fd, False)
        seen = bytearray()
        wait_for(fd, seen, b"Write the README")
        # The first task is selected: edit it. Let the app hand over the terminal first.
        os.write(fd, b"e")
        wait_for(fd, seen, b"editor ready")
        for key in TITLE:
            os.write(fd, bytes([key]))
            time.sleep(0.02)
        wait_for(fd, seen, b'Renamed to "' + TITLE + b'"', timeout=10)
        os.write(fd, b"q")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                assert os.waitstatus_to_exitcode(status) == 0
                pid = 0
                break
            with contextlib.suppress(BlockingIOError, OSError):
                os.read(fd, 65536)
            time.sleep(0.02)
        assert pid == 0, "the app did not quit"
    finally:
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        os.close(fd)
