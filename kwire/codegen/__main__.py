"""``python -m kwire.codegen [--check]``: (re)write kwire/protocol/generated/.

Without flags the generated package is rewritten in place (files that are no
longer produced are removed).  With ``--check`` the code is generated into a
temporary directory and compared with the checked-in files; any difference
is listed and the exit status is 1.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from pathlib import Path

from .generator import GENERATED_DIR, HEADER_LINE, render_all


def write(files: dict[str, str], target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for old in target.glob("*.py"):
        if old.name not in files:
            first = old.read_text("utf-8").split("\n", 1)[0]
            if first == HEADER_LINE:
                old.unlink()
    for name, text in files.items():
        path = target / name
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")


def check(files: dict[str, str], target: Path) -> list[str]:
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        fresh_dir = Path(tmp)
        write(files, fresh_dir)
        fresh = {p.name: p.read_text("utf-8") for p in fresh_dir.glob("*.py")}
    current = {p.name: p.read_text("utf-8") for p in target.glob("*.py")} if target.exists() else {}
    for name in sorted(set(fresh) | set(current)):
        if name not in current:
            problems.append(f"missing: {name}")
        elif name not in fresh:
            problems.append(f"stale (no longer generated): {name}")
        elif fresh[name] != current[name]:
            diff = difflib.unified_diff(current[name].splitlines(), fresh[name].splitlines(),
                                        f"checked-in/{name}", f"regenerated/{name}", lineterm="", n=1)
            lines = list(diff)
            problems.append(f"differs: {name}\n" + "\n".join(lines[:20]))
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kwire.codegen")
    ap.add_argument("--check", action="store_true", help="fail if the checked-in code is stale")
    ap.add_argument("--out", type=Path, default=GENERATED_DIR)
    args = ap.parse_args(argv)
    files = render_all()
    if args.check:
        problems = check(files, args.out)
        if problems:
            print(f"{len(problems)} generated file(s) out of date; run python -m kwire.codegen",
                  file=sys.stderr)
            for p in problems:
                print(p, file=sys.stderr)
            return 1
        print(f"{len(files)} generated files up to date")
        return 0
    write(files, args.out)
    print(f"wrote {len(files)} files to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
