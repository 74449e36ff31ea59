"""Compare two pytest-benchmark JSON files (``benchmarks/``): the table ``scripts/bench-ci.sh`` prints.

``python -m kwire.bench.micro NEW.json [OLD.json]`` prints one row per
micro-benchmark: its median in microseconds now, before (the latest earlier
results file of the same machine in ``benchmarks/results/`` when OLD is not
given) and the ratio new/old (below 1: faster now). Never fails on a ratio:
machines are noisy; a missing or unreadable OLD only leaves the columns empty.
"""

from __future__ import annotations

import glob
import json
import os
import sys


def medians(path: str) -> dict[str, float]:
    """{benchmark name: median seconds} of one pytest-benchmark JSON file."""
    with open(path) as f:
        doc = json.load(f)
    return {b["name"]: b["stats"]["median"] for b in doc.get("benchmarks", [])}


def previous(path: str) -> str | None:
    """The latest other ``*-micro.json`` beside ``path`` (names sort by time), if any."""
    files = sorted(glob.glob(os.path.join(os.path.dirname(path) or ".", "*-micro.json")))
    earlier = [f for f in files if os.path.abspath(f) != os.path.abspath(path)
               and os.path.basename(f) < os.path.basename(path)]
    return earlier[-1] if earlier else None


def table(new: dict[str, float], old: dict[str, float] | None) -> str:
    lines = ["| micro-benchmark | median µs | before µs | new/before |", "|---|---|---|---|"]
    for name, t in sorted(new.items()):
        o = (old or {}).get(name)
        ratio = f"{t / o:.2f}" if o else "–"
        lines.append(f"| {name} | {t * 1e6:.2f} | {o * 1e6:.2f} | {ratio} |" if o else
                     f"| {name} | {t * 1e6:.2f} | – | – |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    new = medians(argv[0])
    old_path = argv[1] if len(argv) > 1 else previous(argv[0])
    old = None
    if old_path:
        try:
            old = medians(old_path)
        except (OSError, ValueError, KeyError) as e:
            print(f"kwire.bench.micro: {old_path}: {e}; no comparison", file=sys.stderr)
    print(table(new, old))
    print(f"\n(before: {old_path or 'no earlier results file'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
