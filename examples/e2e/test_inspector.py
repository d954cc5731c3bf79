"""The inspector (`taria-mcp --inspect`, `taria-mcp view FILE`) in a real browser:
headless Chromium driven by Playwright (see `browser.py`), against a real bridge
running a real example app, while an agent (the official MCP client) drives it.

The page loads with its token and is refused without it, or with another Host or
Origin; an agent's act shows on the page within 200 ms; hovering a line of the tree
outlines the node's bounds on the screen, and clicking the screen finds the node; the
recording viewer steps through a committed recording; the page's accessibility tree of
its tree mirror is the outline the agent reads.

`test_an_agents_act_shows_on_the_page_within_200_ms` also takes the README's
screenshot: into a temporary directory, or with `TARIA_UPDATE_SCREENSHOT=1` into
`docs/inspector.png` (it is not compared: the page may change), so a test run leaves
the checkout as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

from browser import browser
from harness import BRIDGE, HANDSHAKE, ROOT, TARGET, binary, bridge, spawned

SCREENSHOT = ROOT / "docs" / "inspector.png"
# Set to rewrite SCREENSHOT; otherwise the screenshot goes to a temporary file.
UPDATE_SCREENSHOT = "TARIA_UPDATE_SCREENSHOT"
RECORDING = ROOT / "examples" / "todo" / "recordings" / "add-complete-delete.jsonl"
# What a person's act must take at most to show on the page.
LIVE_WITHIN = 0.2


async def address_in(errlog, pattern: str) -> str:
    """The inspector's address, once the bridge has printed it on `errlog`."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        errlog.flush()
        found = re.search(pattern, Path(errlog.name).read_text(encoding="utf-8"))
        if found:
            return found.group(1)
        await asyncio.sleep(0.05)
    raise AssertionError(f"no inspector address on stderr: {Path(errlog.name).read_text()}")


@contextlib.asynccontextmanager
async def inspected(example: str, cols: int = 100, rows: int = 30):
    """An agent's session with `taria-mcp --inspect` running `example`: yields the
    agent, what the server said of itself, and the inspector's address."""
    exe = binary(TARGET / "examples" / example)
    args = ["--inspect", "--cols", str(cols), "--rows", str(rows), "--", str(exe)]
    with tempfile.NamedTemporaryFile("w+", suffix=".log") as errlog:
        async with bridge(args, HANDSHAKE, errlog=errlog) as (agent, init):
            url = await address_in(errlog, r"inspector at (http://\S+/)")
            yield agent, init, url


@contextlib.contextmanager
def viewer(recording: Path):
    """`taria-mcp view <recording>`: yields the page's address."""
    process = subprocess.Popen(
        [str(binary(BRIDGE)), "view", str(recording)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stderr.readline()
        found = re.search(r" at (http://\S+/) ", line)
        assert found, f"taria-mcp view said: {line!r}"
        yield found.group(1)
    finally:
        process.terminate()
        process.wait(timeout=10)


async def open_page(chromium, url: str, width: int = 1400, height: int = 900, feed: list | None = None):
    """A page at `url`; with `feed`, each message the live feed sends is appended to it."""
    page = await chromium.new_page(viewport={"width": width, "height": height})
    if feed is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: feed.append(frame)))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    await page.goto(url)
    return page


async def page_revision(page) -> int:
    return int(await page.locator("#tree").get_attribute("data-revision") or 0)


def request(url: str, path: str, headers: dict[str, str], method: str = "GET"):
    """A raw HTTP request to the inspector with exactly these headers (a browser would
    not let a page set Host)."""
    address = re.match(r"http://([^/]+)/", url).group(1)
    host, port = address.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    # A switched protocol has no HTTP body to read.
    body = "" if response.status == 101 else response.read().decode(errors="replace")
    connection.close()
    return response.status, body


# The handshake headers of a WebSocket to the live feed.
UPGRADE = {
    "Connection": "Upgrade",
    "Upgrade": "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
}


