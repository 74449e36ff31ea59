"""One ZooKeeper session, through kazoo: connect, chroot, timeouts, conditional writes.

``ZkStore`` is the only kwire code that calls kazoo for reads and writes (the
watches that feed the image are set by ``kwire.cluster.zookeeper``). It does:

* **connect** with Kafka's two timeouts: ``zookeeper.connection.timeout.ms``
  (how long start-up waits for a session; then ``ZooKeeperConnectError`` with
  the address, as Kafka's ``ZooKeeperClientTimeoutException``) and
  ``zookeeper.session.timeout.ms`` (the session's; ephemeral znodes vanish that
  long after the process stops heart-beating). After a dropped connection
  kazoo reconnects by itself, retrying at most a second apart so a restarted
  ZooKeeper is found again quickly. Its connections leave from
  ``broker.source.address`` when set (a link can then be cut by address), and
  its retries sleep with ``kwire.clock.sleep``, not ``time.sleep`` (a broker
  under libfaketime keeps its connection thread, issue 23).
* **chroot**: ``host:port/kafka`` puts everything under ``/kafka``; the chroot
  is created first (through a session without it) if missing, as Kafka does.
* **fail fast while disconnected**: a write while there is no connection raises
  ``ZooKeeperUnavailable`` (a KafkaError, REQUEST_TIMED_OUT, so clients retry)
  instead of queueing; every call waits at most the session timeout.
* **conditional writes** (``set``, ``multi``) with znode versions, reporting a
  lost race as ``BadVersion`` / ``NodeExists`` / ``NoNode`` so callers map
  them to Kafka's errors.

Session events (connected, suspended, lost = expired) go to listeners the
owner adds; they run on kazoo's connection thread and must not block.
Blocking here is fine: callers are the metadata writer thread and kazoo's own
threads, never the event loop.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Iterable

from kazoo.client import KazooClient, KazooState
from kazoo.exceptions import (
    BadVersionError,
    ConnectionClosedError,
    ConnectionLoss,
    KazooException,
    NodeExistsError,
    NoNodeError,
    NotEmptyError,
    RolledBackError,
    SessionExpiredError,
)
from kazoo.handlers import utils as kazoo_utils
from kazoo.handlers.threading import KazooTimeoutError, SequentialThreadingHandler

from kwire.clock import sleep
from kwire.cluster.errors import ZooKeeperConnectError
from kwire.cluster.zk_layout import parse_connect
from kwire.protocol.errors import ErrorCode, KafkaError

log = logging.getLogger("kwire.cluster.zk")

DEFAULT_SESSION_TIMEOUT_MS = 18000  # Kafka's zookeeper.session.timeout.ms


def _sleep(seconds: float) -> None:
    """kazoo's sleep between (re)connection attempts and command retries. ``time.sleep``
    raised under libfaketime (``kwire.clock``) and ended kazoo's connection thread, so the
    first dropped connection left the broker without ZooKeeper for good: its session expired
    and it never registered again (issue 23)."""
    sleep(max(0.0, seconds))


class _Handler(SequentialThreadingHandler):
    """Kazoo's threading handler, sleeping with ``_sleep``; with a ``source_address``, its
    connections to ZooKeeper leave from that address (``broker.source.address``: a link to
    ZooKeeper can then be cut by the broker's address)."""

    sleep_func = staticmethod(_sleep)

    def __init__(self, source_address: str | None = None) -> None:
        super().__init__()
        self.source_address = source_address

    def create_connection(self, address, hostname=None, timeout=None, use_ssl=False, **kwargs):
        if use_ssl or not self.source_address:  # kwire does not use TLS to ZooKeeper; kazoo's own path
            return super().create_connection(address, hostname, timeout, use_ssl, **kwargs)
        import socket
        sock = socket.create_connection(address, timeout, source_address=(self.source_address, 0))
        kazoo_utils._set_default_tcpsock_options(socket, sock)
        return sock


# kazoo's connection retry: forever, backing off to at most a second
_CONNECTION_RETRY = {"max_tries": -1, "delay": 0.05, "backoff": 1.5, "max_delay": 1.0, "sleep_func": _sleep}


class ZooKeeperUnavailable(KafkaError):
    """A metadata change was refused because ZooKeeper cannot be reached now."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.REQUEST_TIMED_OUT, message)


class BadVersion(Exception):
    """A conditional write lost: the znode's version was not the one expected."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} changed meanwhile (version mismatch)")
        self.path = path


class NodeExists(Exception):
    def __init__(self, path: str) -> None:
        super().__init__(f"{path} already exists")
        self.path = path


class NoNode(Exception):
    def __init__(self, path: str) -> None:
        super().__init__(f"{path} does not exist")
        self.path = path


# ops for ``multi``: ("check", path, version) | ("create", path, data, ephemeral)
#                    ("set", path, data, version) | ("delete", path, version)
Op = tuple


class ZkStore:
    def __init__(self, connect: str, *, session_timeout_ms: int = DEFAULT_SESSION_TIMEOUT_MS,
                 connection_timeout_ms: int | None = None, source_address: str | None = None) -> None:
        self.connect = connect
        self.source_address = source_address  # the local address of the ZooKeeper connection
        self.hosts, self.chroot = parse_connect(connect)
        self.session_timeout_ms = session_timeout_ms
        # Kafka: zookeeper.connection.timeout.ms defaults to the session timeout
        self.connection_timeout_ms = connection_timeout_ms or session_timeout_ms
        self.client: KazooClient | None = None
        self._listeners: list[Callable[[str], None]] = []
        self._connected = threading.Event()

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> None:
        """Connect (creating the chroot first if missing) or raise ZooKeeperConnectError."""
        if self.chroot:
            bare = self._connect_client(self.hosts)
            try:
                bare.ensure_path(self.chroot)
            finally:
                bare.stop()
                bare.close()
        self.client = self._connect_client(self.hosts + self.chroot)
        self._connected.set()
        self.client.add_listener(self._on_state)
        log.info("connected to ZooKeeper at %s (session 0x%x, timeout %d ms)", self.connect,
                 self.client.client_id[0], self.session_timeout_ms)

    def _connect_client(self, hosts: str) -> KazooClient:
        client = KazooClient(hosts=hosts, timeout=self.session_timeout_ms / 1000,
                             handler=_Handler(self.source_address), connection_retry=dict(_CONNECTION_RETRY),
                             command_retry={"max_tries": 3, "delay": 0.1, "max_delay": 1.0, "sleep_func": _sleep})
        try:
            client.start(timeout=self.connection_timeout_ms / 1000)
        except KazooTimeoutError:
            client.stop()
            client.close()
            raise ZooKeeperConnectError(
                f"Timed out waiting for a connection to ZooKeeper at {self.hosts} after "
                f"{self.connection_timeout_ms} ms (zookeeper.connection.timeout.ms)") from None
        return client

    def add_listener(self, fn: Callable[[str], None]) -> None:
        """``fn("connected" | "suspended" | "lost")`` on every session state change."""
        self._listeners.append(fn)

    def _on_state(self, state: str) -> None:
        if state == KazooState.CONNECTED:
            self._connected.set()
        else:
            self._connected.clear()
        name = {KazooState.CONNECTED: "connected", KazooState.SUSPENDED: "suspended",
                KazooState.LOST: "lost"}[state]
        log.info("ZooKeeper session %s", name)
        for fn in list(self._listeners):
            try:
                fn(name)
            except Exception:
                log.exception("in a ZooKeeper session listener")

    def wait_connected(self, timeout: float) -> bool:
        """Until the session is connected (True) or ``timeout`` seconds passed (False)."""
        return timeout > 0 and self._connected.wait(timeout)

    @property
    def connected(self) -> bool:
        return self.client is not None and self.client.state == KazooState.CONNECTED

    @property
    def session_id(self) -> int | None:
        if self.client is None or self.client.client_id is None:
            return None
        return self.client.client_id[0]

    def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            try:
                client.stop()
            finally:
                client.close()

    # -- calls ------------------------------------------------------------------------------
    def _require(self) -> KazooClient:
        client = self.client
        if client is None or client.state != KazooState.CONNECTED:
            raise ZooKeeperUnavailable(
                f"ZooKeeper at {self.connect} is not reachable: cluster metadata cannot change now")
        return client

    def _wait(self, async_result, what: str):
        try:
            return async_result.get(timeout=self.session_timeout_ms / 1000)
        except KazooTimeoutError:
            raise ZooKeeperUnavailable(f"ZooKeeper did not answer {what} within "
                                       f"{self.session_timeout_ms} ms") from None
        except (ConnectionLoss, SessionExpiredError, ConnectionClosedError) as e:
            raise ZooKeeperUnavailable(f"lost the ZooKeeper connection during {what}: "
                                       f"{type(e).__name__}") from None

    def get(self, path: str) -> tuple[bytes | None, int]:
        """(data, version) of ``path``; (None, -1) if it does not exist."""
        client = self._require()
        try:
            data, stat = self._wait(client.get_async(path), f"a read of {path}")
        except NoNodeError:
            return None, -1
        return data, stat.version

    def children(self, path: str) -> list[str]:
        client = self._require()
        try:
            return sorted(self._wait(client.get_children_async(path), f"a listing of {path}"))
        except NoNodeError:
            return []

    def exists(self, path: str) -> bool:
        client = self._require()
        return self._wait(client.exists_async(path), f"a check of {path}") is not None

    def ensure_paths(self, paths: Iterable[str]) -> None:
        client = self._require()
        for p in paths:
            if not self.exists(p):
                try:
                    client.ensure_path(p)
                except NodeExistsError:
                    pass

    def create(self, path: str, data: bytes = b"", *, ephemeral: bool = False, sequence: bool = False,
               makepath: bool = False) -> str:
        client = self._require()
        try:
            return self._wait(client.create_async(path, data, ephemeral=ephemeral, sequence=sequence,
                                                  makepath=makepath), f"the creation of {path}")
        except NodeExistsError:
            raise NodeExists(path) from None
        except NoNodeError:
            raise NoNode(path) from None

    def set(self, path: str, data: bytes, version: int = -1) -> int:
        """Set ``path`` if its version is ``version`` (-1: any); the new version."""
        client = self._require()
        try:
            stat = self._wait(client.set_async(path, data, version), f"an update of {path}")
        except BadVersionError:
            raise BadVersion(path) from None
        except NoNodeError:
            raise NoNode(path) from None
        return stat.version

    def set_or_create(self, path: str, data: bytes) -> None:
        try:
            self.set(path, data)
        except NoNode:
            try:
                self.create(path, data, makepath=True)
            except NodeExists:
                self.set(path, data)

    def delete(self, path: str, version: int = -1, recursive: bool = False) -> None:
        client = self._require()
        try:
            if recursive:
                client.delete(path, recursive=True)
            else:
                self._wait(client.delete_async(path, version), f"the deletion of {path}")
        except NoNodeError:
            pass
        except BadVersionError:
            raise BadVersion(path) from None

    def multi(self, ops: list[Op]) -> list:
        """Run ``ops`` atomically (ZooKeeper's multi, Kafka's MultiRequest): all or none.

        Raises BadVersion / NodeExists / NoNode naming the op's path that failed.
        Results: per op, the created path (create), the new version (set), True.
        """
        client = self._require()
        return self._multi_results(ops, self._wait(self._transaction(client, ops).commit_async(), "a transaction"))

    def multi_many(self, batches: list[list[Op]]) -> list:
        """Several independent multis, pipelined (sent together, answered in order, as Kafka's
        controller sends its ZooKeeper requests asynchronously): per batch, its results as
        ``multi`` gives them, or the exception ``multi`` would have raised."""
        client = self._require()
        pending = [self._transaction(client, ops).commit_async() for ops in batches]
        out = []
        for ops, ar in zip(batches, pending):
            try:
                out.append(self._multi_results(ops, self._wait(ar, "a transaction")))
            except ZooKeeperUnavailable:
                raise
            except (BadVersion, NodeExists, NoNode, KafkaError) as e:
                out.append(e)
        return out

    @staticmethod
    def _transaction(client: KazooClient, ops: list[Op]):
        t = client.transaction()
        for op in ops:
            kind = op[0]
            if kind == "check":
                t.check(op[1], op[2])
            elif kind == "create":
                t.create(op[1], op[2], ephemeral=op[3] if len(op) > 3 else False)
            elif kind == "set":
                t.set_data(op[1], op[2], op[3] if len(op) > 3 else -1)
            elif kind == "delete":
                t.delete(op[1], op[2] if len(op) > 2 else -1)
            else:
                raise ValueError(f"unknown op {kind!r}")
        return t

    @staticmethod
    def _multi_results(ops: list[Op], results) -> list:
        for op, r in zip(ops, results):
            if isinstance(r, RolledBackError) or not isinstance(r, Exception):
                continue
            if isinstance(r, BadVersionError):
                raise BadVersion(op[1])
            if isinstance(r, NodeExistsError):
                raise NodeExists(op[1])
            if isinstance(r, NoNodeError):
                raise NoNode(op[1])
            if isinstance(r, NotEmptyError):
                raise KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR, f"{op[1]} has children")
            if isinstance(r, KazooException):
                raise ZooKeeperUnavailable(f"a ZooKeeper transaction failed at {op[1]}: {type(r).__name__}")
        out = []
        for op, r in zip(ops, results):
            out.append(r.version if op[0] == "set" else r)
        return out
