"""Where the suite's compiled bytecode goes, and warming it once before the xdist workers start.

``prefix()`` is the bytecode cache of a run where PYTHONDONTWRITEBYTECODE is set (tests/conftest.py
turns writing back on there: see its ``_cache_bytecode``): PYTHONPYCACHEPREFIX if set, else
kwire/pycache under the user's cache dir, the directory ``kwire bench`` uses too.

``python tests/bytecode_cache.py [PATH...]`` (scripts/test.sh runs it before an xdist run) makes
the cache warm for those test paths (default: tests): when a test module or conftest has no
assertion-rewritten bytecode of pytest's, or one older than its source, it runs one
``pytest --collect-only`` over the paths, which rewrites and compiles every test module and
compiles what they import (kwire, the client libraries). Otherwise it does nothing (~0.2 s).
Why: in a fresh checkout (every CI run clones into a new directory) nothing is compiled, and the
xdist workers start together, so each of them compiled kwire and rewrote all ~270 test modules
itself: measured 2026-11-29 at load 18-37, a 4-worker run collecting everything from a cold
cache cost 63.7 CPU-s, the warm-up 21.2 and the 4 warm workers 24.6 after it. It never fails
the run: a collection error here is ignored (the real run reports it) and an unreadable cache
only means a warm-up.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def prefix() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.environ.get("PYTHONPYCACHEPREFIX") or os.path.join(base, "kwire", "pycache")


def _rewritten(paths: list[str]) -> list[Path]:
    """Files under ``paths`` whose pytest-rewritten bytecode is missing or older than the source
    (all of them when pytest's cache naming cannot be read)."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_file():
            files.append(p)
        elif p.is_dir():
            files += [f for f in p.rglob("*.py")
                      if f.name.startswith("test_") or f.name == "conftest.py"]
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir
    except ImportError:  # another pytest: warm up every time rather than guess its names
        return files
    stale = []
    for f in files:
        f = f.resolve()
        pyc = get_cache_dir(f) / (f.name[:-3] + PYC_TAIL)
        try:
            if pyc.stat().st_mtime >= f.stat().st_mtime:
                continue
        except OSError:
            pass
        stale.append(f)
    return stale


def main(argv: list[str]) -> int:
    paths = argv or ["tests"]
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        sys.pycache_prefix = prefix()  # where the run (conftest.py) will look
    stale = _rewritten(paths)
    if not stale:
        return 0
    print(f"bytecode_cache: {len(stale)} test modules not compiled yet: one collection first, "
          f"so the workers do not each compile them", flush=True)
    subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                    "-p", "no:xdist", "-p", "no:benchmark", *paths],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
