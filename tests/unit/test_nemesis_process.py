"""kwire.nemesis.process on a real child process: SIGSTOP, SIGCONT, kill -9, and a gone pid."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from kwire.nemesis import NemesisError
from kwire.nemesis.process import kill, pause, resume


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def _wait_state(pid: int, want: set[str]) -> str:
    deadline = time.monotonic() + 10
    while (s := _state(pid)) not in want:
        assert time.monotonic() < deadline, f"process {pid} stayed in state {s}, wanted {want}"
        time.sleep(0.01)
    return s


def test_pause_resume_kill_and_a_gone_process():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        pause(child.pid)
        _wait_state(child.pid, {"T"})
        resume(child.pid)
        _wait_state(child.pid, {"S", "R"})
        pause(child.pid)
        _wait_state(child.pid, {"T"})
        kill(child.pid)  # a paused process dies at once too
        assert child.wait(10) == -9
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    with pytest.raises(NemesisError, match=f"process {child.pid} does not exist"):
        pause(child.pid)
