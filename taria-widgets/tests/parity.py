#!/usr/bin/env python3
"""Lists the traits ratatui's widget types implement, from ratatui-widgets' source, and
checks that tests/parity.rs asserts each of them for taria's type of the same name.

    python3 taria-widgets/tests/parity.py          # print ratatui's traits per type
    python3 taria-widgets/tests/parity.py --check  # exit 1 if parity.rs misses one

Read from the ratatui-widgets version in Cargo.lock, under ~/.cargo/registry/src. Seen:
`#[derive(...)]` on a `pub struct`/`pub enum` and `impl ... Trait for Type` (and
`for &Type`), outside `#[cfg(test)]` modules. Blanket impls in ratatui-core (e.g.
`Stylize` for every `Styled`) follow from these and are not listed.
"""

import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# taria-widgets' types that mirror a ratatui type of the same name (the others, the
# form controls, have no ratatui counterpart; re-exported ratatui types are ratatui's).
MIRRORED = [
    "Bar", "BarChart", "BarGroup", "Block", "Canvas", "Axis", "Chart", "Dataset",
    "Gauge", "LineGauge", "List", "ListItem", "Monthly", "Paragraph", "Scrollbar",
    "ScrollbarState", "Sparkline", "SparklineBar", "Table", "Row", "Cell", "Tabs",
]


def ratatui_widgets_src():
    lock = open(os.path.join(ROOT, "Cargo.lock"), encoding="utf-8").read()
    version = re.search(r'name = "ratatui-widgets"\nversion = "([^"]+)"', lock).group(1)
    found = glob.glob(os.path.expanduser(
        f"~/.cargo/registry/src/*/ratatui-widgets-{version}/src"))
    if not found:
        sys.exit(f"ratatui-widgets {version} is not in ~/.cargo/registry/src (cargo fetch)")
    return found[0]


def without_tests(text):
    """The file without its `#[cfg(test)] mod ... { ... }` blocks."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while depth and j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def normal(conversion):
    """`From<&'a [(&'a str, u64)]>` -> `From<&[(&str,u64)]>`: no lifetimes, no spaces."""
    return re.sub(r"'\w+\s*", "", conversion).replace(" ", "")


def strip_generics(s):
    """`From<&'a [(&'a str, u64); N]>` -> `From`."""
    return re.split(r"[<\s]", s.strip(), maxsplit=1)[0].split("::")[-1]


def traits(src):
    found = {}
    for path in glob.glob(os.path.join(src, "**", "*.rs"), recursive=True):
        text = without_tests(open(path, encoding="utf-8").read())
        for m in re.finditer(
                r"#\[derive\(([^)]*)\)\]\s*(?:#\[[^\]]*\]\s*)*pub\s+(?:struct|enum)\s+(\w+)",
                text):
            names = [d.strip().split("::")[-1] for d in m.group(1).split(",") if d.strip()]
            found.setdefault(m.group(2), set()).update(names)
        # `impl<…> Trait<…> for &Type<…>`: the header runs to the `{` or `where`.
        for m in re.finditer(r"^impl\b(.*?)(?=\{|\bwhere\b)", text, re.M | re.S):
            header = " ".join(m.group(1).split())
            if " for " not in header:
                continue
            left, right = header.rsplit(" for ", 1)
            # Drop the impl's own generics: balanced `<…>` at the start.
            left = left.strip()
            if left.startswith("<"):
                depth = 0
                for k, c in enumerate(left):
                    depth += {"<": 1, ">": -1}.get(c, 0)
                    if depth == 0:
                        left = left[k + 1:].strip()
                        break
            by_ref = right.strip().startswith("&")
            target = strip_generics(re.sub(r"^&\s*('\w+\s+)?(mut\s+)?", "", right.strip()))
            trait = left.split("<", 1)[0].split("::")[-1]
            # Conversions are told apart by what they take: `From<&str>`.
            if trait in ("From", "FromIterator"):
                trait = normal(left)
            found.setdefault(target, set()).add(("&" if by_ref else "") + trait)
    return found


def split(traits):
    """Top-level comma-separated entries of a trait list."""
    out, depth, cur = [], 0, ""
    for c in traits:
        depth += {"<": 1, ">": -1, "(": 1, ")": -1, "[": 1, "]": -1}.get(c, 0)
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return [t for t in out if t]


def bracketed(text, at):
    """The text inside the `[…]` opening at `at`, and the index after its `]`."""
    depth = 0
    for k in range(at, len(text)):
        depth += {"[": 1, "]": -1}.get(text[k], 0)
        if depth == 0:
            return text[at + 1:k], k + 1
    return text[at + 1:], len(text)


def parity_row(parity, name):
    """A row of parity.rs, `fn test: Type<…> => [owned], &[by ref];`: its two lists."""
    m = re.search(r"fn \w+: (?:[\w:]*::)?" + name + r"\b[^=]*=>\s*\[", parity)
    if not m:
        return None
    owned, after = bracketed(parity, m.end() - 1)
    rest = re.match(r"\s*,\s*&\[", parity[after:])
    refs = bracketed(parity, after + rest.end() - 1)[0] if rest else ""
    return owned, refs


def covers(listed, trait):
    """Whether parity.rs's `listed` asserts ratatui's `trait`: the same name, and for a
    conversion the same source type, or any for a generic one (`From<T>`)."""
    if "<" not in trait:
        return listed.split("<", 1)[0] == trait
    name, arg = trait.split("<", 1)
    if re.fullmatch(r"[A-Z]\w*>", arg) and arg[:-1] in ("T", "Item"):
        return listed.startswith(name + "<")
    # A const generic (`From<&[(&str, u64); N]>`) is asserted for one length.
    pattern = re.escape(trait).replace(";N\\]", r";\d+\]")
    return re.fullmatch(pattern, listed) is not None


def main():
    src = ratatui_widgets_src()
    found = traits(src)
    check = "--check" in sys.argv
    parity = open(os.path.join(HERE, "parity.rs"), encoding="utf-8").read() if check else ""
    missing = []
    for name in MIRRORED:
        have = sorted(found.get(name, set()))
        print(f"{name}: {', '.join(have)}")
        if check:
            row = parity_row(parity, name)
            if row is None:
                missing.append(f"{name}: no row in parity.rs")
                continue
            owned, refs = ([normal(t) for t in split(part)] for part in row)
            for t in have:
                listed, t = (refs, t[1:]) if t.startswith("&") else (owned, t)
                if not any(covers(l, t) for l in listed):
                    missing.append(f"{name}: {'&' if listed is refs else ''}{t}")
    if missing:
        print("\nparity.rs does not assert:\n  " + "\n  ".join(missing))
        sys.exit(1)


if __name__ == "__main__":
    main()
