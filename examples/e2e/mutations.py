"""The mutation table: app changes that the examples' generated replay tests (the
agent's recorded sessions, `taria-mcp test-from`) must catch, and changes they must
let through. Each mutation edits one example's source, rebuilds that example's test
(incremental: one example), runs its generated test, and puts the source back.

    python3 examples/e2e/mutations.py            # run every mutation, print the table
    python3 examples/e2e/mutations.py --check    # the same, exit 1 when a target is missed

Targets (issue 23):
* behaviour and screen-only mutations fail, naming the step (the snapshot's name,
  `NN-<step>`, which insta prints as `Snapshot: NN-…`);
* cosmetic ones pass under the rules the committed test documents in its first line;
* no re-bless path records a session other than the agent's: after `INSTA_UPDATE=always`
  (what accepting every pending snapshot does), a mutation that makes an id name
  another node must still fail: the identity check of each act (`.seen(role, label)`
  in each generated step) fails it at that step. A mutation listed in
  EXPECTED_MISSES is accepted as missed by `--check`, which fails once it passes
  (then drop it from there); none is listed now.

Run from anywhere; it needs cargo and the repository's examples. CI runs it with
`--check` (.ci/run)."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

# The generated test of each example app, and its snapshot folder.
TESTS = {
    "todo": ("replay_add_complete_delete", EXAMPLES / "todo/snapshots/replay_add_complete_delete"),
    "form": ("replay_fill_fix_submit", EXAMPLES / "form/snapshots/replay_fill_fix_submit"),
}


@dataclasses.dataclass(frozen=True)
class Mutation:
    name: str
    kind: str  # "behaviour", "screen-only" or "cosmetic"
    app: str
    file: str  # relative to examples/<app>/
    old: str
    new: str
    # For a mutation the test must catch: the snapshot (step) it must fail at.
    fails_at: str | None = None
    # Also re-bless everything (INSTA_UPDATE=always) and run again: it must still fail.
    rebless: bool = False
    why: str = ""


MUTATIONS = [
    Mutation(
        "toggle broken",
        "behaviour",
        "todo",
        "app.rs",
        "task.done = !task.done;",
        "task.done = task.done;",
        fails_at="03-tasks-4-toggle",
        why="the toggle no longer flips the task",
    ),
    Mutation(
        "wrong item deleted",
        "behaviour",
        "todo",
        "app.rs",
        "self.tasks.retain(|t| t.id != id);",
        "self.tasks.retain(|t| t.id + 1 != id);",
        fails_at="06-confirm-delete-submit",
        why="the task before the selected one goes",
    ),
    Mutation(
        "validation dropped",
        "behaviour",
        "form",
        "app.rs",
        "Field::Email if !looks_like_email(self.email.value().trim()) => {",
        "Field::Email if false && !looks_like_email(self.email.value().trim()) => {",
        fails_at="11-submit-activate",
        why="a malformed email is accepted",
    ),
    Mutation(
        "dialog skipped",
        "behaviour",
        "todo",
        "app.rs",
        "self.select_task(key)?;\n        self.mode = Mode::ConfirmingDelete;",
        "self.select_task(key)?;\n        self.delete_selected();",
        fails_at="05-tasks-4-delete",
        why="delete removes the task without asking",
    ),
    Mutation(
        "ids shifted",
        "behaviour",
        "todo",
        "app.rs",
        'for title in ["Write the README", "Record a demo", "Ship v0"] {',
        'for title in ["Water the plants", "Write the README", "Record a demo", "Ship v0"] {',
        fails_at="00-first",
        rebless=True,
        why="an extra sample task: tasks/4 is now another task",
    ),
    Mutation(
        "marker not drawn",
        "screen-only",
        "todo",
        "ui.rs",
        'if t.done { "x" } else { " " }',
        'if t.done { " " } else { " " }',
        fails_at="00-first",
        why="`[x]` no longer drawn; the checked state still recorded",
    ),
    Mutation(
        "theme",
        "cosmetic",
        "todo",
        "ui.rs",
        ".highlight_style(Style::new().reversed())",
        ".highlight_style(Style::new().bold().on_blue())",
        why="another highlight style",
    ),
    Mutation(
        "border title",
        "cosmetic",
        "todo",
        "ui.rs",
        '.block(Block::bordered().title("Tasks"))',
        '.block(Block::bordered().title("Your tasks"))',
        why="the list's border says another title",
    ),
    Mutation(
        "draw order",
        "cosmetic",
        "todo",
        "ui.rs",
        "    draw_tasks(frame, list, app);\n    draw_input(frame, input, app);",
        "    draw_input(frame, input, app);\n    draw_tasks(frame, list, app);",
        why="the input drawn before the list, on the same screen",
    ),
    Mutation(
        "wording under a rule",
        "cosmetic",
        "todo",
        "app.rs",
        '"Welcome! Press a to add a task, F2 to see the semantic tree."',
        '"Welcome! Press a to add a task."',
        why="the welcome line reworded (`--label 'status=Welcome!*' --at 0-1`)",
    ),
]

# Targets known to be missed until other work lands: the mutation's name and why.
EXPECTED_MISSES: dict[str, str] = {}


@dataclasses.dataclass
class Outcome:
    passed: bool
    step: str | None
    seconds: float
    rebless_passed: bool | None = None
    # What the re-blessed test's failure said: `replay step N (input): …`.
    rebless_failure: str | None = None


def run_test(app: str, env: dict[str, str] | None = None) -> tuple[bool, str, float]:
    test, _ = TESTS[app]
    started = time.monotonic()
    run = subprocess.run(
        ["cargo", "test", "-q", "-p", "taria-examples", "--example", app, test],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "CI": "true", **(env or {})},
        check=False,
    )
    output = run.stdout + run.stderr
    if "error[E" in output or "could not compile" in output:
        raise RuntimeError(f"the mutated {app} does not compile:\n{output}")
    return run.returncode == 0, output, time.monotonic() - started


def replay_failure(output: str) -> str | None:
    """The step a failing step call names (its ReplayError): `replay step N (input)`."""
    found = re.search(r"replay step \d+ \([^)]*\)", output)
    return found.group(0) if found else None


def failed_step(output: str) -> str | None:
    """The step a failing generated test names: insta's `Snapshot: NN-…`."""
    found = re.search(r"^Snapshot: (\d+-[\w-]+)", output, re.MULTILINE)
    return found.group(1) if found else None


