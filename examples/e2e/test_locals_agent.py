"""An agent sets the volume of the `mixer` port (`examples/ports/mixer/`), whose whole
state is in `main`'s locals, through the real `taria-mcp` bridge in spawn mode: its
`set_value` on the `volume` slider reaches a closure over the local (`taria::on`, given
to `taria::drain_with` at the top of the loop), a value the slider's range does not
take is refused and changes nothing, the mute switch's `toggle` presses the app's m,
and q ends the app, which prints what the locals hold."""

from __future__ import annotations

import asyncio
import json

from harness import dump, spawned


def test_an_agent_sets_a_volume_kept_in_a_local_and_mutes() -> None:
    asyncio.run(_mix())


async def _mix() -> None:
    async with spawned("mixer", cols=60, rows=10) as (agent, _):
        found = await agent.ok("find_nodes", role="slider")
        [volume] = found["matches"]
        assert volume["id"] == "volume" and volume["value"] == 50, dump(found)
        assert "set_value" in volume["actions"], dump(found)

        done = await agent.ok("act", node="volume", action="set_value", value=35)
        assert done["status"] == "delivered", dump(done)
        found = await agent.ok("find_nodes", id="volume")
        assert found["matches"][0]["value"] == 35, dump(found)
        screen = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        assert "35%" in screen, screen

        # Out of the slider's range: refused, and the local keeps 35.
        refused = await agent.error("act", node="volume", action="set_value", value=140)
        assert "100" in json.dumps(refused), dump(refused)
        found = await agent.ok("find_nodes", id="volume")
        assert found["matches"][0]["value"] == 35, dump(found)

        muted = await agent.ok("act", node="mute", action="toggle")
        assert muted["status"] == "delivered", dump(muted)
        found = await agent.ok("find_nodes", id="mute")
        assert found["matches"][0]["checked"] is True, dump(found)
        screen = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        assert "[x] Mute" in screen and "35%" in screen, screen

        done = await agent.ok("press_key", key="q")
        assert "the app exited with exit status 0" in done["note"], dump(done)
        assert "volume 35, muted true" in done["note"], dump(done)
