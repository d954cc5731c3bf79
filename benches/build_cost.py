#!/usr/bin/env python3
"""What one dependency adds to a package's build: the crates (name and version, for
this platform's normal and build dependencies) that the package builds only because
of it, and the `cargo clean` arguments that remove just those, so that a
`cargo build --timings` afterwards shows what they cost to compile; given that
report, it sums their compile time. benches/README.md quotes what this prints.

    python3 benches/build_cost.py taria-mcp axum
    python3 benches/build_cost.py taria-mcp axum target/cargo-timings/cargo-timing.html
"""

from __future__ import annotations

import json
import platform
import re
import subprocess
import sys


def host_triple() -> str:
    for line in subprocess.check_output(["rustc", "-vV"], text=True).splitlines():
        if line.startswith("host: "):
            return line.removeprefix("host: ")
    raise RuntimeError(f"rustc -vV names no host ({platform.machine()})")


def reachable(nodes: dict, names: dict, root: str, without: str | None) -> set[str]:
    """The packages `root` builds (normal and build edges), not following its own
    edge to `without`."""
    seen, todo = set(), [root]
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        for dep in nodes[node]["deps"]:
            if not any(kind["kind"] in (None, "build") for kind in dep["dep_kinds"]):
                continue
            if node == root and names[dep["pkg"]][0] == without:
                continue
            todo.append(dep["pkg"])
    return seen


def compile_seconds(report: str, crates: set[tuple[str, str]]) -> float:
    """The compile time of `crates` in a `cargo build --timings` report: the sum of
    their units' durations (build scripts included)."""
    with open(report, encoding="utf-8") as file:
        found = re.search(r"const UNIT_DATA = (\[.*?\]);\n", file.read(), re.S)
    if not found:
        sys.exit(f"{report} is not a cargo --timings report")
    units = json.loads(found.group(1))
    return sum(u["duration"] for u in units if (u["name"], u["version"]) in crates)


def main() -> None:
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: python3 benches/build_cost.py PACKAGE DEPENDENCY [TIMINGS_HTML]")
    package, dependency = sys.argv[1:3]
    metadata = json.loads(
        subprocess.check_output(
            ["cargo", "metadata", "--format-version", "1", "--filter-platform", host_triple()]
        )
    )
    nodes = {node["id"]: node for node in metadata["resolve"]["nodes"]}
    names = {p["id"]: (p["name"], p["version"]) for p in metadata["packages"]}
    roots = [id for id in nodes if names[id][0] == package]
    if len(roots) != 1:
        sys.exit(f"no single package named {package} in this workspace")
    every = reachable(nodes, names, roots[0], None)
    rest = reachable(nodes, names, roots[0], dependency)
    added = sorted(names[id] for id in every - rest)
    if not added:
        sys.exit(f"{package} does not depend on {dependency} directly")
    print(f"{package} builds {len(every) - 1} crates; {len(added)} only because of {dependency}:")
    print(", ".join(f"{name} {version}" for name, version in added))
    print("cargo clean " + " ".join(f"-p {name}@{version}" for name, version in added))
    if len(sys.argv) == 4:
        seconds = compile_seconds(sys.argv[3], set(added))
        print(f"compiling them took {seconds:.1f} s (summed over their units)")


if __name__ == "__main__":
    main()
