"""A directory's files as data, for tests that check what a broker left on disk."""

from __future__ import annotations

import os

CLEAN_SHUTDOWN_MARKER = ".kwire_cleanshutdown"
CLEAN_SHUTDOWN_SUMMARY = ".kwire_cleanshutdown_logs"  # kwire/log/summary.py: goes with the marker


def tree(root) -> dict[str, bytes | None]:
    """{relative path: bytes (None for a directory)} of everything under ``root``."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            out[os.path.relpath(os.path.join(dirpath, d), root)] = None
        for f in filenames:
            with open(os.path.join(dirpath, f), "rb") as fh:
                out[os.path.relpath(os.path.join(dirpath, f), root)] = fh.read()
    return out


def without_markers(t: dict) -> dict:
    """``tree`` less the clean-shutdown markers (and the small logs' summary that goes with
    each): a load removes them before it reads anything, so a dir that fails to load is
    recovered in full at its next start."""
    return {k: v for k, v in t.items()
            if os.path.basename(k) not in (CLEAN_SHUTDOWN_MARKER, CLEAN_SHUTDOWN_SUMMARY)}