def test_the_page_loads_with_its_token_and_is_refused_without_it() -> None:
    asyncio.run(_token())


async def _token() -> None:
    async with inspected("todo") as (_agent, init, url):
        assert url in init.instructions, "the agent can tell the user where to look"
        token = url.rstrip("/").rsplit("/", 1)[1]
        origin = url.split(f"/{token}/")[0]
        host = origin.removeprefix("http://")
        async with browser() as chromium:
            page = await open_page(chromium, url)
            await page.wait_for_selector("#tree [role=treeitem]")
            await page.wait_for_selector("#screen .row")
            assert await page.locator("#status").get_attribute("data-state") == "connected"
            assert page.errors == [], page.errors
            # A token one character off (never the token itself: it may end in 0).
            wrong = token[:-1] + ("1" if token.endswith("0") else "0")
            for refused in [f"{origin}/", f"{origin}/{wrong}/", f"{origin}/live"]:
                response = await page.goto(refused)
                assert response.status == 403, refused
                assert "token" in await page.content()
        # The same request from the loopback name with the token is served; from a
        # name that is not the server's (a DNS name rebound to 127.0.0.1) it is not.
        path = f"/{token}/"
        assert request(url, path, {"Host": host})[0] == 200
        assert request(url, path, {"Host": host.replace("127.0.0.1", "localhost")})[0] == 200
        status, body = request(url, path, {"Host": f"rebound.example:{host.split(':')[1]}"})
        assert status == 403 and "127.0.0.1" in body, (status, body)
        # The live feed from the page itself opens; from another site's page it is
        # refused, token or not, and so is a recording sent from there.
        live = f"/{token}/live"
        assert request(url, live, {"Host": host, "Origin": origin, **UPGRADE})[0] == 101
        for other in ["http://rebound.example", "null", origin.replace("127.0.0.1", "10.0.0.1")]:
            status, _ = request(url, live, {"Host": host, "Origin": other, **UPGRADE})
            assert status == 403, other
        status, _ = request(
            url, f"/{token}/recording", {"Host": host, "Origin": "http://rebound.example"}, "POST"
        )
        assert status == 403


def test_a_120x40_app_shows_whole_at_1280x800_with_tree_lines_unclipped() -> None:
    asyncio.run(_fits())


