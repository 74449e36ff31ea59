"""A replicated kwire cluster as one bench broker: ZooKeeper and N ``kwire serve`` processes.

``start_cluster`` starts ``kwire.devcluster.DevCluster`` (the library behind
``kwire cluster up``: the Debian ``zookeeper`` package's jar, brokers 1..N on
free loopback ports, replication factors min(3, N)) in a fresh directory under
the bench's work dir and waits until every broker sees all N and a controller.
Start-up time is that whole wait (ZooKeeper's JVM included). CPU seconds and
RSS are the sums over the N broker processes (ZooKeeper's are left out: it is
not kwire). Topics the bench creates on it get replication factor
``replication_factor`` (N, at most 3).

Not here: what the workloads do; ZooKeeper ensembles; external clusters
(``--bootstrap`` covers those, without CPU figures).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time

from .brokers import BrokerHandle, kwire_env


class Cluster(BrokerHandle):
    def __init__(self, name: str, workdir: str, brokers: int, overrides: list[str] = (),
                 timeout_s: float = 120.0) -> None:
        from kwire.devcluster import DevCluster

        self.name, self.kind = name, "kwire-cluster"
        self.replication_factor = min(3, brokers)
        self.storage = (f"disk, {brokers} brokers (a fresh log.dirs each), replication factor "
                        f"{self.replication_factor}, ZooKeeper metadata")
        self.data_dir = tempfile.mkdtemp(prefix="kwire-cluster-", dir=workdir)
        configs = dict(o.split("=", 1) for o in overrides)
        env, bytecode = kwire_env()
        saved = {k: os.environ.get(k) for k in ("PYTHONPATH", "PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE")}
        # DevCluster's children inherit this process's environment: point them at this checkout
        for k in saved:
            if k in env:
                os.environ[k] = env[k]
            else:
                os.environ.pop(k, None)
        t0 = time.perf_counter()
        try:
            self.dc = DevCluster(self.data_dir, brokers, configs=configs, grace=15.0)
            self.dc.start(timeout_s)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        self.startup_s = time.perf_counter() - t0
        self.bootstrap = self.dc.bootstrap
        self.pids = [b.proc.pid for b in self.dc.brokers]
        self.pid = self.pids[0]
        self.notes = f"{bytecode}; start-up includes ZooKeeper; CPU and RSS summed over the brokers"

    def _sum(self, one) -> float | None:
        total = 0.0
        for pid in self.pids:
            self.pid = pid
            v = one()
            if v is None:
                return None
            total += v
        self.pid = self.pids[0]
        return total

    def cpu_seconds(self) -> float | None:
        return self._sum(lambda: BrokerHandle.cpu_seconds(self))

    def rss_mb(self, key: str = "VmRSS") -> float | None:
        return self._sum(lambda: BrokerHandle.rss_mb(self, key))

    def settle_idle_rss(self, seconds: float = 1.0) -> None:
        time.sleep(seconds)
        self.idle_rss_mb = self.rss_mb()

    def stop(self) -> None:
        self.dc.stop()

    def remove(self) -> None:
        shutil.rmtree(self.data_dir, ignore_errors=True)


def start_cluster(workdir: str, brokers: int, overrides: list[str] = (), name: str | None = None) -> Cluster:
    return Cluster(name or f"kwire-cluster{brokers}", workdir, brokers, overrides)
