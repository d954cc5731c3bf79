"""An app built before the bridge's schema split (issue 32) and today's bridge work
together: the wire protocol did not change.

`TARIA_OLD_TODO` names the todo example built from an older commit; `.ci/run` builds
it from `OLD_APP_COMMIT` (its own checkout and target directory) and sets it. Without
it the test is skipped, except under CI (`CI=true`), where it fails (a check CI never
runs would be no check) unless `.ci/run` said the commit is not in its clone.

Today's bridge spawns the old binary, reads its tree, acts on it (a toggle, a title
typed and submitted), waits for a change, reads the screen, and the app's answers
and trees arrive as they did: the old app's JSON is read by today's schema."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from harness import HANDSHAKE, MODERN, bridge, dump

OLD_TODO = os.environ.get("TARIA_OLD_TODO")

if not OLD_TODO:
    if missing := os.environ.get("TARIA_OLD_TODO_MISSING"):
        pytest.skip(f"no older app to drive: {missing}", allow_module_level=True)
    if os.environ.get("CI") == "true":
        raise RuntimeError("TARIA_OLD_TODO is not set: .ci/run builds the older todo and sets it")
    pytest.skip("TARIA_OLD_TODO (an older build of the todo example) is not set", allow_module_level=True)


@pytest.mark.parametrize("protocol", [HANDSHAKE, MODERN])
def test_todays_bridge_drives_an_app_built_before_the_schema_split(protocol: str) -> None:
    asyncio.run(_drive(protocol))


async def _drive(protocol: str) -> None:
    old = Path(OLD_TODO)
    assert old.exists(), old
    args = ["--cols", "100", "--rows", "30", "--", str(old)]
    async with bridge(args, protocol) as (agent, _init):
        tree = await agent.ok("read_tree")
        assert "tasks/2" in tree["outline"], dump(tree)
        toggled = await agent.ok("act", node="tasks/2", action="toggle")
        assert "tasks/2" in toggled["changedIds"], dump(toggled)
        done = await agent.ok("find_nodes", id="tasks/2")
        assert done["matches"][0]["checked"] is True, dump(done)
        missing = await agent.error("act", node="tasks/999", action="toggle")
        assert missing["code"] == "not_found", dump(missing)
        await agent.ok("act", node="new-task", action="focus")
        await agent.ok("type_text", text="Ship the schema crate")
        await agent.ok("press_key", key="enter")
        found = await agent.ok("find_nodes", role="list_item")
        labels = [m["label"] for m in found["matches"]]
        assert "Ship the schema crate" in labels, dump(found)
        screen = await agent.ok("read_tree", format="screen")
        assert "Ship the schema crate" in str(screen), dump(screen)
