#!/usr/bin/env python3
"""Lists the names of ratatui's prelude and of `ratatui::widgets` (with its `canvas` and
`calendar` modules), from ratatui's source, and checks that taria-widgets' prelude
re-exports each and that tests/prelude.rs checks each for ambiguity.

    python3 taria-widgets/tests/prelude.py          # print ratatui's names
    python3 taria-widgets/tests/prelude.py --check  # exit 1 if one is missing

Read from the ratatui and ratatui-widgets versions in Cargo.lock, under
~/.cargo/registry/src. Seen: `pub use` items of `src/prelude.rs` and `src/widgets.rs`
(ratatui) and the public items of `src/canvas.rs` and `src/calendar.rs`
(ratatui-widgets), with ratatui's default features: items behind the termion,
termwiz or termina backends, or marked `#[instability::unstable]`, are left out.
"""

import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WIDGETS = os.path.join(ROOT, "taria-widgets")

# Features ratatui is built with here (its defaults); a `cfg(feature = …)` on any
# other leaves the item out.
FEATURES = {"crossterm", "widget-calendar", "all-widgets", "layout-cache", "macros",
            "underline-color", "std"}


def crate_src(name):
    lock = open(os.path.join(ROOT, "Cargo.lock"), encoding="utf-8").read()
    version = re.search(rf'name = "{name}"\nversion = "([^"]+)"', lock).group(1)
    found = glob.glob(os.path.expanduser(f"~/.cargo/registry/src/*/{name}-{version}/src"))
    if not found:
        sys.exit(f"{name} {version} is not in ~/.cargo/registry/src (cargo fetch)")
    return found[0]


def split_top(text):
    """`a, b::{c, d}, e` -> ['a', 'b::{c, d}', 'e']: commas outside braces."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += {"{": 1, "}": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def use_names(tree, prefix=""):
    """The names a use tree brings in: `layout::{self, Rect}` -> layout, Rect."""
    tree = " ".join(tree.split())
    m = re.match(r"^(.*?)::\{(.*)\}$", tree) or re.match(r"^()\{(.*)\}$", tree)
    if m:
        names = []
        for part in split_top(m.group(2)):
            names += use_names(part, m.group(1) or prefix)
        return names
    alias = re.search(r"\bas\s+(\w+)$", tree)
    if alias:
        return [alias.group(1)]
    last = tree.split("::")[-1].strip()
    if last == "self":
        return [prefix.split("::")[-1]]
    return [last] if last != "*" else []


def enabled(attributes):
    """Whether the attributes before an item keep it with ratatui's default features."""
    if "instability::unstable" in attributes:
        return False
    for cfg in re.findall(r"#\[cfg\((.*?)\)\]", attributes, re.S):
        if "not(windows)" in cfg and "all(" in cfg:
            cfg = cfg.replace("not(windows)", "")
        for feature in re.findall(r'feature\s*=\s*"([^"]+)"', cfg):
            if feature not in FEATURES:
                return False
    return True


def reexports(path, every_cfg=False):
    """The names a file's `pub use` items bring in, with ratatui's default features (or
    under any cfg: taria-widgets' own files, whose features are not ratatui's)."""
    text = open(path, encoding="utf-8").read()
    names = []
    for m in re.finditer(r"((?:#\[[^\]]*\]\s*)*)pub use ([^;]+);", text):
        if every_cfg or enabled(m.group(1)):
            names += use_names(m.group(2))
    return names


def public_items(path, every_cfg=False):
    """A module file's own public items and its `pub use` names (no test modules)."""
    text = open(path, encoding="utf-8").read()
    text = text.split("#[cfg(test)]")[0]
    names = re.findall(r"^pub (?:struct|enum|trait|fn|type|const) (\w+)", text, re.M)
    return names + reexports(path, every_cfg)


def ratatui_names():
    """(prelude and widgets names, canvas module names, calendar module names)."""
    ratatui = crate_src("ratatui")
    widgets = crate_src("ratatui-widgets")
    top = reexports(os.path.join(ratatui, "prelude.rs")) + reexports(
        os.path.join(ratatui, "widgets.rs"))
    canvas = public_items(os.path.join(widgets, "canvas.rs"))
    calendar = public_items(os.path.join(widgets, "calendar.rs"))
    return sorted(set(top)), sorted(set(canvas)), sorted(set(calendar))


def main():
    top, canvas, calendar = ratatui_names()
    if "--check" not in sys.argv:
        print("prelude:", ", ".join(top))
        print("canvas:", ", ".join(canvas))
        print("calendar:", ", ".join(calendar))
        return
    ours = set(reexports(os.path.join(WIDGETS, "src", "prelude.rs"), every_cfg=True))
    our_canvas = set(public_items(os.path.join(WIDGETS, "src", "canvas.rs"), True))
    our_calendar = set(public_items(os.path.join(WIDGETS, "src", "calendar.rs"), True))
    test = open(os.path.join(HERE, "prelude.rs"), encoding="utf-8").read()
    checked = set(re.findall(r"\b(\w+) as _\b", test))
    missing = [f"taria_widgets::prelude lacks `{n}`" for n in top if n not in ours]
    missing += [f"taria_widgets::canvas lacks `{n}`" for n in canvas if n not in our_canvas]
    missing += [f"taria_widgets::calendar lacks `{n}`"
                for n in calendar if n not in our_calendar]
    missing += [f"tests/prelude.rs does not check `{n}` for ambiguity"
                for n in top if n not in checked]
    for line in missing:
        print(line, file=sys.stderr)
    if missing:
        sys.exit(1)
    print(f"{len(top)} names of ratatui's prelude and widgets, {len(canvas)} of canvas, "
          f"{len(calendar)} of calendar: all in taria_widgets' prelude")


if __name__ == "__main__":
    main()
