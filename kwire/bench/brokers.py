"""Broker processes for the bench: start, wait until serving, measure, stop.

``start_kwire`` runs ``python -m kwire serve`` (this checkout, or another
source tree such as a git revision) on a fresh data directory and
``start_tansu`` runs ``tansu broker`` with in-memory storage, both on a free
loopback port; ``External`` is a broker given by address. Start-up time is
from process launch to the first successful ApiVersions v0 answer (a raw
probe, so it measures the broker, not a client library). CPU seconds
(user + system, all threads) and RSS come from ``/proc/<pid>``; an external
broker has neither, and its fields are None.

Not here: what the workloads do, or any judgement of the numbers.
"""

from __future__ import annotations

import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api_versions_ok(host: str, port: int, timeout: float = 1.0) -> bool:
    """Send ApiVersions v0 and check for error code 0 in the answer."""
    client_id = b"kwire-bench"
    body = struct.pack(">hhih", 18, 0, 1, len(client_id)) + client_id
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.sendall(struct.pack(">i", len(body)) + body)
            head = b""
            while len(head) < 10:
                chunk = s.recv(10 - len(head))
                if not chunk:
                    return False
                head += chunk
            _size, corr, err = struct.unpack(">iih", head)
            return corr == 1 and err == 0
    except OSError:
        return False


class BrokerHandle:
    """A broker the bench talks to; ``pid`` is None for one it did not start."""

    name: str
    kind: str
    storage: str
    bootstrap: str
    pid: int | None = None
    replication_factor: int = 1  # of the topics the bench creates on it
    startup_s: float | None = None
    idle_rss_mb: float | None = None
    life_cpu_s: float | None = None  # set by a Process's stop

    def cpu_seconds(self) -> float | None:
        if self.pid is None:
            return None
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime
        except (OSError, IndexError, ValueError):
            return None

    def rss_mb(self, key: str = "VmRSS") -> float | None:
        if self.pid is None:
            return None
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith(key + ":"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    def stop(self) -> None:
        pass

    notes: str = ""

    def describe(self) -> dict:
        return {"name": self.name, "kind": self.kind, "storage": self.storage,
                "bootstrap": self.bootstrap, "notes": self.notes}


class External(BrokerHandle):
    def __init__(self, name: str, kind: str, bootstrap: str) -> None:
        self.name, self.kind, self.bootstrap = name, kind, bootstrap
        self.storage = "unknown (external broker)"


class Process(BrokerHandle):
    """A broker subprocess, stopped with SIGTERM (then SIGKILL) by ``stop``."""

    def __init__(self, name: str, kind: str, storage: str, cmd: list[str], port: int,
                 workdir: str, env: dict | None = None, timeout_s: float = 30.0,
                 cwd: str | None = None) -> None:
        self.name, self.kind, self.storage = name, kind, storage
        self.bootstrap = f"127.0.0.1:{port}"
        self.workdir = workdir
        self._log = open(os.path.join(workdir, f"{name}.log"), "wb")
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=env, cwd=cwd)
        self.pid = self.proc.pid
        deadline = t0 + timeout_s
        while not api_versions_ok("127.0.0.1", port, timeout=0.5):
            if self.proc.poll() is not None or time.perf_counter() > deadline:
                self.stop()
                raise RuntimeError(f"{name} did not start serving on port {port} "
                                   f"(see {self._log.name})")
            time.sleep(0.002)
        self.startup_s = time.perf_counter() - t0

    def settle_idle_rss(self, seconds: float = 1.0) -> None:
        time.sleep(seconds)
        self.idle_rss_mb = self.rss_mb()

    def stop(self, timeout_s: float = 15.0) -> bool:
        """SIGTERM, then SIGKILL after ``timeout_s``; True when it exited by itself with 0.

        ``life_cpu_s`` is then the process's whole CPU (user + system) from ``wait4``."""
        clean = True
        if self.proc.poll() is None:
            self.proc.terminate()
            deadline = time.monotonic() + timeout_s
            while True:
                pid, status, usage = os.wait4(self.pid, os.WNOHANG)
                if pid:
                    self.proc.returncode = os.waitstatus_to_exitcode(status)
                    self.life_cpu_s = usage.ru_utime + usage.ru_stime
                    break
                if time.monotonic() > deadline:
                    clean = False
                    self.proc.kill()
                    self.proc.wait(15)
                    break
                time.sleep(0.05)
        self._log.close()
        return clean and self.proc.returncode == 0


