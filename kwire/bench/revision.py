"""A kwire peer from a git revision: ``kwire bench --peer kwire@<rev>``.

``materialize(rev, dest_parent)`` resolves ``rev`` in the git repository this
kwire was started from (or the one ``$KWIRE_BENCH_REPO`` names) (``git rev-parse``), writes that revision's tree into
a fresh directory with ``git archive`` (no worktree, no checkout: the
repository's index, HEAD and working files are left alone) and returns
``(directory, full commit id)``. ``brokers.start_kwire(..., root=directory)``
then runs that tree's ``python -m kwire serve`` with PYTHONPATH pointing at it;
the bench checks that ``import kwire`` really resolves there before it
measures anything. The caller removes the directory.

The revision's compiled helpers are built as a release builds them: when
the tree has a ``setup.py``, ``build_helpers`` runs its ``build_ext
--inplace`` with this interpreter (the same compiler flags as ``pip install``
and the image's wheel), so old and new are compared like for like; what the
peer then validates records with (``kwire.records.scan.IMPLEMENTATION``, or
none at revisions before the helper existed) goes into the report's notes.
A failed build is reported, and the peer runs with its pure-Python fallback.
Not here: fetching revisions from remotes, or installing the revision's
dependencies (it runs against this environment's packages).
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tempfile


class RevisionError(Exception):
    pass


def repo_root() -> str:
    """The git work tree holding this kwire package (``$KWIRE_BENCH_REPO``: another clone's)."""
    here = os.environ.get("KWIRE_BENCH_REPO") or os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run(["git", "-C", here, "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RevisionError(f"kwire is not running from a git checkout: {out.stderr.strip()}")
    return out.stdout.strip()


def materialize(rev: str, dest_parent: str) -> tuple[str, str]:
    """Write revision ``rev`` of the repository into a new directory under ``dest_parent``."""
    root = repo_root()
    out = subprocess.run(["git", "-C", root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                         capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise RevisionError(f"unknown git revision {rev!r} in {root}")
    commit = out.stdout.strip()
    archive = subprocess.run(["git", "-C", root, "archive", "--format=tar", commit],
                             capture_output=True, timeout=300)
    if archive.returncode != 0:
        raise RevisionError(f"git archive {commit} failed: {archive.stderr.decode(errors='replace')}")
    dest = tempfile.mkdtemp(prefix=f"kwire-{commit[:10]}-", dir=dest_parent)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tf:
        try:
            tf.extractall(dest, filter="data")
        except TypeError:  # Python < 3.11.4 has no extraction filters
            tf.extractall(dest)
    if not os.path.isfile(os.path.join(dest, "kwire", "__main__.py")):
        raise RevisionError(f"revision {commit} has no kwire package")
    return dest, commit


def build_helpers(root: str) -> str:
    """Build the tree's C helpers in place (``setup.py build_ext --inplace``); return a note
    naming the record walker the peer will use."""
    import sys

    if not os.path.isfile(os.path.join(root, "setup.py")):
        return "no compiled helpers at this revision (no setup.py)"
    out = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=root,
                         capture_output=True, text=True, timeout=600)
    env = {**os.environ, "PYTHONPATH": root}
    env.pop("KWIRE_NO_EXTENSIONS", None)
    probe = subprocess.run([sys.executable, "-c", "import kwire.records.scan as s; print(s.IMPLEMENTATION)"],
                           cwd=root, env=env, capture_output=True, text=True, timeout=120)
    walker = probe.stdout.strip() or "none (no kwire.records.scan at this revision)"
    if out.returncode != 0:
        tail = (out.stderr or out.stdout).strip().splitlines()[-1:] or ["?"]
        return f"C helper build failed ({tail[0]}); record walker {walker}"
    return f"C helper built (setup.py build_ext); record walker {walker}"
