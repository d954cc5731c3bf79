"""A real browser for the inspector's tests: Debian's `chromium-headless-shell`
driven by Playwright (PyPI `playwright`), launched from its path, since Playwright's
own browser download is not reachable from CI. `.ci/run` installs both; locally:
`apt-get install chromium-headless-shell` and
`pip install -r examples/e2e/requirements.txt`. `TARIA_CHROMIUM` names another
Chromium build."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

CHROMIUM = Path(os.environ.get("TARIA_CHROMIUM", "/usr/bin/chromium-headless-shell"))

# No sandbox (CI runs as root in a container), no GPU, nothing fetched from the
# network in the background: the page under test is all the browser talks to.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextlib.asynccontextmanager
async def browser():
    """A headless Chromium, closed afterwards."""
    try:
        from playwright.async_api import async_playwright
    except ImportError as e:
        raise ImportError(
            "Playwright is not installed: pip install -r examples/e2e/requirements.txt"
        ) from e
    if not CHROMIUM.exists():
        raise FileNotFoundError(
            f"{CHROMIUM} is missing: apt-get install chromium-headless-shell "
            "(or set TARIA_CHROMIUM to a Chromium)"
        )
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield chromium
        finally:
            await chromium.close()
