"""What an input's result says, read as the model reads it (the text content), on the
real examples: only the lines that changed for the agent. A modal dialog opening does
not re-list what it made inert, nor its closing what comes back as it was; a tab that
only lost `[selected]` to the one that gained it is implied; a re-sorted table's rows
are one line each, the rows the sort took out of view are counted (they are not gone),
and a list that only grew longer is not re-listed. The bridge's events are lines of
their own; what a dialog made inert keeps its id."""

from __future__ import annotations

import asyncio
import re

from harness import spawned


def text_of(result) -> str:
    return "".join(b.text for b in result.content if getattr(b, "type", "") == "text")


def ids(text: str) -> list[str]:
    return re.findall(r"\[id=([^\] ]+)", text)


def test_a_modal_dialog_lists_itself_opening_and_only_real_changes_closing() -> None:
    asyncio.run(_modal())


async def _modal() -> None:
    async with spawned("todo") as (agent, _init):
        await agent.ok("read_tree")
        opened = text_of(await agent.call("act", node="tasks/2", action="delete"))
        # The bridge's event on a line of its own, where no app text can be.
        assert re.search(r"^dialog confirm-delete opened$", opened, re.M), opened
        # The dialog, and the task selected to open it; not the tabs, list and field
        # behind it, which only lost their actions (inert): the event says that.
        assert ids(opened) == ["tasks/2", "confirm-delete"], opened
        assert "the whole tree" not in opened, opened
        # Behind it, read now: every task keeps its id, marked inert.
        behind = (await agent.ok("read_tree"))["outline"]
        assert re.search(r"\[id=tasks/1\][^\n]*\[inert\]", behind), behind
        closed_result = await agent.call("act", node="confirm-delete", action="submit")
        closed = text_of(closed_result)
        assert "dialog confirm-delete closed" in closed, closed
        # What changed since before the dialog: the task went, the status says so
        # (the dialog's going is its event, said once).
        assert re.search(r"^removed: tasks/2$", closed, re.M), closed
        # (the next task took the selection: a real change)
        assert ids(closed) == ["tasks/3", "status"], closed
        assert "filter/all" not in closed and "new-task" not in closed, closed
        # The structured result still has every id that went.
        assert set(closed_result.structured_content["removedIds"]) == {"tasks/2", "confirm-delete"}


def test_selection_moving_lists_the_newly_selected_only() -> None:
    asyncio.run(_selection())


async def _selection() -> None:
    async with spawned("todo") as (agent, _init):
        await agent.ok("read_tree")
        text = text_of(await agent.call("act", node="filter/active", action="select"))
        assert '- tab "Active" [id=filter/active] [selected]' in text, text
        # "All" only lost [selected] to "Active": implied, not listed.
        assert "filter/all" not in text, text


def test_a_resorted_table_is_its_rows_one_line_each() -> None:
    asyncio.run(_resorted())


async def _resorted() -> None:
    async with spawned("dashboard") as (agent, _init):
        await agent.ok("press_key", key="1")  # sorted by PID
        await agent.ok("press_key", key="p")  # the live updates paused
        tree = await agent.ok("read_tree")
        assert "[id=processes]" in tree["outline"], tree["outline"][:2000]
        result = await agent.call("act", node="sort/cpu", action="select")
        text = text_of(result)
        rows = re.findall(r"^- row \[id=(processes/\d+)\][^\n]*\{select\}: (.*)$", text, re.M)
        assert len(rows) >= 10, text
        # Cells are on their row's line, never lines (or removed ids) of their own.
        assert not re.search(r"^- cell", text, re.M), text
        assert not re.search(r"processes/\d+/\d", text), text
        cpu = [float(cells.split(" | ")[3].strip('"')) for _, cells in rows]
        assert cpu == sorted(cpu, reverse=True), cpu
        # Only the first row of the run carries its index; the next ones follow it.
        indexed = re.findall(r"^- row [^\n]*\[index=", text, re.M)
        assert len(indexed) == 1, text
        # The rows the sort took out of view are not gone: a count, not `removed:`.
        assert not re.search(r"^removed:", text, re.M), text
        out = re.search(r"^(\d+) rows of processes scrolled out of view$", text, re.M)
        assert out, text
        gone = result.structured_content["scrolledOutIds"]
        assert int(out.group(1)) == len([i for i in gone if re.fullmatch(r"processes/\d+", i)]), gone
        # The charts, log and gauges did not change: not in the text.
        assert "[id=log]" not in text and "[id=network]" not in text, text
        assert "the whole tree" not in text, text


def test_a_folder_opening_lists_its_items_not_the_longer_tree() -> None:
    asyncio.run(_folder())


async def _folder() -> None:
    async with spawned("files") as (agent, _init):
        tree = await agent.ok("read_tree")
        src = re.search(r'- tree_item "([^"]+)" \[id=([^\]]+)\] [^\n]*\[collapsed\]', tree["outline"])
        assert src, tree["outline"]
        text = text_of(await agent.call("act", node=src.group(2), action="expand"))
        assert re.search(rf"\[id={src.group(2)}\][^\n]*\[expanded\]", text), text
        # The tree's line changed only in how long it scrolls: not listed.
        assert "[id=files]" not in text, text


def test_a_batch_that_closes_a_dialog_lists_only_what_really_changed() -> None:
    asyncio.run(_batch_close())


async def _batch_close() -> None:
    async with spawned("todo") as (agent, _init):
        await agent.ok("read_tree")
        opened = text_of(await agent.call("act", node="tasks/2", action="delete"))
        assert "dialog confirm-delete opened" in opened, opened
        # The dialog closes in the batch's first step; its own result is not shown,
        # and the batch's answer still compares what was behind the dialog with how
        # the agent last saw it live, not with its inert state.
        result = await agent.call(
            "batch",
            steps=[
                {"tool": "act", "node": "confirm-delete", "action": "submit"},
                {"tool": "act", "node": "filter/active", "action": "select"},
            ],
        )
        text = text_of(result)
        assert "the whole tree" not in text, text
        assert "dialog confirm-delete closed" in text, text
        assert '- tab "Active" [id=filter/active] [selected]' in text, text
        assert "new-task" not in text and "filter/done" not in text, text
        # The structured ids keep every node whose line changed, the ones the text
        # implies included (filter/all lost [selected]).
        assert "filter/all" in result.structured_content["changedIds"], result.structured_content
