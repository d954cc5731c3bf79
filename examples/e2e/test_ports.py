"""An agent does a task in each of the apps ported to taria from ratatui-style and
third-party-style originals (`examples/ports/`): the official MCP client, the real `taria-mcp` bridge in
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
            {"tool": "act", "node": fields["First name"], "action": "set_value", "value": "Ada"},
            {"tool": "act", "node": fields["Last name"], "action": "set_value", "value": "Lovelace"},
            {"tool": "act", "node": fields["Age"], "action": "set_value", "value": 36},
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


def test_an_agent_reads_a_planet_s_details_in_the_popup_and_closes_it() -> None:
    asyncio.run(_popup())


async def _popup() -> None:
    async with spawned("popup", cols=80, rows=24) as (agent, init):
        tree = await agent.ok("read_tree")
        planets = ids_labelled(tree["outline"], "list_item")
        # The details of a planet the list does not select: the item's `activate`
        # selects it, then presses the list's key (enter), which opens the popup.
        opened = await agent.ok("act", node=planets["Neptune"], action="activate")
        assert opened["status"] == "delivered", dump(opened)
        shown = opened.get("changes") or opened["outline"]
        dialog = next(l for l in shown.splitlines() if "- dialog" in l)
        assert '- dialog "Neptune"' in dialog and "[modal]" in dialog, dump(opened)
        assert "dismiss" in dialog, dump(opened)
        # The popup's text is inside the dialog, once: the planet's facts.
        assert shown.count("2,000 km/h") == 1, dump(opened)
        details = re.search(r"\[id=([^ \]]+)", dialog).group(1)
        closed = await agent.ok("act", node=details, action="dismiss")
        assert closed["status"] == "delivered", dump(closed)
        after = await agent.ok("find_nodes", role="dialog")
        assert after["matches"] == [], dump(after)
        # The list kept the planet the agent opened.
        found = await agent.ok("find_nodes", role="list_item", state=["selected"])
        assert [m["label"] for m in found["matches"]] == ["Neptune"], dump(found)
        await report("popup", agent, init)


def test_an_agent_takes_the_typing_test_and_reads_its_result() -> None:
    asyncio.run(_typing())


async def _typing() -> None:
    async with spawned("typing", cols=80, rows=24) as (agent, init):
        found = await agent.ok("find_nodes", role="text")
        text = found["matches"][0]["value"]
        assert text.startswith("a quick movement"), dump(found)
        # The text with its last letter wrong: one mistake, shown in the stats.
        typed = await agent.ok("type_text", text=text[:-1] + "z")
        assert typed["status"] == "delivered", dump(typed)
        stats = await agent.ok("find_nodes", id="stats")
        assert "1 mistakes" in stats["matches"][0]["label"], dump(stats)
        fixed = await agent.ok("press_key", key="backspace")
        assert fixed["status"] == "delivered", dump(fixed)
        # The last letter ends the test: the app leaves its screen and prints its stats.
        done = await agent.ok("type_text", text=text[-1])
        assert "the app exited with exit status 0" in done["note"], dump(done)
        assert "1 mistakes · 100% done" in done["note"], dump(done)
        await report("typing", agent, init)


def test_every_action_the_popup_and_typing_ports_offer_is_performed() -> None:
    asyncio.run(_offered())


def offered(tree: list[dict]) -> list[tuple[str, str]]:
    """Each (node id, action) the tree offers, its children's `childActions` included."""
    found = []
    for node in tree:
        found += [(node["id"], action) for action in node.get("actions", [])]
        children = node.get("children", [])
        for child in children:
            found += [(child["id"], action) for action in node.get("childActions", [])]
        found += offered(children)
    return found


async def _offered() -> None:
    # What each offered action takes beyond its node.
    arguments = {"select": {}, "scroll": {"direction": "down"}, "activate": {}, "dismiss": {}}
    async with spawned("popup", cols=80, rows=24) as (agent, init):
        listed = await agent.ok("read_tree", format="json")
        actions = offered(listed["tree"])
        # The list has no id of its own: its items' select (the navigation keys) and
        # activate (enter) are offered, nothing the list's widget would take itself.
        assert {a for _, a in actions} == {"select", "activate"}, actions
        # Each item is selected before it is activated, so each act changes something;
        # the last item first, as the first is selected from the start.
        order = sorted(actions, key=lambda na: (na[0], na[1] != "select"))
        order.sort(key=lambda na: na[0], reverse=True)
        for node, action in order:
            extra = dict(arguments[action])
            done = await agent.ok("act", node=node, action=action, **extra)
            assert done["status"] == "delivered" and done["changed"], (node, action, dump(done))
            if action == "activate":
                # The popup is open: what it offers is performed too, and closes it.
                popup = offered((await agent.ok("read_tree", format="json"))["tree"])
                assert [a for _, a in popup] == ["dismiss"], popup
                closed = await agent.ok("act", node=popup[0][0], action="dismiss")
                assert closed["status"] == "delivered" and closed["changed"], dump(closed)
    async with spawned("typing", cols=80, rows=24) as (agent, init):
        listed = await agent.ok("read_tree", format="json")
        # The typing test takes text (its input is focused), and offers no action.
        assert offered(listed["tree"]) == [], dump(listed)


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
