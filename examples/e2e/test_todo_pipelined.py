"""Two calls an agent sends back to back reach the todo app in order, and the second is
checked against what the first did: a `select` behind the confirmation dialog that a
`delete` just opened is refused, and the dialog then deletes the task it was opened
for. (Before, the select could slip past the dialog, and the dialog deleted another
task.)"""

from __future__ import annotations

import asyncio

from harness import dump, spawned


def test_a_call_sent_behind_a_delete_cannot_act_behind_its_dialog() -> None:
    asyncio.run(_pipelined())


async def _pipelined() -> None:
    async with spawned("todo") as (agent, _init):
        await agent.ok("read_tree")
        for task in ("tasks/2", "tasks/3"):
            # Both requests are written before either is answered.
            deleted, selected = await asyncio.gather(
                agent.call("act", node=task, action="delete"),
                agent.call("act", node="filter/done", action="select"),
            )
            assert not deleted.is_error, dump(deleted.structured_content)
            assert selected.is_error, dump(selected.structured_content)
            refused = selected.structured_content
            assert refused["code"] == "action_unsupported", dump(refused)
            tabs = await agent.ok("find_nodes", role="tab", state=["selected"])
            assert [m["label"] for m in tabs["matches"]] == ["All"], dump(tabs)
            await agent.ok("act", node="confirm-delete", action="submit")
            gone = await agent.ok("find_nodes", id=task)
            assert gone["total"] == 0, dump(gone)
        left = await agent.ok("find_nodes", role="list_item")
        assert [m["label"] for m in left["matches"]] == ["Write the README"], dump(left)
