#!/usr/bin/env python3
"""The import layers of a crate: which of its top-level modules import which, and where
that runs in a circle.

    python3 .ci/layers.py taria-runtime/src              # the taria library
    python3 .ci/layers.py taria-runtime/taria-mcp/src    # the bridge
    python3 .ci/layers.py --check DIR...                 # exit 1 on a circle across folders

Every `use crate::…` / `use super::…` path, and every `crate::…` path in code, is an
arrow from the file that writes it to the module it names (the longest prefix that is a
module file). Test code is left out (`tests.rs` files and `#[cfg(test)] mod` blocks).
Arrows are then grouped by top-level module (a "folder": `recorder` is
`recorder.rs` and `recorder/`). It prints:

* the folders in layer order, lowest first, and for each the folders it imports;
* circles: groups of folders that import each other, each with the fewest arrows
  whose removal breaks it (the arrows "back up"), and the files behind each;
* the files that import through the crate root's re-exports (`use crate::Tree` in a
  library whose `Tree` lives in `model`). Such an import is counted as an arrow to the
  module the root re-exports the name from (`model`), so a re-export cannot hide a
  circle; it is listed because it hides the layer from the reader.

* circles between files, inside a folder too: every `use` of a sibling, a parent or a
  child module's item is an arrow from file to file (a module's `mod x;` is not; the
  crate root, which declares and re-exports everything, is left out).

`--check` fails on a circle across folders or between files, and, for a library, on a
file importing through the crate root.
"""

import itertools
import re
import sys
from collections import defaultdict
from pathlib import Path

USE = re.compile(r"\buse\s+((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)*)(::\{|;|::\*| as )", re.S)
USE_BLOCK = re.compile(r"\buse\s+((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{", re.S)
INLINE = re.compile(r"(?<![A-Za-z0-9_:])((?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")
CFG_TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")
COMMENT = re.compile(r"//[^\n]*")


def module_path(src: Path, file: Path) -> tuple:
    rel = file.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts in (["lib"], ["main"]):
        return ()
    if parts[-1] == "mod":
        parts = parts[:-1]
    return tuple(parts)


