"""Helpers for tests that start a process and then send it SIGINT (what Ctrl-C sends).

A process started with SIGINT ignored keeps it ignored across fork and exec, and
Python then installs no KeyboardInterrupt handler: that is how a suite launched
from a background job (``bash scripts/test.sh &``, nohup, some CI runners) starts.
A test that interrupts its child passes ``preexec_fn=sigint_default`` to
``subprocess.Popen`` so the child gets SIGINT's default disposition (Python's
KeyboardInterrupt) whatever the launcher did. Nothing else is changed: the test
process's own disposition stays as it was started.
"""

from __future__ import annotations

import signal


def sigint_default() -> None:
    """``preexec_fn`` for Popen: runs in the child between fork and exec."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
