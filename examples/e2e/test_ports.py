"""An agent does a task in each of the apps ported to taria from ratatui-style
originals (`examples/ports/`): the official MCP client, the real `taria-mcp` bridge in
spawn mode, the real port in the bridge's pseudo-terminal. Each task uses only ids and
actions the agent read from the tree (nothing guessed), and checks that the app ended
where a person's keys would have left it.

Prints calls and bytes per task: the results the agent read, and in all with the
session's tools/list and instructions (read once per session)."""

from __future__ import annotations

import asyncio
import json
import re

from harness import dump, spawned


async def report(name: str, agent, init) -> None:
    """Prints what the task cost: its results, and in all with the surface."""
    listed = await agent.session.list_tools()
    tools = json.dumps(
        listed.model_dump(by_alias=True, exclude_none=True)["tools"],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    surface = len(tools.encode()) + len((init.instructions or "").encode())
    print(
        f"{name} task: {agent.calls} tool calls, {agent.bytes_read} bytes of results, "
        f"{agent.bytes_read + surface} bytes in all (tools/list + instructions {surface})"
    )


def ids_labelled(outline: str, role: str) -> dict[str, str]:
    """The ids of `role` nodes in an outline, by label."""
    found = {}
    for line in outline.splitlines():
        m = re.match(rf'\s*- {role} "([^"]*)".*\[id=("[^"]*"|[^\] ]+)', line)
        if m:
            found[m.group(1)] = m.group(2).strip('"')
    return found


def test_an_agent_completes_a_checklist_item_starting_from_nothing_selected() -> None:
    asyncio.run(_checklist())


async def _checklist() -> None:
    async with spawned("checklist", cols=80, rows=24) as (agent, init):
        tree = await agent.ok("read_tree")
        items = ids_labelled(tree["outline"], "list_item")
        target = next(i for label, i in items.items() if "Return library books" in label)
        assert "[selected]" not in tree["outline"], dump(tree)
        done = await agent.ok("act", node=target, action="toggle")
        assert done["status"] == "delivered", dump(done)
        line = next(l for l in done["changes"].splitlines() if target in l)
        assert "[checked]" in line or "checked=true" in line, dump(done)
        # Issue 21.5: an item's label carries its state (☐/✓), its id does not: one
        # batch toggles two items and the first again, no step stale.
        water = next(i for label, i in items.items() if "Water the plants" in label)
        grandma = next(i for label, i in items.items() if "Call grandma" in label)
        toggles = [{"tool": "act", "node": n, "action": "toggle"} for n in (water, grandma, water)]
        batch = await agent.ok("batch", steps=toggles, read=True)
        assert batch["steps"] == 3, dump(batch)
        after = ids_labelled(batch["read"], "list_item")
        assert after[" ☐ Water the plants"] == water, dump(batch)
        assert after[" ✓ Call grandma"] == grandma, dump(batch)
        await report("checklist", agent, init)


def test_an_agent_fills_the_signup_form_and_reads_what_the_app_printed() -> None:
    asyncio.run(_signup())


async def _signup() -> None:
    async with spawned("signup", cols=80, rows=24) as (agent, init):
        tree = await agent.ok("read_tree")
        fields = {**ids_labelled(tree["outline"], "text_input"), **ids_labelled(tree["outline"], "spin_button")}
        steps = [
            {"tool": "set_value", "node": fields["First name"], "value": "Ada"},
            {"tool": "set_value", "node": fields["Last name"], "value": "Lovelace"},
            {"tool": "set_value", "node": fields["Age"], "value": 36},
            {"tool": "act", "node": "form", "action": "submit"},
        ]
        # One call fills, submits and reads the app's result: the batch's last step
        # ends the app, and its result says how it exited and what it printed.
        done = await agent.ok("batch", steps=steps)
        assert done["steps"] == 4, dump(done)
        assert "the app exited with exit status 0" in done["note"], dump(done)
        # Quoted as app text: a JSON string of what it printed.
        printed = json.dumps('{"first_name": "Ada", "last_name": "Lovelace", "age": 36}')
        assert printed in done["note"], dump(done)
        await report("signup", agent, init)


def test_an_agent_selects_a_far_contact_and_the_scrollbar_follows() -> None:
    asyncio.run(_contacts())


async def _contacts() -> None:
    async with spawned("contacts", cols=100, rows=30) as (agent, init):
        tree = await agent.ok("read_tree")
        assert "[count=20]" in tree["outline"], dump(tree)
        # The last contact is off screen; the agent selects it by its index.
        picked = await agent.ok("act", node="contacts/19", action="select")
        assert picked["status"] == "delivered", dump(picked)
        found = await agent.ok("find_nodes", role="scrollbar")
        scroll = found["matches"][0]["scroll"]
        # next_row() puts the thumb at row * ITEM_HEIGHT (4): the agent's select must too.
        assert scroll["offset"] == 19 * 4, dump(found)
        # A row of cells is one line; its cells (select: the table has a column
        # selection) are named by their place, as the instructions say: r/i.
        shown = picked.get("changes") or picked["outline"]
        row = next(l for l in shown.splitlines() if "[id=contacts/19 " in l)
        assert row.rstrip().endswith('"esme.tanaka@example.org"') and "children{select}" in row, row
        cell = await agent.ok("act", node="contacts/19/2", action="select")
        line = next(l for l in (cell.get("changes") or cell["outline"]).splitlines() if "contacts/19/2" in l)
        assert "[selected]" in line, dump(cell)
        await report("contacts", agent, init)


def test_an_agent_sends_a_chat_message_through_the_input_line() -> None:
    asyncio.run(_chat())


async def _chat() -> None:
    async with spawned("chat", cols=80, rows=20) as (agent, init):
        tree = await agent.ok("read_tree")
        # The input line is one text_input node, its keys read from the tree.
        inputs = ids_labelled(tree["outline"], "text_input")
        assert list(inputs) == ["Input"], dump(tree)
        line = inputs["Input"]
        steps = [
            {"tool": "act", "node": line, "action": "focus"},
            {"tool": "type_text", "text": "hello from the agent"},
            {"tool": "act", "node": line, "action": "submit"},
        ]
        sent = await agent.ok("batch", steps=steps, read=True)
        assert sent["steps"] == 3, dump(sent)
        assert '- list_item "0: hello from the agent"' in sent["read"], dump(sent)
        assert re.search(r'text_input "Input": "" .*\[focused\]', sent["read"]), dump(sent)
        await report("chat", agent, init)


def test_an_agent_reads_a_mail_in_the_demo_s_email_tab() -> None:
    asyncio.run(_demo())


async def _demo() -> None:
    async with spawned("demo", cols=100, rows=30) as (agent, init):
        tree = await agent.ok("read_tree")
        tabs = ids_labelled(tree["outline"], "tab")
        # The tab and the mail are picked by the app's own keys (→, then ↓), each
        # checked against the frame after: one batch, then the mail's text is read.
        opened = await agent.ok("act", node=tabs["Email"], action="select")
        assert opened["status"] == "delivered", dump(opened)
        inbox = ids_labelled(opened.get("outline") or opened["changes"], "list_item")
        grace = next(i for label, i in inbox.items() if label.startswith("Grace"))
        picked = await agent.ok("act", node=grace, action="select")
        assert picked["status"] == "delivered", dump(picked)
        mail = next(
            l for l in (picked.get("outline") or picked["changes"]).splitlines()
            if l.lstrip().startswith('- text "Grace')
        )
        assert "The compiler meeting moves to room 4." in mail, dump(picked)
        await report("demo", agent, init)
