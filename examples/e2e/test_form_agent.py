"""An agent fills in the sign-up form through taria: the official MCP client, the real
`taria-mcp` bridge in spawn mode, the real `form` example in the bridge's
pseudo-terminal. It submits with an invalid email, reads the validation message from
the tree and from the screen, fixes the email and submits again."""

from __future__ import annotations

import asyncio

from harness import dump, spawned

PASSWORD = "correct horse battery"


def test_an_agent_fills_the_form_fixes_the_invalid_field_and_submits() -> None:
    asyncio.run(_form_task())


async def _form_task() -> None:
    async with spawned("form") as (agent, init):
        assert init.server_info.name == "taria-mcp"
        tree = await agent.ok("read_tree")
        outline = tree["outline"]
        for control in ("name", "email", "password", "terms", "plan", "seats", "submit"):
            assert f"[id={control}]" in outline, dump(tree)
        required = await agent.ok("find_nodes", role="form_field", state=["required"])
        assert [m["id"] for m in required["matches"]] == [
            "signup/name",
            "signup/email",
            "signup/password",
            "signup/terms",
        ], dump(required)

        # Fill every field: the controls take the values with no app code. The email
        # goes in as a person would type it: focus its field, then type.
        await agent.ok("set_value", node="name", value="Ada Lovelace")
        focused = await agent.ok("act", node="signup/email", action="focus")
        assert "signup/email" in focused["changedIds"], dump(focused)
        typed = await agent.ok("type_text", text="ada@example")
        assert "email" in typed["changedIds"], dump(typed)
        await agent.ok("set_value", node="password", value=PASSWORD)
        await agent.ok("act", node="terms", action="toggle")
        # A value outside the select's options is refused, naming the options.
        gold = await agent.error("set_value", node="plan", value="Gold")
        assert gold["code"] == "out_of_domain" and "Team" in gold["message"], dump(gold)
        await agent.ok("set_value", node="plan", value="Team")
        await agent.ok("set_value", node="seats", value=4)
        more = await agent.ok("act", node="seats", action="increment")
        assert "seats" in more["changedIds"], dump(more)
        filled = await agent.ok("find_nodes", id="seats")
        assert filled["matches"][0]["value"] == 5, dump(filled)

        # Submit: the malformed email is the one invalid field, with its message.
        submitted = await agent.ok("act", node="submit", action="activate")
        assert submitted["status"] == "delivered", dump(submitted)
        invalid = await agent.ok("find_nodes", state=["invalid"])
        assert [m["id"] for m in invalid["matches"]] == ["signup/email"], dump(invalid)
        assert "focused" in invalid["matches"][0]["state"], dump(invalid)
        # Why it is invalid: the message is in the tree.
        message = "Enter an email like ada@example.com"
        tree = await agent.ok("read_tree")
        field = f'- form_field "Email" [id=signup/email] [focused] [required] [invalid="{message}"]'
        assert field in tree["outline"], dump(tree)
        status = await agent.ok("find_nodes", id="status")
        assert status["matches"][0]["label"] == "1 field needs fixing: see the message under it.", dump(status)
        screen = "\n".join((await agent.ok("read_screen"))["rows"])
        assert f"✗ {message}" in screen, screen
        assert "ada@example" in screen and "Ada Lovelace" in screen, screen

        # Fix it and submit again: nothing is invalid, the summary shows.
        await agent.ok("set_value", node="email", value="ada@example.com")
        await agent.ok("act", node="submit", action="activate")
        invalid = await agent.ok("find_nodes", state=["invalid"])
        assert invalid["total"] == 0, dump(invalid)
        done = "Submitted: Ada Lovelace <ada@example.com>, Team plan, 5 seats"
        tree = await agent.ok("read_tree")
        assert f'- status "{done}" [id=status]' in tree["outline"], dump(tree)
        screen = "\n".join((await agent.ok("read_screen"))["rows"])
        assert done in screen and "✗" not in screen, screen

        # The password is masked on screen and redacted in the tree: nothing the
        # agent read contains it.
        password = await agent.ok("find_nodes", id="password")
        assert "redacted" in password["matches"][0]["state"], dump(password)
        assert "value" not in password["matches"][0], dump(password)
        assert "•" * len(PASSWORD) in screen, screen
        assert not [text for text in agent.transcript if PASSWORD in text]
        print(f"form task: {agent.calls} tool calls, {agent.bytes_read} bytes read")
