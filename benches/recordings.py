#!/usr/bin/env python3
"""What the committed agent recordings weigh: for each `examples/*/recordings/*.jsonl`
(written by `taria-mcp --record`), its lines and bytes, and the bytes of each kind of
line (header, tree, input, read, app), with an input line's mean, range and the shares
its tree and its screen (the `screen` field, since issue 23) take. benches/README.md
quotes what this prints.

    python3 benches/recordings.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def field_bytes(record: dict, field: str) -> int:
    """The bytes `field` takes in the line, as written (UTF-8, no spaces)."""
    if field not in record:
        return 0
    return len(json.dumps(record[field], separators=(",", ":"), ensure_ascii=False).encode())


def main() -> None:
    for path in sorted(ROOT.glob("examples/*/recordings/*.jsonl")):
        lines = [l for l in path.read_bytes().split(b"\n") if l.strip()]
        kinds: dict[str, list[int]] = {}
        tree_bytes = 0
        screen_bytes = 0
        for i, line in enumerate(lines):
            record = json.loads(line)
            kind = "header" if i == 0 else record["kind"]
            kinds.setdefault(kind, []).append(len(line) + 1)
            if kind == "input":
                tree_bytes += field_bytes(record, "tree")
                screen_bytes += field_bytes(record, "screen")
        total = sum(len(l) + 1 for l in lines)
        inputs = kinds.get("input", [])
        print(f"{path.relative_to(ROOT)}: {len(lines)} lines, {total:,} B")
        for kind, sizes in kinds.items():
            print(f"  {kind}: {len(sizes)} line(s), {sum(sizes):,} B")
        if inputs:
            print(
                f"  an input line: {sum(inputs) / len(inputs):,.0f} B on average "
                f"({min(inputs):,}-{max(inputs):,}), its tree {100 * tree_bytes / sum(inputs):.0f} %, "
                f"its screen {100 * screen_bytes / sum(inputs):.0f} %; "
                f"{total / len(inputs):,.0f} B of file per input"
            )


if __name__ == "__main__":
    main()