def _kwire_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def kwire_env(root: str | None = None) -> tuple[dict, str]:
    """Environment for a kwire broker process, and a note on its bytecode.

    An installed kwire has its modules compiled (pip writes ``.pyc`` files); a
    development shell may set PYTHONDONTWRITEBYTECODE, which would make every
    start compile ~180 modules again. The broker then gets a private
    bytecode cache (PYTHONPYCACHEPREFIX under the kwire cache dir), filled once
    by ``precompile_kwire``, so start-up is measured as installed.
    """
    root = root or _kwire_root()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    if env.pop("PYTHONDONTWRITEBYTECODE", None) or sys.flags.dont_write_bytecode:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        env["PYTHONPYCACHEPREFIX"] = os.path.join(base, "kwire", "pycache")
        return env, f"bytecode cached in {env['PYTHONPYCACHEPREFIX']} (shell has PYTHONDONTWRITEBYTECODE)"
    return env, "bytecode cached (.pyc beside the sources)"


def precompile_kwire(root: str | None = None) -> None:
    """Compile kwire's modules into the cache ``kwire_env`` points the broker at."""
    env, _ = kwire_env(root)
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(root or _kwire_root(), "kwire")],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)


def kwire_origin(root: str | None = None) -> str:
    """Where ``import kwire`` resolves in a broker started with ``kwire_env(root)``.

    A peer built from another revision must not silently import this
    checkout (an editable install's finder could win over PYTHONPATH).
    """
    env, _ = kwire_env(root)
    out = subprocess.run([sys.executable, "-c", "import kwire; print(kwire.__file__)"], env=env,
                         cwd=root or _kwire_root(), capture_output=True, text=True, timeout=120)
    return out.stdout.strip()


def start_kwire(workdir: str, overrides: list[str] = (), name: str = "kwire",
                root: str | None = None, data_dir: str | None = None,
                timeout_s: float = 30.0) -> Process:
    """``python -m kwire serve`` with a fresh ``log.dirs`` under ``workdir`` (or ``data_dir``:
    a restart on the data an earlier broker left).

    ``root`` is a directory holding another kwire source tree (a git
    revision, see ``revision.py``) to run instead of this one."""
    port = free_port()
    data = data_dir or tempfile.mkdtemp(prefix="kwire-data-", dir=workdir)
    cmd = [sys.executable, "-m", "kwire", "serve",
           "--override", f"listeners=PLAINTEXT://127.0.0.1:{port}",
           "--override", f"log.dirs={data}"]
    for o in overrides:
        cmd += ["--override", o]
    env, bytecode = kwire_env(root)
    b = Process(name, "kwire", "disk (a fresh log.dirs per run; page cache, no fsync per "
                "append with the default flush.* settings)", cmd, port, workdir, env,
                timeout_s=timeout_s, cwd=root)
    b.data_dir = data
    b.notes = bytecode
    if root is None:  # a peer's walker is noted by revision.build_helpers
        from kwire.records.scan import IMPLEMENTATION

        b.notes = f"record walker {IMPLEMENTATION}; {bytecode}"
    return b


def start_tansu(binary: str, workdir: str, name: str = "tansu") -> Process:
    """``tansu broker`` on loopback (its listener URL is also what it binds) with ``memory://``."""
    from .tansu import version

    port = free_port()
    url = f"tcp://127.0.0.1:{port}"
    cmd = [binary, "broker", "--listener-url", url, "--advertised-listener-url", url,
           "--storage-engine", "memory://tansu/"]
    env = {**os.environ, "RUST_LOG": os.environ.get("RUST_LOG", "warn")}
    b = Process(name, "tansu", "memory (memory://tansu/, nothing on disk)",
                cmd, port, workdir, env)
    b.notes = version(binary)
    return b


def remove_data(b: BrokerHandle) -> None:
    d = getattr(b, "data_dir", None)
    if d:
        shutil.rmtree(d, ignore_errors=True)
