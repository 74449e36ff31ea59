"""Start and stop the kwire broker the suite runs against when no --bootstrap is given.

``python -m kwire serve --override listeners=PLAINTEXT://127.0.0.1:0
--override log.dirs=DIR --override auto.create.topics.enable=false [--override K=V]...``
in its own process group; the
port comes from the ``kwire serving on HOST:PORT`` line it prints. Its output
goes to a log file that is kept (the report names it) because a broker
traceback is usually the real reason behind a FAIL.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

_READY = re.compile(r"kwire serving on (\S+):(\d+)")


class BrokerError(RuntimeError):
    pass


class KwireBroker:
    def __init__(self, data_dir: Path, log_path: Path, overrides: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        self.log_path = log_path
        # No auto-creation: every scenario creates its topics, and error-unknown-topic checks
        # that producing to a missing one fails (Kafka's default is true).
        self.overrides = {"listeners": "PLAINTEXT://127.0.0.1:0", "log.dirs": str(data_dir),
                          "auto.create.topics.enable": "false"}
        self.overrides.update(overrides or {})
        self.proc: subprocess.Popen | None = None
        self.bootstrap = ""

    def start(self, timeout: float = 60.0) -> str:
        argv = [sys.executable, "-m", "kwire", "serve"]
        for k, v in self.overrides.items():
            argv += ["--override", f"{k}={v}"]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = _READY.search(self.log_text())
            if m:
                self.bootstrap = f"{m.group(1)}:{m.group(2)}"
                return self.bootstrap
            if self.proc.poll() is not None:
                raise BrokerError(f"kwire serve exited {self.proc.returncode} before serving:\n"
                                  + self.log_text()[-3000:])
            time.sleep(0.05)
        self.stop()
        raise BrokerError(f"kwire serve printed no 'kwire serving on' line within {timeout:.0f}s:\n"
                          + self.log_text()[-3000:])

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 30.0) -> int | None:
        """SIGTERM (a clean shutdown), SIGKILL if it does not exit in time."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        return self.proc.returncode

    def error_lines(self) -> list[str]:
        """Lines the broker logged at ERROR (each usually followed by a traceback)."""
        return [ln for ln in self.log_text().splitlines() if " ERROR " in ln]
