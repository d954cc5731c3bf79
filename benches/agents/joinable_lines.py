"""Issue 12.3's measurement: what joining tab and option lines onto their parent's line
(as a table row's cells are) would save on each example's read_tree at 120x40.

    python3 benches/agents/joinable_lines.py   # after cargo build --workspace --all-features --examples --bins
"""

import asyncio, os, re, sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from mcp import ClientSession, StdioServerParameters, stdio_client
from scraper import files_fixture, app
async def one(name, args):
    p = StdioServerParameters(command=str(Path(__file__).resolve().parents[2] / "target" / "debug" / "taria-mcp"), args=["--cols","120","--rows","40","--",app(name),*args], env={"PATH":os.environ["PATH"],"TARIA_LOG":"warn"})
    async with stdio_client(p) as (r,w):
        async with ClientSession(r,w) as s:
            await s.initialize()
            res = await s.call_tool("read_tree", {})
            text = res.content[0].text
            total = len(text.encode())
            saved = 0; n = 0
            for line in text.splitlines():
                m = re.match(r"^(\s*)- (tab|option|menu_item|radio) (.*)$", line)
                if m:
                    n += 1
                    # joined onto the parent's line as ' | <rest>' instead of '\n<indent>- role <rest>'
                    saved += len(("\n" + m.group(1) + "- " + m.group(2) + " ").encode()) - len(" | ")
            print(f"{name}: {total} B, {n} tab/option lines, joining them saves {saved} B ({100*saved/total:.1f} %)")
with tempfile.TemporaryDirectory() as tmp:
    root = files_fixture(Path(tmp))
    for name, args in (("todo",[]),("form",[]),("dashboard",[]),("files",[str(root)])):
        asyncio.run(one(name,args))
