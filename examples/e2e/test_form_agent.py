"""An agent fills in the sign-up form through taria: the official MCP client, the real
`taria-mcp` bridge in spawn mode, the real `form` example in the bridge's
pseudo-terminal. It submits with an invalid email, finds the invalid control and its
validation message in the tree (and on the screen), fixes it with `set_value` on that
same control and submits again. The session also holds a resize, a batch, a secret,
a modal dialog (leaving with changes not submitted asks first: the agent stays) and
the app's exit, every kind of line a recording holds, in one session that replays as
a generated test (`examples/form/replay_fill_fix_submit.rs`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness import HANDSHAKE, MODERN, check_recording, dump, keep_recording, spawned

PASSWORD = "correct horse battery"


@pytest.mark.parametrize("protocol", [HANDSHAKE, MODERN])
def test_an_agent_fills_the_form_fixes_the_invalid_field_and_submits(tmp_path: Path, protocol: str) -> None:
    """The session is recorded (`--record`), the password never written."""
    recording = tmp_path / "form.jsonl"
    agent = asyncio.run(_form_task(protocol, recording))
    lines = check_recording(recording, agent, "form")
    assert PASSWORD not in recording.read_text(encoding="utf-8")
    secret = [line["input"] for line in lines if line["kind"] == "input" and line["input"].get("node") == "password"]
    assert secret == [{"kind": "act", "node": "password", "action": "set_value", "redacted": True}], secret
    if protocol == HANDSHAKE:
        keep_recording(recording, "form", "fill-fix-submit")


async def _form_task(protocol: str, record: Path):
    async with spawned("form", protocol=protocol, record=record) as (agent, init):
        assert init.server_info.name == "taria-mcp"
        tree = await agent.ok("read_tree")
        outline = tree["outline"]
        for control in ("name", "email", "password", "terms", "plan", "seats", "submit"):
            assert f"[id={control}]" in outline, dump(tree)
        assert "form_field" not in outline, dump(tree)
        assert tree["focused"] == "name", dump(tree)
        # A taller terminal: the form and its status line still fit.
        await agent.ok("resize", cols=100, rows=26)
        fits = await agent.ok("find_nodes", id="status")
        assert fits["total"] == 1, dump(fits)
        required = await agent.ok("find_nodes", state=["required"])
        assert [m["id"] for m in required["matches"]] == [
            "name",
            "email",
            "password",
            "terms",
        ], dump(required)

        # Fill every field: the controls take the values with no app code. The email
        # goes in as a person would type it: tab to it (the focus moves from the name
        # to the email control), then type.
        await agent.ok("act", action="set_value", node="name", value="Ada Lovelace")
        tabbed = await agent.ok("press_key", key="tab")
        assert {"name", "email"} <= set(tabbed["changedIds"]), dump(tabbed)
        focused = await agent.ok("find_nodes", state=["focused"])
        assert [m["id"] for m in focused["matches"]] == ["email"], dump(focused)
        typed = await agent.ok("type_text", text="ada@example")
        assert "email" in typed["changedIds"], dump(typed)
        # A secret can be confirmed by its length, never its text.
        secret = await agent.ok("act", action="set_value", node="password", value=PASSWORD)
        assert "password" in secret["changedIds"], dump(secret)
        assert f"<hidden, {len(PASSWORD)} chars>" in secret["changes"], dump(secret)
        # A value outside the select's options is refused, naming the options.
        gold = await agent.error("act", action="set_value", node="plan", value="Gold")
        assert gold["code"] == "out_of_domain" and "Team" in gold["message"], dump(gold)
        # The terms, the plan and the seats in one batch.
        batched = await agent.ok(
            "batch",
            steps=[
                {"tool": "act", "node": "terms", "action": "toggle"},
                {"tool": "act", "action": "set_value", "node": "plan", "value": "Team"},
                {"tool": "act", "action": "set_value", "node": "seats", "value": 4},
            ],
        )
        assert {"terms", "plan", "seats"} <= set(batched["changedIds"]), dump(batched)
        more = await agent.ok("act", node="seats", action="increment")
        assert "seats" in more["changedIds"], dump(more)
        filled = await agent.ok("find_nodes", id="seats")
        assert filled["matches"][0]["value"] == 5, dump(filled)

        # Leaving now would drop what was typed: the app asks in a modal dialog, and
        # nothing behind it takes input until the agent answers. It stays.
        asked = await agent.ok("press_key", key="esc")
        assert "dialog confirm-leave opened" in asked["events"], dump(asked)
        blocked = await agent.error("act", node="submit", action="activate")
        assert blocked["code"] == "action_unsupported", dump(blocked)
        stayed = await agent.ok("act", node="confirm-leave", action="dismiss")
        assert "dialog confirm-leave closed" in stayed["events"], dump(stayed)

        # Submit: the malformed email is the one invalid control; the match says why
        # and what `set_value` on it accepts.
        submitted = await agent.ok("act", node="submit", action="activate")
        assert submitted["status"] == "delivered", dump(submitted)
        invalid = await agent.ok("find_nodes", state=["invalid"])
        assert [m["id"] for m in invalid["matches"]] == ["email"], dump(invalid)
        email = invalid["matches"][0]
        message = "Enter an email like ada@example.com"
        assert email["invalidMessage"] == message, dump(invalid)
        assert email["role"] == "text_input" and email["value"] == "ada@example", dump(invalid)
        assert {"focused", "required", "invalid"} <= set(email["state"]), dump(invalid)
        assert "set_value" in email["actions"] and "valueSchema" in email, dump(invalid)
        status = await agent.ok("find_nodes", id="status")
        assert status["matches"][0]["label"] == "1 field needs fixing: see the message under it.", dump(status)
        screen = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        assert f"✗ {message}" in screen, screen
        assert "ada@example" in screen and "Ada Lovelace" in screen, screen

        # Fix it on the same id and submit again: nothing is invalid, the summary shows.
        fixed = await agent.ok("act", action="set_value", node=email["id"], value="ada@example.com")
        assert "email" in fixed["changedIds"], dump(fixed)
        await agent.ok("act", node="submit", action="activate")
        invalid = await agent.ok("find_nodes", state=["invalid"])
        assert invalid["total"] == 0, dump(invalid)
        done = "Submitted: Ada Lovelace <ada@example.com>, Team plan, 5 seats"
        tree = await agent.ok("read_tree")
        assert f'- status "{done}" [id=status]' in tree["outline"], dump(tree)
        screen = "\n".join((await agent.ok("read_tree", format="screen"))["rows"])
        assert done in screen and "✗" not in screen, screen

        # The password is masked on screen and redacted in the tree: nothing the
        # agent read contains it.
        password = await agent.ok("find_nodes", id="password")
        assert "redacted" in password["matches"][0]["state"], dump(password)
        assert "value" not in password["matches"][0], dump(password)
        assert "•" * len(PASSWORD) in screen, screen
        assert not [text for text in agent.transcript if PASSWORD in text]

        # Done: leave the form, as a person would.
        left = await agent.ok("press_key", key="esc")
        assert "the app exited with exit status 0" in left.get("note", ""), dump(left)
        print(f"form task: {agent.calls} tool calls, {agent.bytes_read} bytes read")
    return agent
