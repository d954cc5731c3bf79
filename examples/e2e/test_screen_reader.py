"""A screen reader reads the todo app and toggles a task, through AT-SPI (issue 34).

The todo example, built with taria's `atspi` feature (the README's build,
`--all-features`, has it), runs on a pseudo-terminal inside a private D-Bus session
with AT-SPI turned on; libatspi (Debian's python3-pyatspi, what Orca is built on)
reads its tree, clicks a task and types into the field (`screen_reader/probe.py`,
started by `screen_reader/run.sh`). The click must reach the app's own handler: the
status line the app writes after a toggle, read back through AT-SPI, says so.

Without those packages the test is skipped, except under CI (`CI=true`), which
installs them (.ci/run), where it fails.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from harness import TARGET, binary

HERE = Path(__file__).parent / "screen_reader"


def missing() -> str | None:
    if shutil.which("dbus-run-session") is None:
        return "dbus-run-session (Debian's dbus-daemon)"
    probe = subprocess.run(
        ["/usr/bin/python3", "-c", "import gi; gi.require_version('Atspi', '2.0')"],
        capture_output=True,
    ) if Path("/usr/bin/python3").exists() else None
    if probe is None or probe.returncode != 0:
        return "libatspi for the system Python (Debian's python3-pyatspi)"
    return None


if (why := missing()) is not None:
    if os.environ.get("CI"):
        raise RuntimeError(f"CI installs what the screen reader test needs, but {why} is missing")
    pytest.skip(f"needs {why}", allow_module_level=True)


def read(app: Path) -> dict:
    """The probe's findings by kind (`tree`, `clicked`, `after`, `typed`, `error`)."""
    run = subprocess.run(
        [str(HERE / "run.sh"), str(app)], capture_output=True, text=True, timeout=120
    )
    found = {}
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            found.update(json.loads(line))
    hint = ""
    if "on the AT-SPI desktop" in str(found.get("error")):
        # The likeliest cause: the app was last built without the feature, e.g. by
        # the README's `cargo run --example todo`, or a host harness's.
        hint = (
            f"\n{app.name} never showed up on the AT-SPI bus: was it built with taria's "
            "`atspi` feature? Build the apps as the suite expects: "
            "`cargo build --workspace --all-features --examples --bins`"
        )
    assert "error" not in found and run.returncode == 0, (
        f"probe: {found.get('error')} (exit {run.returncode}){hint}\n{run.stdout}\n{run.stderr}"
    )
    return found


def outline(tree: list[dict]) -> list[tuple]:
    return [(e["depth"], e["role"], e["name"]) for e in tree]


def item(tree: list[dict], name: str) -> dict:
    return next(e for e in tree if e["role"] == "list item" and e["name"] == name)


def test_a_screen_reader_reads_the_todo_and_toggles_a_task_through_its_handler():
    found = read(binary(TARGET / "examples" / "todo"))
    tree = found["tree"]
    assert found["toolkit"] == "taria"
    # The tree an agent reads, as AT-SPI roles: the window, the filter tabs, the
    # list of tasks, the field and the status line, in drawing order.
    assert outline(tree) == [
        (0, "application", "todo"),
        (1, "frame", "todo"),
        (2, "page tab list", "Filter"),
        (3, "page tab", "All"),
        (3, "page tab", "Active"),
        (3, "page tab", "Done"),
        (2, "list", "Tasks"),
        (3, "list item", "Write the README"),
        (3, "list item", "Record a demo"),
        (3, "list item", "Ship v0"),
        (2, "entry", "New task"),
        (2, "status bar", tree[-1]["name"]),
    ], json.dumps(tree, indent=1)
    # States: the selected tab, the done task, which tasks can be checked.
    assert "selected" in next(e for e in tree if e["name"] == "All")["states"]
    assert {"checkable", "checked"} <= set(item(tree, "Write the README")["states"])
    assert "checked" not in item(tree, "Record a demo")["states"]
    assert item(tree, "Record a demo")["actions"] == ["click"]
    assert "editable" in next(e for e in tree if e["role"] == "entry")["states"]

    # The click (AT-SPI's one action) toggled the first open task, through the app's
    # handler: the app checked it and wrote its status line.
    assert found["clicked"] == "Record a demo"
    assert found["event"] == [["object:state-changed:checked", 1, "Record a demo"]]
    after = found["after"]
    assert "checked" in item(after, "Record a demo")["states"]
    assert after[-1]["role"] == "status bar"
    assert after[-1]["name"] == 'Completed "Record a demo"'
    # Nothing else changed state.
    assert "checked" not in item(after, "Ship v0")["states"]

    # Text set through AT-SPI's EditableText is the field's value in the app.
    assert found["typed"] == "water the plants" and found["typed_event"]
