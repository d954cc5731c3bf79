#!/usr/bin/env python3
"""The corpus table: each real app ported to taria, what porting it cost, its agent
task and what `taria-mcp audit` finds in it.

    python3 corpus/table.py            # prints the table (Markdown)
    python3 corpus/table.py --check    # also exits 1 when an audit finds a violation
    python3 corpus/table.py --no-audit # the table without running the audits

Each `corpus/<app>/` holds `UPSTREAM` (repo, commit, licence, files, bin, kinds, task),
the upstream files verbatim under `upstream/` and the port under `src/`, file for file
(`src/<path>` is `upstream/<path>` ported). "Changed lines" counts the lines added or
removed going from upstream to the port (longest common subsequence, file by file),
leaving out taria's attributes (`#[taria::…(…)]`, `#[action(…)]`, multi-line ones
whole), as examples/tests/changed_lines.rs counts the ports of examples/ports/.

The audits need the apps and taria-mcp built: `cargo build --workspace --bins`. They
run two at a time (the machine the project's CI runs on has two cores); each app's
report, in full, is written to stderr when it is not clean. The audit performs every
action an app offers (delete included), so each app runs with `HOME` set to a fresh
temporary folder, into which the files an `UPSTREAM`'s `home:` line names (`src ->
dest`, `;` between several) are copied again before each start (`--reset`).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
TARGET = ROOT / "target" / "debug"

# The audit's terminal: the size the apps are ported and tried at.
COLS, ROWS = 120, 40


@dataclass
class App:
    name: str
    fields: dict[str, str]
    changed: int

    @property
    def bin(self) -> str:
        return self.fields["bin"]


def upstream_fields(path: Path) -> dict[str, str]:
    """The `key: value` lines of an UPSTREAM file."""
    fields = {}
    for line in path.read_text().splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and not line.startswith(" "):
            fields[key.strip()] = value.strip()
    for key in ("repo", "commit", "licence", "files", "bin", "kinds", "task"):
        if key not in fields:
            sys.exit(f"{path}: no `{key}:` line")
    return fields


def without_attributes(source: str) -> list[str]:
    """The lines of `source` outside taria's attributes."""
    lines, inside = [], False
    for line in source.splitlines():
        trimmed = line.lstrip()
        if trimmed.startswith("#[taria::") or trimmed.startswith("#[action("):
            inside = not trimmed.endswith(")]")
            continue
        if inside:
            inside = not trimmed.endswith(")]")
            continue
        lines.append(line)
    return lines


def changed_lines(a: list[str], b: list[str]) -> int:
    """Lines added or removed going from `a` to `b` (longest common subsequence)."""
    previous = [0] * (len(b) + 1)
    for i in range(len(a) - 1, -1, -1):
        row = [0] * (len(b) + 1)
        for j in range(len(b) - 1, -1, -1):
            row[j] = previous[j + 1] + 1 if a[i] == b[j] else max(previous[j], row[j + 1])
        previous = row
    return len(a) + len(b) - 2 * previous[0]


def port_cost(app_dir: Path) -> int:
    """Changed lines beyond attributes over every file of the port."""
    total = 0
    src, upstream = app_dir / "src", app_dir / "upstream"
    for ported in sorted(src.rglob("*.rs")):
        original = upstream / ported.relative_to(src)
        before = without_attributes(original.read_text()) if original.exists() else []
        total += changed_lines(before, without_attributes(ported.read_text()))
    return total


def apps() -> list[App]:
    found = []
    for upstream in sorted(CORPUS.glob("*/UPSTREAM")):
        app_dir = upstream.parent
        found.append(App(app_dir.name, upstream_fields(upstream), port_cost(app_dir)))
    if not found:
        sys.exit(f"no apps under {CORPUS}")
    return found


def reset_command(app: App, home: str) -> str | None:
    """The shell command that puts the app's `home:` files in `home`, if it has any."""
    steps = []
    for mapping in filter(None, (m.strip() for m in app.fields.get("home", "").split(";"))):
        source, sep, dest = (part.strip() for part in mapping.partition("->"))
        if not sep:
            sys.exit(f"corpus/{app.name}/UPSTREAM: `home: {mapping}` is not `src -> dest`")
        target = Path(home) / dest
        steps.append(f"mkdir -p {shlex.quote(str(target.parent))}")
        steps.append(f"cp {shlex.quote(str(CORPUS / app.name / source))} {shlex.quote(str(target))}")
    return " && ".join(steps) or None


def audit(app: App) -> tuple[str, dict | None]:
    """Runs `taria-mcp audit --json` on the app: its summary and its report."""
    with tempfile.TemporaryDirectory(prefix=f"taria-audit-{app.name}-") as home:
        command = [
            str(TARGET / "taria-mcp"), "audit", "--json",
            "--cols", str(COLS), "--rows", str(ROWS),
        ]
        reset = reset_command(app, home)
        if reset:
            command += ["--reset", reset]
        command += ["--", str(TARGET / app.bin)]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=600, cwd=ROOT,
                env={**{k: v for k, v in os.environ.items() if not k.startswith("XDG_")},
                     "HOME": home},
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"did not run: {error}", None
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return f"did not run (exit {done.returncode}): {done.stderr.strip()[-300:]}", None
    violations = len(report["violations"])
    coverage = report["coverage"]
    summary = (
        f"{violations} violations; {coverage['tried']}/{coverage['offered']} actions "
        f"on {coverage['nodes']} nodes"
    )
    return summary, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 on any violation")
    parser.add_argument("--no-audit", action="store_true", help="leave the audits out")
    options = parser.parse_args()

    corpus = apps()
    results: dict[str, tuple[str, dict | None]] = {}
    if not options.no_audit:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for app, result in zip(corpus, pool.map(audit, corpus)):
                results[app.name] = result

    print("| app | upstream commit | changed lines beyond attributes | agent task | audit |")
    print("|---|---|---|---|---|")
    failed = []
    for app in corpus:
        repo = app.fields["repo"].removeprefix("https://github.com/")
        commit = app.fields["commit"][:10]
        summary, report = results.get(app.name, ("not run", None))
        if not options.no_audit and (report is None or report["violations"]):
            failed.append(app.name)
            print(f"== {app.name}: {summary}", file=sys.stderr)
            if report is not None:
                print(json.dumps(report["violations"], indent=2), file=sys.stderr)
        task = app.fields["task"].replace("|", "\\|")
        print(f"| {app.name} ([{repo}]({app.fields['repo']})) | `{commit}` | {app.changed} "
              f"| {task} | {summary} |")
    if options.check and failed:
        print(f"audit not clean: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