async def _fits() -> None:
    async with inspected("todo", cols=120, rows=40) as (_agent, _init, url):
        async with browser() as chromium:
            feed: list = []
            page = await open_page(chromium, url, 1280, 800, feed=feed)
            await page.wait_for_selector("#tree [role=treeitem]")
            await page.wait_for_function("document.querySelectorAll('#screen .row').length === 40")
            # The screen is drawn in the bridge's own font (the pictures' DejaVu Sans
            # Mono, served under the token and let in by the page's policy), not
            # whatever the machine has; the screen is fitted again once it loaded.
            loaded = await page.evaluate(
                """document.fonts.load('13px "taria mono"')
                    .then((faces) => faces.map((f) => f.status))"""
            )
            assert loaded == ["loaded"], loaded
            family = await page.evaluate("getComputedStyle(document.getElementById('screen')).fontFamily")
            assert family.startswith('"taria mono"'), family
            # The whole screen is in the window, its last row (the status line) and
            # its right edge included, without scrolling.
            box = await page.locator("#screen").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, box
            assert box["y"] >= 0 and box["y"] + box["height"] <= 800, box
            last = await page.locator("#screen .row").nth(39).bounding_box()
            assert last["y"] + last["height"] <= 800, last
            assert "Welcome!" in await page.locator("#screen .row").nth(39).inner_text()
            # ...and not cut off by its panel (which scrolled a screen taller or wider
            # than itself).
            scrolls = await page.evaluate(
                """(() => { const panel = document.getElementById('screen').closest('.panel');
                    return [panel.scrollWidth - panel.clientWidth,
                            panel.scrollHeight - panel.clientHeight]; })()"""
            )
            assert scrolls == [0, 0], scrolls
            # Every tree line shows whole: it wraps rather than runs past its panel.
            clipped = await page.evaluate(
                """[...document.querySelectorAll('#tree .line')]
                    .filter((line) => line.scrollWidth > line.clientWidth + 1)
                    .map((line) => line.textContent)"""
            )
            assert clipped == [], clipped
            panel = await page.locator("#tree").bounding_box()
            assert panel["x"] + panel["width"] <= 1280, panel
            # The feed sends the unchanged screen again: the rows stay as they are (they
            # were replaced every second, which undid a hover and failed this test
            # 1 time in 8 under load).
            screens_before = sum('"type":"screen"' in str(f) for f in feed)
            assert screens_before >= 1, feed[:3]
            replaced = await page.evaluate(
                """new Promise((done) => {
                    const screen = document.getElementById('screen');
                    let rows = 0;
                    new MutationObserver((changes) => {
                        rows += changes.filter((c) => [...c.removedNodes].some((n) => n.classList?.contains('row'))).length;
                    }).observe(screen, {childList: true});
                    setTimeout(() => done(rows), 2500);
                })"""
            )
            assert replaced == 0, replaced
            # ...and the bridge does not send it: it reads the screen every second, and
            # tells the page only of one that changed.
            screens_after = sum('"type":"screen"' in str(f) for f in feed)
            assert screens_after == screens_before, (screens_before, screens_after)
            # Hovering still outlines the node where it is drawn, at the fitted size.
            await page.get_by_role("treeitem", name=re.compile(r'^list_item "Ship v0"')).locator(".line").first.hover()
            outlined = await page.locator("#highlight").bounding_box()
            row = await page.locator("#screen .row").nth(4).bounding_box()
            assert abs(outlined["y"] - row["y"]) <= 1, (outlined, row)
            assert page.errors == [], page.errors


def test_the_screen_saves_as_svg_and_png_from_the_page() -> None:
    asyncio.run(_downloads())


async def _downloads() -> None:
    import io

    from PIL import Image

    async with inspected("todo", cols=120, rows=40) as (agent, _init, url):
        await agent.ok("act", node="tasks/2", action="toggle")
        async with browser() as chromium:
            page = await open_page(chromium, url)
            await page.wait_for_selector("#screen .row")
            saved = {}
            for kind in ["svg", "png"]:
                async with page.expect_download() as download:
                    await page.click(f"#screen-{kind}")
                file = await (await download.value).path()
                saved[kind] = Path(file).read_bytes()
                assert (await download.value).suggested_filename.endswith(f".{kind}")
            assert page.errors == [], page.errors
        svg = saved["svg"].decode()
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"')
        # The app's text, as it is now: the task the agent completed is crossed out.
        crossed = r'line-through" xml:space="preserve">[^<]*\[x\] Record a demo'
        assert re.search(crossed, svg), re.findall(r"<text[^>]*>[^<]*Record[^<]*<", svg)
        picture = Image.open(io.BytesIO(saved["png"]))
        assert picture.format == "PNG" and picture.size == (1200, 800)
        # Under the token only.
        token = url.rstrip("/").rsplit("/", 1)[1]
        host = url.split(f"/{token}/")[0].removeprefix("http://")
        assert request(url, f"/{token}/screen.png", {"Host": host})[0] == 200
        assert request(url, "/screen.png", {"Host": host})[0] == 403


def test_an_agents_act_shows_on_the_page_within_200_ms() -> None:
    asyncio.run(_live())


