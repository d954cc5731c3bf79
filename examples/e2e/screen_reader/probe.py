#!/usr/bin/python3
"""A screen reader's view of a taria app, through libatspi: what Orca reads.

Run by test_screen_reader.py inside a private D-Bus session with AT-SPI turned on
(`run.sh`), with the system Python: pyatspi and gi are Debian's packages
(python3-pyatspi), not importable from a pyenv or venv Python.

    probe.py APP [ARGS...]

Starts APP on a pseudo-terminal of its own (it is a terminal app: it draws on the
terminal and reads keys from it), waits for it on the AT-SPI desktop (named by its
executable's file name, as AccessKit's adapter names it), and prints what it finds
as JSON lines, which the test asserts on:

* `{"tree": [...]}`: every object, depth first: role, name, states, the action names,
  the text of those with a Text interface, the value of those with a Value interface;
* `{"clicked": NAME, "event": ...}`: the first unchecked list item was clicked
  (`Action.doAction`, AT-SPI's "click"), and the checked-state event that followed;
* `{"after": [...]}`: the tree read again after it;
* `{"typed": ..., "typed_event": ...}`: the text field's text set (`EditableText.SetTextContents`), and
  its text read back.

Exits 0 when it could do all of that, whatever it found; the test judges.
"""
import json
import os
import pty
import signal
import struct
import sys
import fcntl
import termios
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

APPEAR = 20.0
EVENT = 10.0


def states(obj):
    return sorted(Atspi.StateType(s).value_nick for s in obj.get_state_set().get_states())


def describe(obj, depth):
    entry = {
        "depth": depth,
        "role": obj.get_role_name(),
        "name": obj.get_name(),
        "states": states(obj),
    }
    interfaces = obj.get_interfaces()
    if "Action" in interfaces:
        entry["actions"] = [
            Atspi.Action.get_localized_name(obj, i) for i in range(Atspi.Action.get_n_actions(obj))
        ]
    if "Text" in interfaces:
        entry["text"] = Atspi.Text.get_text(obj, 0, -1)
    if "Value" in interfaces:
        entry["value"] = Atspi.Value.get_current_value(obj)
    return entry


def walk(obj, depth=0, out=None):
    out = [] if out is None else out
    out.append((obj, describe(obj, depth)))
    for i in range(obj.get_child_count()):
        child = obj.get_child_at_index(i)
        if child is not None:
            walk(child, depth + 1, out)
    return out


def find_app(name):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_name() == name:
            return app
    return None


def pump_until(done, timeout):
    context = GLib.MainContext.default()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        while context.iteration(False):
            pass
        if done():
            return True
        time.sleep(0.005)
    return False


def emit(**fields):
    print(json.dumps(fields), flush=True)


def spawn(argv):
    """APP on a pseudo-terminal of 120x40, its output drained by the caller."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execvp(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.set_blocking(fd, False)
    return pid, fd


def drain(fd):
    try:
        while os.read(fd, 65536):
            pass
    except (BlockingIOError, OSError):
        pass


def main():
    argv = sys.argv[1:]
    name = os.path.basename(argv[0])
    pid, fd = spawn(argv)
    try:
        return probe(name, pid, fd)
    finally:
        os.kill(pid, signal.SIGTERM)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass


def probe(name, pid, fd):
    start = time.monotonic()
    app = None
    # Until the app has exported its first frame: its window has children.
    while time.monotonic() - start < APPEAR:
        drain(fd)
        app = find_app(name)
        if app is not None and app.get_child_count() > 0:
            window = app.get_child_at_index(0)
            if window is not None and window.get_child_count() > 0:
                break
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            emit(error=f"{name} exited before it was read")
            return 1
        time.sleep(0.02)
    else:
        emit(error=f"no {name!r} with a tree on the AT-SPI desktop after {APPEAR} s")
        return 1
    emit(appeared_ms=round((time.monotonic() - start) * 1000), toolkit=app.get_toolkit_name())
    nodes = walk(app)
    emit(tree=[entry for _, entry in nodes])

    target = next(
        (obj for obj, entry in nodes
         if entry["role"] == "list item" and "checked" not in entry["states"]
         and "click" in entry.get("actions", [])),
        None,
    )
    if target is None:
        emit(error="no unchecked list item to click")
        return 1
    events = []
    listener = Atspi.EventListener.new(
        lambda event: events.append((event.type, event.detail1, event.source.get_name())))
    listener.register("object:state-changed:checked")
    pump_until(lambda: False, 0.1)  # the listener's match rule reaches the bus
    clicked = target.get_name()
    Atspi.Action.do_action(target, 0)
    got = pump_until(lambda: any(e[2] == clicked for e in events), EVENT)
    drain(fd)
    emit(clicked=clicked, event=[list(e) for e in events] if got else None)
    app.clear_cache()  # read the app again, not libatspi's copy
    emit(after=[entry for _, entry in walk(app)])

    field = next((obj for obj, entry in walk(app) if entry["role"] == "entry"), None)
    if field is None:
        emit(error="no text field")
        return 1
    events.clear()
    listener.register("object:text-changed:insert")
    pump_until(lambda: False, 0.1)
    Atspi.EditableText.set_text_contents(field, "water the plants")
    got = pump_until(lambda: any(e[0].startswith("object:text-changed") for e in events), EVENT)
    drain(fd)
    emit(typed=Atspi.Text.get_text(field, 0, -1), typed_event=got)
    return 0


if __name__ == "__main__":
    sys.exit(main())
