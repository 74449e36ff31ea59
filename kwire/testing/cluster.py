"""``Cluster``: ZooKeeper and N kwire brokers for tests, a thin layer over ``kwire.devcluster``.

::

    with kwire.testing.Cluster(brokers=3, min_insync_replicas=2) as c:
        topic = c.create_topic("orders", partitions=3, replication_factor=3)
        c.kill_broker(c.leader(topic, 0))      # SIGKILL the leader of partition 0
        ...

ZooKeeper is a standalone server from the Debian ``zookeeper`` package's jars
(it needs ``java``); brokers are ``python -m kwire serve`` processes on free
loopback ports, every one in a temporary directory removed afterwards
(``directory=`` to keep it). Without ZooKeeper's jar or java, ``start()``
raises ``kwire.devcluster.ZooKeeperMissing`` naming the Debian packages to
install (the pytest fixture skips with that message).

Configs, as for ``Broker``, apply to every broker, on top of ``TEST_DEFAULTS``,
a ZooKeeper session of ``zookeeper.session.timeout.ms=6000`` (a killed broker
is noticed within seconds) and the dev cluster's replication factor min(3, N).

What it does not do: a ZooKeeper ensemble, restart brokers on its own, run
brokers in-process (each broker is its own process so that it can be killed).
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from typing import Any

from ._data import DataOps
from .broker import TEST_DEFAULTS, merge_configs

__all__ = ["Cluster", "CLUSTER_DEFAULTS"]

#: On top of TEST_DEFAULTS for cluster brokers.
CLUSTER_DEFAULTS: dict[str, str] = {
    "zookeeper.session.timeout.ms": "6000",
    "controlled.shutdown.retry.backoff.ms": "500",
}


class Cluster(DataOps):
    """ZooKeeper + ``brokers`` kwire brokers (see the module docstring)."""

    def __init__(self, brokers: int = 3, configs: dict[str, Any] | None = None, /, *,
                 directory: str | os.PathLike | None = None, topic_prefix: str = "",
                 start_timeout: float = 120.0, grace: float = 30.0, **config_kw: Any) -> None:
        self.size = brokers
        self.configs = merge_configs(TEST_DEFAULTS, CLUSTER_DEFAULTS, configs, **config_kw)
        self._own_dir = directory is None
        self.directory = str(directory) if directory is not None else None
        self.topic_prefix = topic_prefix
        self.start_timeout = start_timeout
        self.grace = grace
        self.dev = None  # kwire.devcluster.DevCluster once started

    @property
    def bootstrap(self) -> str:
        if self.dev is None:
            raise RuntimeError("the cluster has not been started")
        return self.dev.bootstrap

    @property
    def zookeeper_connect(self) -> str:
        return self.dev.zookeeper_connect

    @property
    def brokers(self) -> list:
        """The ``kwire.devcluster.LocalBroker`` objects (``.node_id``, ``.address``, ``.log_path``)."""
        return list(self.dev.brokers) if self.dev else []

    def broker(self, node_id: int):
        for b in self.dev.brokers:
            if b.node_id == node_id:
                return b
        raise KeyError(f"no broker {node_id} (the cluster has {self.size})")

    def topic(self, name: str) -> str:
        p = self.topic_prefix
        return name if not p or name.startswith(p) else p + name

    # -- lifecycle
    def start(self) -> "Cluster":
        from kwire.devcluster import DevCluster, zookeeper_classpath

        if self.dev is not None:
            return self
        zookeeper_classpath()  # ZooKeeperMissing before anything is created
        if self.directory is None:
            self.directory = tempfile.mkdtemp(prefix="kwire-cluster-")
        dev = DevCluster(self.directory, self.size, configs=self.configs, grace=self.grace)
        dev.start(timeout=self.start_timeout)
        self.dev = dev
        return self

    def stop(self) -> None:
        if self.dev is not None:
            dev, self.dev = self.dev, None
            dev.stop()

    def close(self) -> None:
        try:
            self.stop()
        finally:
            if self._own_dir and self.directory is not None:
                shutil.rmtree(self.directory, ignore_errors=True)
                self.directory = None

    def __enter__(self) -> "Cluster":
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one broker
    def stop_broker(self, node_id: int) -> int | None:
        """SIGTERM (a controlled shutdown) and wait; its exit code."""
        return self.broker(node_id).stop(self.grace)

    def kill_broker(self, node_id: int) -> None:
        """SIGKILL, as a crash."""
        b = self.broker(node_id)
        if b.alive():
            b.proc.send_signal(signal.SIGKILL)
            b.proc.wait(30)

    def start_broker(self, node_id: int, timeout: float = 60.0) -> None:
        """Start a stopped broker again (same port and data) and wait until it answers."""
        b = self.broker(node_id)
        if b.alive():
            return
        b.start()
        self.dev.write_state()
        from kwire.client import KafkaClient, KafkaClientError

        deadline = time.monotonic() + timeout
        while True:
            if not b.alive():
                from kwire.devcluster import ClusterError, tail

                raise ClusterError(f"broker {node_id} exited with code {b.proc.returncode}:\n"
                                   f"{tail(b.log_path)}")
            try:
                with KafkaClient(b.address, client_id="kwire-testing", timeout=5) as c:
                    if node_id in c.metadata([]).brokers:
                        return
            except (KafkaClientError, OSError):
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"broker {node_id} did not come back within {timeout:.0f} s")
            time.sleep(0.1)

    def controller_id(self) -> int:
        return self.dev.controller_id()

    def leader(self, topic: str, partition: int) -> int:
        """The partition's leader as the metadata says now (-1: none)."""
        with self.client() as c:
            return c.topic(self.topic(topic)).partitions[partition].leader

    def __repr__(self) -> str:
        return f"<kwire.testing.Cluster {self.size} brokers {self.dev.bootstrap if self.dev else 'stopped'}>"