async def _live() -> None:
    async with inspected("todo") as (agent, _init, url):
        await agent.ok("read_tree")
        async with browser() as chromium:
            page = await open_page(chromium, url)
            await page.wait_for_selector("#tree [role=treeitem]")
            took = []
            for node, action in [("tasks/2", "toggle"), ("tasks/3", "select"), ("tasks/3", "toggle")]:
                result = await agent.ok("act", node=node, action=action)
                answered = time.monotonic()
                revision = result["revision"]
                # The tree the act drew, its screen, and its line in the input log.
                await page.wait_for_function(
                    """([revision, node]) =>
                        Number(document.querySelector('#tree').dataset.revision) >= revision
                        && Number(document.querySelector('#screen').dataset.revision) >= revision
                        && [...document.querySelectorAll('#inputs tbody tr')]
                            .some((row) => row.textContent.includes(node))""",
                    arg=[revision, node],
                    polling="raf",
                    timeout=5000,
                )
                took.append(time.monotonic() - answered)
            assert max(took) <= LIVE_WITHIN, [f"{t * 1000:.0f} ms" for t in took]
            rows = page.locator("#inputs tbody tr")
            assert await rows.count() == 3
            first = [await c.text_content() for c in await rows.nth(0).locator("td").all()]
            assert first[1:4] == ["1", "act", "delivered"], first
            changed = await rows.nth(0).locator("summary").text_content()
            assert "tasks/2" in changed.split(", "), changed
            # Opened, it shows what the agent read.
            await rows.nth(0).locator("summary").click()
            said = await rows.nth(0).locator("details pre").text_content()
            assert said.startswith("delivered, revision") and "Record a demo" in said, said
            checked = page.get_by_role("treeitem", name=re.compile(r'^list_item "Record a demo" .*\[checked\]'))
            assert await checked.count() == 1
            # The README's screenshot: the page with a node outlined.
            await page.get_by_role("treeitem", name=re.compile(r'^list_item "Ship v0"')).locator(".line").hover()
            await page.locator("#highlight").wait_for(state="visible")
            if os.environ.get(UPDATE_SCREENSHOT) == "1":
                await page.screenshot(path=str(SCREENSHOT))
            else:
                with tempfile.TemporaryDirectory(prefix="taria-inspector-") as shots:
                    shot = Path(shots) / "inspector.png"
                    await page.screenshot(path=str(shot))
                    assert shot.stat().st_size > 0
            assert page.errors == [], page.errors


def test_hovering_a_node_outlines_its_bounds_and_clicking_the_screen_finds_it() -> None:
    asyncio.run(_hover())


async def _hover() -> None:
    async with inspected("todo") as (agent, _init, url):
        nodes = (await agent.ok("read_tree", format="json", bounds=True))["tree"]
        x, y, w, h = node_in(nodes, "tasks/2")["bounds"]
        async with browser() as chromium:
            page = await open_page(chromium, url)
            await page.wait_for_selector("#screen .row")
            highlight = page.locator("#highlight")
            assert not await highlight.is_visible()
            line = page.locator('#tree [data-id="tasks/2"] > .line')
            await line.hover()
            await highlight.wait_for(state="visible", timeout=5000)
            assert await highlight.get_attribute("data-bounds") == f"{x},{y},{w},{h}"
            # Where it is drawn: the node's cells on the screen.
            screen = await page.locator("#screen").bounding_box()
            rows = page.locator("#screen .row")
            cell_h = (await rows.nth(1).bounding_box())["y"] - (await rows.nth(0).bounding_box())["y"]
            cell_w = screen["width"] / 100
            box = await highlight.bounding_box()
            for got, want in [
                (box["x"] - screen["x"], x * cell_w),
                (box["y"] - screen["y"], y * cell_h),
                (box["width"], w * cell_w),
                (box["height"], h * cell_h),
            ]:
                assert abs(got - want) < 1.5, (box, screen, (x, y, w, h), cell_w, cell_h)
            # The outlined cells show the node's label.
            text = await rows.nth(y).text_content()
            assert "Record a demo" in text[x : x + w], text
            # Leaving the line hides it.
            await page.mouse.move(0, 0)
            await highlight.wait_for(state="hidden", timeout=5000)
            # A click on a cell selects the deepest node drawn there.
            await page.locator("#screen").click(
                position={"x": (x + 5) * cell_w + 1, "y": y * cell_h + cell_h / 2}
            )
            selected = page.locator('#tree [aria-selected="true"]')
            assert await selected.get_attribute("data-id") == "tasks/2"
            assert await highlight.get_attribute("data-bounds") == f"{x},{y},{w},{h}"
            assert page.errors == [], page.errors