def apply(mutation: Mutation) -> Outcome:
    path = EXAMPLES / mutation.app / mutation.file
    original = path.read_text(encoding="utf-8")
    if original.count(mutation.old) != 1:
        raise RuntimeError(f"{mutation.name}: `{mutation.old}` is not once in {path}")
    _, snapshots = TESTS[mutation.app]
    kept = Path(tempfile.mkdtemp()) / "snapshots"
    shutil.copytree(snapshots, kept)
    try:
        path.write_text(original.replace(mutation.old, mutation.new), encoding="utf-8")
        passed, output, seconds = run_test(mutation.app)
        outcome = Outcome(passed, None if passed else failed_step(output), seconds)
        if mutation.rebless:
            # Accept every snapshot as the app draws it now, then run as CI would.
            run_test(mutation.app, {"INSTA_UPDATE": "always", "CI": ""})
            outcome.rebless_passed, output, _ = run_test(mutation.app)
            outcome.rebless_failure = replay_failure(output)
        return outcome
    finally:
        path.write_text(original, encoding="utf-8")
        shutil.rmtree(snapshots)
        shutil.copytree(kept, snapshots)
        shutil.rmtree(kept.parent)


def verdict(mutation: Mutation, outcome: Outcome) -> tuple[bool, str]:
    """Whether the target is met, and the table's cell for what happened."""
    if mutation.fails_at is None:
        return outcome.passed, "passes" if outcome.passed else f"fails ({outcome.step or 'no step named'})"
    if outcome.passed:
        return False, "passes: not caught"
    if outcome.step != mutation.fails_at:
        return False, f"fails, naming {outcome.step or 'no step'} (expected {mutation.fails_at})"
    said = f"fails at `{outcome.step}`"
    if outcome.rebless_passed is None:
        return True, said
    if outcome.rebless_passed:
        return False, f"{said}; re-blessed, passes: another session recorded"
    at = f" at `{outcome.rebless_failure}`" if outcome.rebless_failure else ""
    return True, f"{said}; re-blessed, still fails{at}"


def main() -> int:
    check = "--check" in sys.argv[1:]
    print("| mutation | kind | app | what changes | target | result | build + run |")
    print("|---|---|---|---|---|---|---|")
    missed = []
    unexpected = []
    total = 0.0
    for mutation in MUTATIONS:
        outcome = apply(mutation)
        met, result = verdict(mutation, outcome)
        total += outcome.seconds
        target = "passes" if mutation.fails_at is None else f"fails at `{mutation.fails_at}`"
        if mutation.rebless:
            target += ", also re-blessed"
        if not met and mutation.name in EXPECTED_MISSES:
            result += f" (expected until: {EXPECTED_MISSES[mutation.name]})"
        elif met and mutation.name in EXPECTED_MISSES:
            unexpected.append(mutation.name)
        elif not met:
            missed.append(mutation.name)
        print(
            f"| {mutation.name} | {mutation.kind} | {mutation.app} | {mutation.why} | {target} "
            f"| {result} | {outcome.seconds:.0f} s |",
            flush=True,
        )
    print(f"\n{len(MUTATIONS)} mutations, {total:.0f} s of builds and runs", file=sys.stderr)
    for name in missed:
        print(f"target missed: {name}", file=sys.stderr)
    for name in unexpected:
        print(f"target met now: remove `{name}` from EXPECTED_MISSES", file=sys.stderr)
    return 1 if check and (missed or unexpected) else 0


if __name__ == "__main__":
    sys.exit(main())
