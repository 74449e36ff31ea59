"""``Broker``: a throwaway kwire broker for tests and scripts.

::

    with kwire.testing.Broker() as b:                  # or Broker(log_retention_ms=1000)
        topic = b.create_topic("orders", partitions=3)
        KafkaProducer(bootstrap_servers=b.bootstrap).send(topic, b"hi").get(10)
        assert b.consume(topic)[0].value == b"hi"

* It listens on a free 127.0.0.1 port (``port=`` to choose one) with its data in
  a new temporary directory that is removed afterwards (``data_dir=`` to keep
  it somewhere: then it is left in place).
* Configs are Kafka's broker configs: a dict as the first argument and/or
  keywords with ``_`` for ``.`` (``log_segment_bytes=1024``). On top of kwire's
  dev defaults (``kwire serve`` without a file) it starts with
  ``TEST_DEFAULTS``: one partition for ``__consumer_offsets`` and
  ``__transaction_state`` (a first group join or transaction in a test then
  waits for one partition, not fifty) and no initial rebalance delay.
* ``mode="thread"`` (the default) runs the broker in this process, on its own
  event loop in a daemon thread: about 5 ms from ``start()`` to a broker that
  answers, against 0.6-0.9 s for ``mode="process"`` (``python -m kwire
  serve``: a fresh interpreter importing kwire). Use ``"process"`` to kill the
  broker with SIGKILL (``kill()``) or to keep its CPU use off the test's GIL.
* ``stop()`` stops it (clients see their real connection errors), ``start()`` or
  ``restart()`` brings it back on the same port with the same data. Leaving
  the ``with`` block stops it and removes the temporary data even on an
  exception or Ctrl-C; in process mode the child also gets SIGTERM if the
  thread that started it dies (Linux), so nothing is left running.

What it does not do: TLS/SASL listeners, more than one listener, several
brokers (``kwire.testing.Cluster``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from typing import Any

from ._data import DataOps

__all__ = ["Broker", "BrokerError", "TEST_DEFAULTS", "merge_configs"]

HOST = "127.0.0.1"

#: Configs every test broker starts with (the caller's override them).
TEST_DEFAULTS: dict[str, str] = {
    "group.initial.rebalance.delay.ms": "0",
    "offsets.topic.num.partitions": "1",
    "transaction.state.log.num.partitions": "1",
}


class BrokerError(RuntimeError):
    """The broker did not start (bad config, port taken, ...): the message says why."""


def merge_configs(*parts: dict[str, Any] | None, **config_kw: Any) -> dict[str, str]:
    """Dicts of Kafka config names, then keywords with ``_`` for ``.``: later wins; values as str."""
    out: dict[str, str] = {}
    for part in parts:
        for k, v in (part or {}).items():
            out[str(k)] = _config_value(v)
    for k, v in config_kw.items():
        out[k.replace("_", ".")] = _config_value(v)
    return out


def _config_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(map(str, v))
    return str(v)


class Broker(DataOps):
    """One kwire broker; a context manager (see the module docstring)."""

    def __init__(self, configs: dict[str, Any] | None = None, /, *, data_dir: str | os.PathLike | None = None,
                 port: int = 0, mode: str = "thread", topic_prefix: str = "",
                 start_timeout: float = 30.0, **config_kw: Any) -> None:
        if mode not in ("thread", "process"):
            raise ValueError(f"mode is 'thread' or 'process', not {mode!r}")
        self.mode = mode
        self.configs = merge_configs(TEST_DEFAULTS, configs, **config_kw)
        for key in ("listeners", "log.dirs", "log.dir"):
            if key in self.configs:
                raise ValueError(f"{key} is set by kwire.testing.Broker (use port= / data_dir=)")
        self._own_dir = data_dir is None
        self.data_dir = str(data_dir) if data_dir is not None else None
        self.port = port
        self.topic_prefix = topic_prefix
        self.start_timeout = start_timeout
        self._tb = None  # ThreadedBroker (thread mode)
        self._proc: subprocess.Popen | None = None  # process mode
        self._pump: threading.Thread | None = None
        self.log_lines: deque[str] = deque(maxlen=2000)  # process mode: its output
        self.starts = 0

    # -- addresses
    @property
    def host(self) -> str:
        return HOST

    @property
    def bootstrap(self) -> str:
        """``127.0.0.1:<port>`` (valid once started; the same after a restart)."""
        if not self.port:
            raise BrokerError("the broker has not been started")
        return f"{HOST}:{self.port}"

    @property
    def running(self) -> bool:
        if self.mode == "thread":
            return self._tb is not None
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int:
        """The broker's process id (this process in thread mode)."""
        return self._proc.pid if self._proc is not None else os.getpid()

    @property
    def server(self):
        """Thread mode: the running ``kwire.server.app.KafkaServer`` (its ``.broker`` inside)."""
        return self._tb.server if self._tb is not None else None

    @property
    def schema_registry_url(self) -> str:
        """``http://127.0.0.1:<port>`` of the broker's Schema Registry (``schema.registry.port``;
        0 picks a free port once, kept across restarts). The ``kwire_broker`` fixture turns it on."""
        port = self.configs.get("schema.registry.port")
        if port in (None, "", "-1", "null"):
            raise BrokerError("this broker has no Schema Registry: start it with schema.registry.port=0")
        if port == "0":
            raise BrokerError("the broker has not been started")
        return f"http://{HOST}:{port}"

    def topic(self, name: str) -> str:
        p = self.topic_prefix
        return name if not p or name.startswith(p) else p + name

    def config_overrides(self) -> dict[str, str]:
        """Everything this broker is started with, as ``--override`` keys."""
        cfg = {"listeners": f"PLAINTEXT://{HOST}:{self.port}", "log.dirs": self.data_dir}
        cfg.update(self.configs)
        return cfg

    # -- lifecycle
    def start(self) -> "Broker":
        if self.running:
            return self
        if self.data_dir is None:
            self.data_dir = tempfile.mkdtemp(prefix="kwire-test-")
        os.makedirs(self.data_dir, exist_ok=True)
        if self.configs.get("schema.registry.port") == "0":  # fixed now, so a restart keeps the URL
            self.configs["schema.registry.port"] = str(_free_port())
        deadline = time.monotonic() + self.start_timeout
        while True:
            try:
                if self.mode == "thread":
                    self._start_thread()
                else:
                    self._start_process()
                break
            except BrokerError as e:
                # The port of a restart was taken meanwhile (EADDRINUSE): retry until the deadline.
                if "in use" not in str(e) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self.starts += 1
        return self

    def _start_thread(self) -> None:
        from kwire.config import BrokerConfig, ConfigError
        from kwire.server.app import ThreadedBroker

        try:
            config = BrokerConfig.load(None, self.config_overrides())
        except ConfigError as e:
            raise BrokerError(f"bad broker config: {e}") from None
        try:
            tb = ThreadedBroker(config)
        except OSError as e:
            raise BrokerError(f"cannot start the broker: {e}") from None
        server = tb.server
        if not server.bound:
            tb.stop()
            raise BrokerError(f"the broker did not start within {self.start_timeout:.0f} s")
        self._tb = tb
        self.port = server.bound[0][1]

    _LINE = re.compile(r"kwire serving on (\S+):(\d+)")

    def _start_process(self) -> None:
        from kwire.devcluster import _die_with_parent

        argv = [sys.executable, "-m", "kwire", "serve"]
        for k, v in self.config_overrides().items():
            argv += ["--override", f"{k}={v}"]
        self.log_lines.append(f"--- start {self.starts + 1}: {' '.join(argv)}")
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, text=True, preexec_fn=_die_with_parent)
        ready = threading.Event()
        found: list[int] = []

        def pump() -> None:
            for line in proc.stdout:
                self.log_lines.append(line.rstrip("\n"))
                if not ready.is_set():
                    m = self._LINE.search(line)
                    if m:
                        found.append(int(m.group(2)))
                        ready.set()
            ready.set()

        t = threading.Thread(target=pump, name="kwire-test-broker-log", daemon=True)
        t.start()
        if not ready.wait(self.start_timeout) or not found:
            _terminate(proc, 5.0)
            t.join(5)
            out = "\n".join(list(self.log_lines)[-40:])
            raise BrokerError(f"the broker process did not start (exit code {proc.returncode}):\n{out}")
        self._proc, self._pump = proc, t
        self.port = found[0]

    def stop(self) -> None:
        """Stop the broker (its data stays for ``start()``); a no-op when it is not running."""
        if self._tb is not None:
            tb, self._tb = self._tb, None
            tb.stop()
        if self._proc is not None:
            proc, self._proc = self._proc, None
            _terminate(proc, 30.0)
            if self._pump is not None:
                self._pump.join(5)

    def kill(self) -> None:
        """Process mode: SIGKILL (no flush, no checkpoint), as a crash. Thread mode: ``stop()``."""
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.send_signal(signal.SIGKILL)
            self._proc.wait(30)
            self._proc = None
            if self._pump is not None:
                self._pump.join(5)
        else:
            self.stop()

    def restart(self) -> "Broker":
        """Stop and start again: same port, same data."""
        self.stop()
        return self.start()

    def close(self) -> None:
        """Stop, and remove the data directory if this object made it."""
        try:
            self.stop()
        finally:
            if self._own_dir and self.data_dir is not None:
                shutil.rmtree(self.data_dir, ignore_errors=True)
                self.data_dir = None

    def __enter__(self) -> "Broker":
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<kwire.testing.Broker {self.mode} {HOST}:{self.port or '?'} {state} data={self.data_dir}>"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _terminate(proc: subprocess.Popen, grace: float) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