def node_in(nodes: list[dict], id: str) -> dict:
    """The node `id` among `nodes` (read_tree's JSON) and their descendants."""
    for node in nodes:
        if node.get("id") == id:
            return node
        with contextlib.suppress(LookupError):
            return node_in(node.get("children", []), id)
    raise LookupError(id)


def recorded_titles(path: Path) -> list[str]:
    """What each line after the header is, as the viewer titles it (inputs as
    `taria_schema::recording::RecordedInputData` displays the ones this recording has)."""
    titles = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        entry = json.loads(line)
        if entry["kind"] == "input":
            sent = entry["input"]
            if sent["kind"] == "act" and sent["action"] == "set_value":
                titles.append(f"set_value {sent['node']} {json.dumps(sent['value'])}")
            elif sent["kind"] == "act":
                titles.append(f"act {sent['node']} {sent['action']}")
            elif sent["kind"] == "key":
                titles.append(f"press_key {sent['key']}")
            else:
                raise AssertionError(f"not in this recording: {sent}")
        elif entry["kind"] == "read":
            titles.append(entry["tool"])
        elif entry["kind"] == "app":
            titles.append(f"app {entry['event']}")
        elif entry["kind"] == "resize":
            titles.append(f"resize {entry['size']['width']}x{entry['size']['height']}")
        elif entry["kind"] == "refused":
            titles.append(f"refused {entry['tool']}")
        elif entry["kind"] == "log":
            titles.append(f"log {entry['level']}")
        else:
            titles.append(entry["kind"])
    return titles


def test_the_recording_viewer_steps_through_a_committed_recording() -> None:
    asyncio.run(_viewer())


async def _viewer() -> None:
    titles = recorded_titles(RECORDING)
    with viewer(RECORDING) as url:
        async with browser() as chromium:
            page = await open_page(chromium, url)
            await page.wait_for_selector("#steps li")
            assert await page.locator("#tab-live").is_hidden(), "no app: the viewer alone"
            assert await page.locator("#steps li").count() == len(titles)
            seen = []
            screens = {}
            for number, title in enumerate(titles, 1):
                assert await page.locator("#step-position").text_content() == (
                    f"step {number} of {len(titles)}"
                )
                assert await page.locator("#step-title").text_content() == title
                seen.append((title, await page.locator("#step-diff").text_content()))
                screens[title] = (
                    await page.locator("#rec-before").inner_text(),
                    await page.locator("#rec-after").inner_text(),
                    await page.locator("#rec-after-info").text_content(),
                )
                await page.locator("#step-next").click()
            diffs = dict(seen)
            # Each step's screens, before and after, as the recording keeps them: the
            # toggle's row goes from unchecked to checked.
            before, after, _ = screens["act tasks/4 toggle"]
            assert "[ ] ship v0" in before and "[x] ship v0" in after, (before, after)
            assert screens["tree"][0] == "" and "Record a demo" in screens["tree"][1]
            read_before, read_after, read_info = screens["find_nodes"]
            assert read_before == read_after and "drew none" in read_info, screens["find_nodes"]
            # The toggle checked the task it added; deleting it took its line away.
            toggled = diffs["act tasks/4 toggle"]
            assert re.search(r'^-\s+list_item "ship v0" \[id=tasks/4\][^\n]*\[unchecked\]$', toggled, re.M), toggled
            assert re.search(r'^\+\s+list_item "ship v0" \[id=tasks/4\][^\n]*\[checked\]$', toggled, re.M), toggled
            assert re.search(r'^-\s+list_item "ship v0"', diffs["act confirm-delete submit"], re.M)
            assert diffs["find_nodes"] == "(no tree drawn by this step)"
            # The slider goes back to any step; its tree is shown.
            await page.locator("#step-slider").fill("0")
            assert await page.locator("#step-title").text_content() == "tree"
            assert await page.get_by_role("treeitem", name=re.compile(r'^list "Tasks"')).count() == 1
            assert page.errors == [], page.errors
    # The live page opens a recording the person picks, through the same viewer.
    async with inspected("todo") as (_agent, _init, url):
        async with browser() as chromium:
            page = await open_page(chromium, url)
            await page.locator("#recording-file").set_input_files(str(RECORDING))
            await page.wait_for_selector("#steps li")
            assert await page.locator("#steps li").count() == len(titles)
            await page.locator("#recording-file").set_input_files(
                files=[{"name": "x.jsonl", "mimeType": "text/plain", "buffer": b'{"hello":1}\n'}]
            )
            error = page.locator("#recording-error")
            await error.wait_for(state="visible")
            assert "not a taria recording: line 1" in await error.text_content()
            assert page.errors == [] or all("400" in e for e in page.errors), page.errors