def strip_tests(text: str) -> str:
    """Drops `#[cfg(test)] mod x { … }` blocks (brace matching) and comments."""
    text = COMMENT.sub("", text)
    out, i = [], 0
    for m in CFG_TEST_MOD.finditer(text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def split_use_tree(text: str) -> list:
    """`a::{b::{C, D}, e as f, self}` -> [`a::b::C`, `a::b::D`, `a::e as f`, `a`]."""
    text = " ".join(text.split())
    m = re.match(r"^(.*?)::\{(.*)\}$", text, re.S)
    if not m:
        return [text] if text else []
    prefix, inner = m.group(1), m.group(2)
    items, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(inner[start:i])
            start = i + 1
    items.append(inner[start:])
    out = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        if item == "self" or item.startswith("self "):
            out.append(prefix + item[4:])
        else:
            out.extend(split_use_tree(prefix + "::" + item))
    return out


def use_statements(text: str):
    """Every `use …;` in `text` (comments and tests already stripped), flattened:
    (the path used, the name it is known by here)."""
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        for item in split_use_tree(m.group(1).strip()):
            path, _, alias = item.partition(" as ")
            path = path.strip().lstrip(":")
            name = alias.strip() or path.split("::")[-1]
            yield path, name


def root_facade(src: Path, modules: set) -> dict:
    """The names the crate root re-exports from its own modules (`pub use
    model::Tree;`, and `pub mod builder { pub use crate::recorder::MAX_DEPTH; }`),
    each as the module path it names: `("Tree",)` -> `("model", "Tree")`."""
    root = next((src / n for n in ("lib.rs", "main.rs") if (src / n).exists()), None)
    if root is None:
        return {}
    text = strip_tests(root.read_text())
    facade = {}

    def add(scope: tuple, body: str):
        for path, name in use_statements(body):
            segs = path.split("::")
            if segs[0] == "crate":
                segs = segs[1:]
            elif segs[0] in ("super", "self") or (segs[0],) not in modules:
                continue  # an outside crate (`taria_derive::…`)
            facade[scope + (name,)] = tuple(segs)

    # Inline modules of the root (`pub mod builder { … }`) are facades too.
    inline = []
    for m in re.finditer(r"\bmod\s+(\w+)\s*\{", text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        add((m.group(1),), text[m.end():j - 1])
        inline.append((m.start(), j))
    outside = "".join(text[a:b] for a, b in zip([0] + [e for _, e in inline], [s for s, _ in inline] + [len(text)]))
    add((), outside)
    return facade


def resolve(path: str, here: tuple, modules: set, facade: dict) -> tuple:
    """The module a `crate::a::b::C` / `super::x` path names: its longest prefix that is
    a module file; a name the crate root re-exports is followed to where it comes
    from. Returns that module and whether the path went through the root's
    re-exports."""
    segs = path.split("::")
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    else:
        # `super` from a file module `a/b.rs` (module a::b) is `a`; `self` is `a::b`.
        base = here
        rest = segs
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                base = base[:-1]
            rest = rest[1:]
    full = base + tuple(rest)
    via_root = False
    for _ in range(8):  # a re-export of a re-export, at most a few deep
        n = next(n for n in range(len(full), -1, -1) if n == 0 or full[:n] in modules)
        if n:
            return full[:n], via_root
        through = next((full[:k] for k in (2, 1) if full[:k] in facade), None)
        if through is None:
            return (), via_root
        full = facade[through] + full[len(through):]
        via_root = True
    return (), via_root


def module_files(src: Path) -> dict:
    """Each module of the crate at `src` and its file, test files left out."""
    files = {}
    for f in sorted(src.rglob("*.rs")):
        if f.name == "tests.rs" or "tests" in f.relative_to(src).parts[:-1]:
            continue
        files[module_path(src, f)] = f
    return files


def arrows(src: Path):
    files = module_files(src)
    modules = set(files)
    facade = root_facade(src, modules)
    edges = []  # (from module, to module, file, path, through the root's re-exports)
    for here, f in files.items():
        text = strip_tests(f.read_text())
        paths = set()
        for m in USE_BLOCK.finditer(text):
            # `use crate::a::{b::C, d}`: each item under the prefix.
            start = m.end()
            depth, j = 1, start
            while j < len(text) and depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            inner = text[start:j - 1]
            for item in re.split(r",(?![^{]*\})", inner):
                item = item.strip().split(" as ")[0].strip()
                item = re.sub(r"::\{.*", "", item, flags=re.S)
                if item and item != "self":
                    paths.add(m.group(1) + "::" + item)
                else:
                    paths.add(m.group(1))
        for m in USE.finditer(text):
            paths.add(m.group(1))
        for m in INLINE.finditer(text):
            paths.add(m.group(1))
        for p in paths:
            target, via_root = resolve(p, here, modules, facade)
            if here != () and via_root:
                edges.append((here, (), f, p, True))
            if target != here and not is_inside(here, target):
                edges.append((here, target, f, p, False))
    return files, edges


def file_circles(src: Path) -> list:
    """Circles between files: groups of modules (files) that import each other, the
    crate root left out. Unlike the folder arrows, a parent importing its child's
    items counts."""
    files = module_files(src)
    modules = set(files)
    facade = root_facade(src, modules)
    graph = defaultdict(set)
    for here, f in files.items():
        if here == ():
            continue
        text = strip_tests(f.read_text())
        paths = {path for path, _ in use_statements(text) if path.split("::")[0] in ("crate", "super", "self")}
        paths.update(m.group(1) for m in INLINE.finditer(text))
        for p in paths:
            target, _ = resolve(p, here, modules, facade)
            if target not in (here, ()):
                graph[here].add(target)
    return [sorted(c) for c in sccs(sorted(m for m in files if m != ()), graph) if len(c) > 1]


def is_inside(here: tuple, target: tuple) -> bool:
    """A module naming its own ancestor chain's items below it is not a layer arrow:
    `super::x` from `a::b` into `a` (the parent, its own folder) is."""
    return len(target) > len(here) and target[: len(here)] == here


def folder(module: tuple) -> str:
    return module[0] if module else "(root)"


def sccs(nodes, graph):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            out.append(comp)

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def fewest_back_arrows(comp, weight):
    """The order of `comp`, lowest layer first, with the fewest (file-weighted) arrows
    pointing up: exact, by dynamic programming over subsets (folders are few)."""
    comp = sorted(comp)
    n = len(comp)
    w = [[weight.get((a, b), 0) for b in comp] for a in comp]
    best = {0: (0, ())}
    for mask in range(1, 1 << n):
        choice = None
        for v in range(n):
            if not mask >> v & 1:
                continue
            rest = mask & ~(1 << v)
            cost, order = best[rest]
            # v goes above everything in `rest`: an arrow from below up to v points back.
            cost += sum(w[u][v] for u in range(n) if rest >> u & 1)
            if choice is None or cost < choice[0]:
                choice = (cost, order + (v,))
        best[mask] = choice
    cost, order = best[(1 << n) - 1]
    names = tuple(comp[i] for i in order)
    rank = {v: i for i, v in enumerate(names)}
    back = [(a, b) for (a, b) in weight if a in rank and b in rank and rank[a] < rank[b]]
    return cost, names, back


def report(src: Path, is_lib: bool) -> int:
    files, edges = arrows(src)
    # Root re-exports: a library's `use crate::Tree` goes through the facade.
    facade = sorted({str(f.relative_to(src)) for (h, t, f, p, via) in edges if via})
    weight = defaultdict(int)
    behind = defaultdict(set)
    for h, t, f, p, via in edges:
        if via:
            continue
        a, b = folder(h), folder(t)
        if a != b and t != ():
            weight[(a, b)] += 1
            behind[(a, b)].add(str(f.relative_to(src)))
    nodes = sorted({folder(m) for m in files})
    graph = defaultdict(set)
    for a, b in weight:
        graph[a].add(b)
    comps = sccs(nodes, graph)
    circles = [c for c in comps if len(c) > 1]
    print(f"== {src}: {len(files)} files, {len(nodes)} folders")
    for comp in comps:  # Tarjan emits sinks first: lowest layer first
        for v in sorted(comp):
            deps = sorted(graph[v])
            print(f"  {v:<14} imports {', '.join(deps) if deps else '-'}")
    back_total = 0
    for comp in circles:
        cost, order, back = fewest_back_arrows(comp, weight)
        back_total += len(back)
        print(f"  circle: {' -> '.join(order)} ({len(back)} arrows back up, {cost} file imports)")
        for a, b in back:
            print(f"    {a} -> {b}: {', '.join(sorted(behind[(a, b)]))}")
    if is_lib:
        print(f"  files importing through the crate root: {len(facade)}")
        for f in facade:
            print(f"    {f}")
    print(f"  circles across folders: {len(circles)}; arrows back up: {back_total}")
    between_files = file_circles(src)
    print(f"  circles between files: {len(between_files)}")
    for comp in between_files:
        print(f"    {' <-> '.join('/'.join(m) + '.rs' for m in comp)}")
    return len(circles) + len(between_files), len(facade) if is_lib else 0


def main(argv):
    check = "--check" in argv
    dirs = [a for a in argv if a != "--check"] or ["taria-runtime/src", "taria-runtime/taria-mcp/src"]
    circles = facade = 0
    for d in dirs:
        src = Path(d)
        c, f = report(src, (src / "lib.rs").exists())
        circles += c
        facade += f
    if check and (circles or facade):
        print(f"{circles} circle(s) across folders or between files, {facade} file(s) "
              "importing through the crate root", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
