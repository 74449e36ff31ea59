"""Process faults for the nemesis: pause (SIGSTOP), resume (SIGCONT), kill -9.

Each takes a pid and reports a process that is already gone as ``NemesisError``
rather than ``ProcessLookupError``; a paused process is resumed before it is
killed, so it dies at once.
"""

from __future__ import annotations

import os
import signal

from kwire.nemesis.faults import NemesisError


def _send(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        raise NemesisError(f"process {pid} does not exist (already exited?)") from None


def pause(pid: int) -> None:
    _send(pid, signal.SIGSTOP)


def resume(pid: int) -> None:
    _send(pid, signal.SIGCONT)


def kill(pid: int) -> None:
    _send(pid, signal.SIGCONT)
    _send(pid, signal.SIGKILL)