def step_in_test(generated: str, step: int) -> str:
    """Step `step`'s statement in a test `taria-mcp test-from` generated, unindented."""
    found = re.search(rf"^    h\.step\({step}, &rules\).*?\?;$", generated, re.M | re.S)
    assert found, f"no step {step} in:\n{generated}"
    return "\n".join(line.removeprefix("    ") for line in found.group(0).splitlines())


def test_the_viewer_shows_durations_logs_errors_a_strip_filters_and_test_lines() -> None:
    asyncio.run(_viewer_of_a_session())


async def _viewer_of_a_session() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "session.jsonl"
        async with spawned("todo", record=path) as (agent, _init):
            await agent.ok("read_tree")
            # An empty task: the app logs a warning while it handles it.
            await agent.call("act", node="new-task", action="submit")
            await agent.ok("act", action="set_value", node="new-task", value="ship v0")
            await agent.ok("act", node="new-task", action="submit")
            # No such node: the bridge refuses the call itself.
            await agent.error("act", node="tasks/999", action="toggle")
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
        generated = subprocess.run(
            [str(binary(BRIDGE)), "test-from", str(path), "--snapshots", str(Path(tmp) / "snaps")],
            capture_output=True, text=True, check=True, cwd=tmp,
        ).stdout
        kinds = [line["kind"] for line in lines]
        inputs = [i for i, line in enumerate(lines) if line["kind"] == "input"]
        assert len(inputs) == 3, kinds
        empty, set_value, _submit = inputs
        assert all(lines[i]["answered_in_us"] > 0 for i in inputs), [lines[i] for i in inputs]
        warned = [i for i, line in enumerate(lines) if line["kind"] == "log" and line["step"] == 1]
        assert warned and lines[warned[0]]["level"] == "warn", kinds
        refused = kinds.index("refused")
        drawn = [i for i, line in enumerate(lines) if line.get("screen")]
        with viewer(path) as url:
            async with browser() as chromium:
                page = await open_page(chromium, url)
                await page.context.grant_permissions(["clipboard-read", "clipboard-write"])
                await page.wait_for_selector("#steps li")
                items = page.locator("#steps li")
                assert await items.count() == len(lines)
                # Each input's list line says how long the app took; so does its detail.
                for i in inputs:
                    assert re.search(r" · [0-9.]+ ms$", await items.nth(i).text_content())
                await items.nth(set_value).click()
                detail = await page.locator("#step-detail").inner_text()
                assert re.search(r"answered in\s+[0-9.]+ ms", detail), detail
                # The step as its generated test line, and on the clipboard.
                line = await page.locator("#step-test").text_content()
                assert line == step_in_test(generated, 2), (line, generated)
                await page.locator("#step-test-copy").click()
                await page.locator("#step-test-copied").get_by_text("copied").wait_for()
                assert await page.evaluate("navigator.clipboard.readText()") == line
                # The warning the app logged shows at its step (which the app
                # rejected); steps that went wrong are marked, warnings apart.
                await items.nth(empty).click()
                assert await page.locator("#step-logs li").get_attribute("data-level") == "warn"
                logged = await page.locator("#step-logs").inner_text()
                assert "refused a task with an empty title" in logged, logged
                assert await items.nth(empty).get_attribute("data-problem") == "error"
                assert await items.nth(warned[0]).get_attribute("data-problem") == "warn"
                assert await items.nth(refused).get_attribute("data-problem") == "error"
                assert await items.nth(set_value).get_attribute("data-problem") is None
                # A strip of every screen the session drew; a picture goes to its step.
                pictures = page.locator("#strip button")
                assert await pictures.count() == len(drawn), (drawn, kinds)
                await pictures.last.click()
                assert await page.locator("#step-position").text_content() == (
                    f"step {drawn[-1] + 1} of {len(lines)}"
                )
                assert await pictures.last.get_attribute("aria-current") == "step"
                assert "ship v0" in await page.locator("#rec-after").inner_text()
                # That screen saved as pictures, drawn by the bridge from its text.
                async with page.expect_download() as saved:
                    await page.locator("#rec-after-svg").click()
                download = await saved.value
                assert download.suggested_filename == f"step-{drawn[-1] + 1}.svg"
                svg = Path(await download.path()).read_text(encoding="utf-8")
                assert svg.startswith("<svg") and "ship v0" in svg, svg[:400]
                async with page.expect_download() as saved:
                    await page.locator("#rec-after-png").click()
                png = Path(await (await saved.value).path()).read_bytes()
                assert png.startswith(b"\x89PNG"), png[:8]
                # Filtering by tool, then by status; the arrows keep to what is shown.
                await page.locator("#filter-tool").select_option("act")
                acts = [i for i, line in enumerate(lines) if line.get("tool") == "act"]
                shown = [i for i in range(len(lines)) if await items.nth(i).is_visible()]
                assert shown == acts, (shown, acts, kinds)
                # The strip keeps to them too.
                drawn_acts = [i for i in acts if i in drawn]
                assert await page.locator("#strip li:visible").count() == len(drawn_acts), drawn_acts
                await page.locator("#filter-status").select_option("refused")
                shown = [i for i in range(len(lines)) if await items.nth(i).is_visible()]
                assert shown == [refused], (shown, kinds)
                assert await page.locator("#step-title").text_content() == "refused act"
                assert (await page.locator("#step-position").text_content()).endswith(
                    "· 1 shown by the filters"
                )
                await page.locator("#step-prev").click()
                assert await page.locator("#step-title").text_content() == "refused act"
                await page.locator("#filter-status").select_option("")
                await page.locator("#step-prev").click()
                assert await page.locator("#step-position").text_content() == (
                    f"step {acts[-2] + 1} of {len(lines)} · {len(acts)} shown by the filters"
                )
                # Going to a step the filters hide (the warning, a log line) lifts them.
                await page.locator(f"#steps li >> nth={empty}").click()
                await page.locator("#step-logs li").click()
                assert await page.locator("#step-position").text_content() == (
                    f"step {warned[0] + 1} of {len(lines)}"
                )
                assert await page.locator("#filter-tool").input_value() == ""
                assert page.errors == [], page.errors


