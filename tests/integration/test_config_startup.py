"""Start-up configuration of ``kwire serve`` subprocesses (issues 11 and 10 §5b).

* A broker started without a properties file runs Kafka's shipped
  server.properties settings (no first-rebalance delay, internal topics with one
  replica), reported as STATIC_BROKER_CONFIG; one started with a file, even an
  empty one, starts from Kafka's code defaults. conftest's ``spawn_broker``
  always overrides ``group.initial.rebalance.delay.ms``, so these tests start
  their own processes.
* Settings kwire cannot honour whose absence would change safety stop start-up
  with exit code 2 and an error naming the key; harmless unknown names only warn.
* Keys kwire accepts but does not act on are named in the start-up log.
* A JoinGroup refused with INVALID_SESSION_TIMEOUT is logged with the bounds.
"""

from __future__ import annotations

import logging
import re
import signal
import subprocess
import sys
import threading
import time

import pytest
from confluent_kafka.admin import AdminClient, ConfigSource, ResourceType
from confluent_kafka.admin import ConfigResource as CConfigResource

TIMEOUT_S = 30


class Serve:
    """``python -m kwire serve [file] --override ...``; stopped by the fixture."""

    _LINE = re.compile(r"kwire serving on (\S+):(\d+)")

    def __init__(self, args: list[str]) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen([sys.executable, "-m", "kwire", "serve", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.ready = threading.Event()
        self.bootstrap = ""
        self._pump = threading.Thread(target=self._read, daemon=True)
        self._pump.start()
        if not self.ready.wait(TIMEOUT_S) or not self.bootstrap:
            self.stop()
            raise RuntimeError("kwire serve did not start:\n" + "\n".join(self.lines))

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            m = self._LINE.search(line)
            if m and not self.ready.is_set():
                self.bootstrap = f"{m.group(1)}:{m.group(2)}"
                self.ready.set()
        self.ready.set()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(TIMEOUT_S)
        self._pump.join(5)


@pytest.fixture
def serve(tmp_path):
    started: list[Serve] = []

    def start(*extra: str, file: str | None = None) -> Serve:
        args = ([file] if file else []) + [
            "--override", "listeners=PLAINTEXT://127.0.0.1:0",
            "--override", f"log.dirs={tmp_path / f'data-{len(started)}'}", *extra]
        s = Serve(args)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


def broker_configs(bootstrap: str) -> dict:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    res = CConfigResource(ResourceType.BROKER, "0")
    return admin.describe_configs([res])[res].result(timeout=TIMEOUT_S)


DEV = {
    "group.initial.rebalance.delay.ms": ("0", "3000"),
    "offsets.topic.replication.factor": ("1", "3"),
    "transaction.state.log.replication.factor": ("1", "3"),
    "transaction.state.log.min.isr": ("1", "2"),
    "num.recovery.threads.per.data.dir": ("1", "2"),
}


def test_dev_defaults_without_a_file_and_code_defaults_with_an_empty_file(serve, tmp_path):
    empty = tmp_path / "empty.properties"
    empty.write_text("")
    dev = broker_configs(serve().bootstrap)
    with_file = broker_configs(serve(file=str(empty)).bootstrap)
    for name, (dev_value, kafka_value) in DEV.items():
        assert (dev[name].value, dev[name].source) == \
            (dev_value, ConfigSource.STATIC_BROKER_CONFIG.value), name
        assert (with_file[name].value, with_file[name].source) == \
            (kafka_value, ConfigSource.DEFAULT_CONFIG.value), name
    # both: min.insync.replicas at cluster level from the first start (KIP-966)
    for cfgs in (dev, with_file):
        assert cfgs["min.insync.replicas"].source == ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG.value


@pytest.mark.parametrize("overrides, key", [
    # security listeners are served (issue 14), but not without a readable keystore / mechanism
    (["listeners=SSL://127.0.0.1:0", "ssl.keystore.location=/k.jks", "ssl.keystore.password=x"],
     "ssl.keystore.location"),  # JKS (the default type) is read, but this file does not exist
    (["listeners=SASL_SSL://127.0.0.1:0", "sasl.enabled.mechanisms=PLAIN"], "ssl.keystore.location"),
    (["listeners=SASL_PLAINTEXT://127.0.0.1:0"], "sasl.enabled.mechanisms"),
    (["listeners=CLIENT://127.0.0.1:0", "listener.security.protocol.map=CLIENT:SSL"],
     "ssl.keystore.location"),
    (["authorizer.class.name=org.example.CustomAuthorizer"],  # only Kafka's ACL authorizers
     "authorizer.class.name"),
    (["security.inter.broker.protocol=SSL"], "security.inter.broker.protocol"),
    (["process.roles=broker", "controller.quorum.bootstrap.servers=127.0.0.1:9093"], "process.roles"),
    (["controller.quorum.voters=1@127.0.0.1:9093,2@127.0.0.1:9094"], "controller.quorum.voters"),
])
def test_unsafe_settings_stop_start_up(tmp_path, overrides, key):
    args = [sys.executable, "-m", "kwire", "serve", "--override", f"log.dirs={tmp_path}"]
    if not any(o.startswith("listeners=") for o in overrides):
        args += ["--override", "listeners=PLAINTEXT://127.0.0.1:0"]
    for o in overrides:
        args += ["--override", o]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert key in proc.stderr
    assert "kwire serving on" not in proc.stdout


def test_harmless_unknown_and_unacted_keys_are_logged(serve):
    s = serve("--override", "no.such.config=1",
              "--override", "sasl.kerberos.min.time.before.relogin=120000")
    text = "\n".join(s.lines)
    assert "no.such.config" in text and "isn't a known config" in text
    assert re.search(r"does not act on them: .*sasl\.kerberos\.min\.time\.before\.relogin", text)
    cfg = broker_configs(s.bootstrap)["sasl.kerberos.min.time.before.relogin"]
    assert (cfg.value, cfg.source) == ("120000", ConfigSource.STATIC_BROKER_CONFIG.value)


def test_join_refused_for_session_timeout_is_logged(make_broker, caplog):
    from kafka import KafkaConsumer

    b = make_broker()
    with caplog.at_level(logging.INFO, logger="kwire.coordinator"):
        consumer = KafkaConsumer("t-join-log", bootstrap_servers=b.bootstrap, group_id="g-join-log",
                                 session_timeout_ms=3000, heartbeat_interval_ms=1000,
                                 request_timeout_ms=10000)
        try:
            deadline = time.monotonic() + TIMEOUT_S
            while time.monotonic() < deadline and not any(
                    "INVALID_SESSION_TIMEOUT" in r.getMessage() for r in caplog.records):
                try:
                    consumer.poll(timeout_ms=200)
                except Exception:  # noqa: BLE001 - the refusal surfaces as an error; we want the log
                    pass
        finally:
            consumer.close()
    (msg,) = {r.getMessage() for r in caplog.records if "INVALID_SESSION_TIMEOUT" in r.getMessage()}
    assert "g-join-log" in msg and "session.timeout.ms=3000" in msg
    assert "group.min.session.timeout.ms=6000" in msg and "group.max.session.timeout.ms=1800000" in msg