# Playwright leaves out of a snapshot the names longer than this.
SNAPSHOT_NAME_MAX = 900


def snapshot_items(snapshot: str) -> list[tuple[int, str | None]]:
    """The tree items of a Playwright ARIA snapshot of the tree, in order, as (depth,
    name): `- treeitem "name"` lines (YAML-quoted when they end in `:`), nested under
    `- group:` lines two levels per depth; `None` for a name too long to be shown."""
    items = []
    for line in snapshot.splitlines():
        indent, text = re.match(r"^( *)- (.*)$", line).groups()
        text = text.removesuffix(":")
        if text.startswith("'") and text.endswith("'"):
            text = text[1:-1].replace("''", "'")
        found = re.match(r'^treeitem(?: (".*"))?(?: \[[a-z]+\])*$', text)
        if found:
            depth = (len(indent) // 2 - 1) // 2
            name = found.group(1)
            items.append((depth, None if name is None else json.loads(name)))
    return items


def outline_items(outline: str) -> list[tuple[int, str]]:
    items = []
    for line in outline.splitlines():
        indent, text = re.match(r"^( *)- (.*)$", line).groups()
        items.append((len(indent) // 2, text))
    return items


def same_spaces(text: str) -> str:
    """Whitespace runs as one space: an accessible name is read that way."""
    return " ".join(text.split())


def test_the_tree_mirrors_accessibility_snapshot_is_the_outline() -> None:
    asyncio.run(_mirror("todo"))
    # Tables (a row of plain cells is one line), charts, a live log, a tick a second.
    asyncio.run(_mirror("dashboard", cols=160, rows=48))


async def _mirror(example: str, cols: int = 100, rows: int = 30) -> None:
    async with inspected(example, cols, rows) as (agent, _init, url):
        async with browser() as chromium:
            page = await open_page(chromium, url)
            await page.wait_for_selector("#tree [role=treeitem]")
            for _ in range(20):
                read = await agent.ok("read_tree")
                outline = outline_items(read["outline"])
                # The page shows that revision, and still does after the snapshot.
                try:
                    await page.wait_for_function(
                        f"Number(document.querySelector('#tree').dataset.revision) >= {read['revision']}",
                        timeout=2000,
                    )
                except Exception:
                    continue
                before = await page_revision(page)
                snapshot = await page.locator("#tree").aria_snapshot()
                # Lines too long for the snapshot to show, found by their name.
                long_lines = [line for _, line in outline if len(same_spaces(line)) > SNAPSHOT_NAME_MAX]
                named = [
                    await page.get_by_role("treeitem", name=same_spaces(line), exact=True).count()
                    for line in long_lines
                ]
                if before == read["revision"] == await page_revision(page):
                    break
            else:
                raise AssertionError(f"{example}'s tree kept changing under the snapshot")
            assert "(+" not in read["outline"] and not read.get("truncated"), "read whole"
            mirrored = snapshot_items(snapshot)
            assert len(mirrored) == len(outline) > 8, snapshot
            for (depth, name), (line_depth, line) in zip(mirrored, outline):
                assert depth == line_depth, (name, line)
                if name is None:
                    assert line in long_lines, line
                else:
                    assert same_spaces(name) == same_spaces(line), snapshot
            assert named == [1] * len(long_lines), list(zip(long_lines, named))
            assert page.errors == [], page.errors


def test_what_the_app_logs_shows_in_the_pages_log_table() -> None:
    asyncio.run(_logs())


async def _logs() -> None:
    async with inspected("todo") as (agent, _init, url):
        await agent.ok("read_tree")
        async with browser() as chromium:
            page = await open_page(chromium, url)
            await page.wait_for_selector("#tree [role=treeitem]")
            assert await page.locator("#logs tbody tr").count() == 0
            # Submitting no title: the app refuses, and its handler logs a warning.
            refused = await agent.call("act", node="new-task", action="submit")
            assert refused.is_error
            row = page.locator("#logs tbody tr").first
            await row.wait_for(state="visible", timeout=5000)
            cells = [await c.text_content() for c in await row.locator("td").all()]
            assert cells[1:3] == ["warn", "todo::app"], cells
            # The message, then its fields.
            assert cells[3] == "refused a task with an empty title draft=", cells
            # The input that logged it: the first the agent sent.
            assert cells[4] == "1", cells
            assert await page.locator("#logs-note").is_hidden()
            # App text is text: a title with markup is shown as typed, never as markup.
            markup = "<img src=x onerror=alert(1)>"
            await agent.ok("act", node="new-task", action="set_value", value=markup)
            await agent.ok("act", node="new-task", action="submit")
            await page.get_by_role("treeitem", name=re.compile(re.escape(markup))).first.wait_for(timeout=5000)
            assert await page.locator("#tree img, #logs img, #inputs img").count() == 0
            assert page.errors == [], page.errors
