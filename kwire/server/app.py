"""Run a broker: listeners, periodic housekeeping, graceful shutdown.

``KafkaServer`` binds the listeners from ``listeners`` (port 0 picks a free
port, and the advertised address follows it), drives the broker's periodic
work on the event loop (retention every ``log.retention.check.interval.ms``,
time-based flush, offset checkpoints), and on SIGTERM/SIGINT stops accepting,
lets in-flight requests finish (bounded), flushes and checkpoints the logs,
and returns so the process exits 0.

Cluster mode (``zookeeper.connect``): the broker connected to ZooKeeper and
registered while it was built (unreachable: ``ZooKeeperConnectError``, which
``kwire serve`` turns into exit code 1). Once the listeners are bound the
metadata replays on this loop (``attach_loop``), the registration carries
the bound address, the replica manager takes its roles and starts the
follower fetchers, and the ISR-shrink check runs every
``replica.lag.time.max.ms / 2``. On SIGTERM with ``controlled.shutdown.enable``
the controller is first asked to move leadership away (off the loop, which
keeps serving meanwhile; ``controlled.shutdown.max.retries`` attempts,
``controlled.shutdown.retry.backoff.ms`` apart; the broker stops anyway if
none succeeds, as Kafka's does); then, after the connections, the fetchers
stop (no follower append after that), the ZooKeeper session closes and the
logs are flushed.

Each listener socket is served by an accept loop of ours (``loop.sock_accept``
then ``loop.connect_accepted_socket``) rather than ``loop.create_server``, so
that accepting can stop at ``max.connections`` and resume when a connection
closes, as Kafka's acceptor does (``kwire.server.quotas``). The same loop
refuses connections over ``max.connections.per.ip``, and applies the
connection creation rates of KIP-612 (``kwire.security.connection_quotas``):
over ``max.connection.creation.rate`` (or the listener's own) it waits
before taking the next connection; a connection over its address's
``connection_creation_rate`` quota is never read and is closed once its
throttle time is up. A sweep closes
connections without a request in flight and without any bytes in or out for
``connections.max.idle.ms`` (checked every quarter of that, at most every
second). ``queued.max.request.bytes`` sizes the ``MemoryPool`` all
connections read requests into (-1: ``DEFAULT_QUEUED_MAX_REQUEST_BYTES`` or
``socket.request.max.bytes`` if larger; see ``kwire.protocol.connection``).

``serve(config)`` is the blocking entry point used by ``kwire serve``;
``start_in_thread(config)`` runs a broker on its own loop in a thread for
tests and embedding. uvloop is used when installed unless KWIRE_NO_UVLOOP=1.

Metrics, console and Schema Registry (``metrics.port``/``metrics.listeners``,
``console.port``/``console.listeners``, ``schema.registry.port``/``schema.registry.listeners``; all off unless set): their HTTP
sockets are bound first in ``start`` (a port in use fails the start before
any Kafka listener opens) and served by threads of their own
(``kwire.metrics.http``), never on this loop; they are closed first on
shutdown (off the loop: a server thread's shutdown blocks briefly).

``serve`` first tunes glibc's malloc for large request buffers
(``kwire.server.heap``). Once the listeners are up, it moves everything allocated so far
(modules, config, metadata, open logs) out of the garbage collector's sight
with ``gc.freeze()``: those objects live as long as the process, and a full
collection that no longer walks them is a shorter pause on the request path.
It then freezes again after any full collection that leaves at least
``FREEZE_MIN_OBJECTS`` objects in the oldest generation (many topics created
since), so a full collection walks what was added since the last one, not
every topic's metadata and logs (10,000 topics: 25 ms instead of 170 ms).
Deleted topics are still freed (by reference counting: nothing of a topic
refers back to itself); what a freeze would keep for good is a reference
cycle alive at that moment and garbage later (``_freeze_survivors``).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import socket
import threading
import time

from kwire.broker.broker import Broker
from kwire.config import BrokerConfig
from kwire.protocol.connection import MemoryPool
from kwire.server.connection import KafkaConnection
from kwire.server.quotas import LOG_INTERVAL_S, ConnectionQuotas

log = logging.getLogger("kwire.server")

#: What -1 (Kafka: unbounded) means for queued.max.request.bytes in kwire.
DEFAULT_QUEUED_MAX_REQUEST_BYTES = 256 * 1024 * 1024

#: A full collection that leaves at least this many objects in the oldest generation freezes
#: them (``_freeze_survivors``): about 500 single-partition topics' worth.
FREEZE_MIN_OBJECTS = 20_000


def _listen(host: str | None, port: int, backlog: int) -> list[socket.socket]:
    """Bound, listening, non-blocking sockets for host:port (every address of an empty host)."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    socks: list[socket.socket] = []
    seen = set()
    try:
        for family, type_, proto, _, addr in infos:
            if (family, addr) in seen:
                continue
            seen.add((family, addr))
            sock = socket.socket(family, type_, proto)
            socks.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPV6_V6ONLY"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(addr)
            except OSError as e:
                raise OSError(e.errno, f"error while attempting to bind on address {addr!r}: "
                                       f"{e.strerror}") from None
            sock.listen(backlog)
            sock.setblocking(False)
    except BaseException:
        for sock in socks:
            sock.close()
        raise
    return socks


class KafkaServer:
    def __init__(self, config: BrokerConfig) -> None:
        self.config = config
        self.broker = Broker(config)
        from kwire.security.manager import SecurityManager  # TLS contexts, SASL, authorizer

        self.security = SecurityManager(config, self.broker)  # ConfigError: unreadable keystore...
        self.broker.security = self.security  # handlers reach it as ctx.broker.security
        self.max_request_bytes = config["socket.request.max.bytes"]
        self.connections: set[KafkaConnection] = set()
        self.quotas = ConnectionQuotas(config)
        from kwire.security.connection_quotas import ConnectionRates  # KIP-612

        cq = self.security.client_quotas
        self.connection_rates = ConnectionRates(config, cq.table if cq is not None else None)
        self._throttled_sockets: dict[socket.socket, asyncio.TimerHandle] = {}  # closed when due
        queued = config["queued.max.request.bytes"]
        if queued <= 0:
            queued = max(DEFAULT_QUEUED_MAX_REQUEST_BYTES, self.max_request_bytes)
        self.pool = MemoryPool(queued)
        self.pool.on_available = self._memory_available
        self.memory_waiters: dict[KafkaConnection, None] = {}  # FIFO of connections out of memory
        self._wake_scheduled = False
        self._sockets: list[socket.socket] = []
        self._acceptors: list[asyncio.Task] = []
        self._handshakes: set[asyncio.Task] = set()  # TLS handshakes in progress (kwire.security)
        self._slot_waiters: set[asyncio.Future] = set()
        self._timers: list[asyncio.Task] = []
        self._stopping: asyncio.Event | None = None
        self.bound: list[tuple[str, int]] = []
        # issue 15: Prometheus endpoint and web console, each off unless configured
        from kwire.config.listeners import http_listeners  # not kwire.metrics.http: no http.server

        self._metrics_listeners = http_listeners(config, "metrics")
        self._console_listeners = http_listeners(config, "console")
        self._registry_listeners = http_listeners(config, "schema.registry")  # issue 25
        self.metrics = None  # kwire.metrics.RequestMetrics when the endpoint is on
        if self._metrics_listeners:
            from kwire.metrics import RequestMetrics

            self.metrics = RequestMetrics()
        self.metrics_server = None
        self.console = None
        self.schema_registry = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self.quotas.on_slot_free = self._slot_freed
        self._bind_http()  # first: a port in use fails the start before anything else is open
        backlog = self.config["socket.listen.backlog.size"]
        for name, host, port in self.config.listeners:
            try:
                socks = _listen(host, port, backlog)
            except OSError:
                self._close_http()
                raise
            self._sockets += socks
            for sock in socks:
                self._acceptors.append(loop.create_task(self._accept_loop(sock, name)))
            addr = socks[0].getsockname()
            self.bound.append((addr[0], addr[1]))
            log.info("listening on %s://%s:%d", name, addr[0], addr[1])
        log.info("record walker: %s", walker_description())
        adv_name, adv_host, adv_port = self.config.advertised_listeners[0]
        if adv_port == 0:
            adv_port = self.bound[0][1]
        if not adv_host or adv_host in ("0.0.0.0", "::"):
            adv_host = self.bound[0][0] if self.bound[0][0] not in ("0.0.0.0", "::") else "127.0.0.1"
        if self.broker.cluster_mode:
            self.broker.metadata.attach_loop(loop)  # records replay on this loop from now on
        endpoints = self._listener_endpoints()
        self.broker.set_advertised(adv_host, adv_port, endpoints)  # all of them: registered in a cluster
        self.security.set_endpoints(endpoints, adv_name)
        self.broker.start()
        if self.broker.replicas is not None:
            lag = self.config["replica.lag.time.max.ms"]
            self._every(max(lag // 2, 50), self.broker.replicas.check_isr_shrink)
        self._every(self.config["log.retention.check.interval.ms"], self.broker.run_retention)
        self._every(1000, self.broker.flush_due)
        self._every(self.config["log.flush.offset.checkpoint.interval.ms"], self.broker.checkpoint)
        idle_ms = self.config["connections.max.idle.ms"]
        if idle_ms > 0:  # Kafka: a negative value disables the idle check
            self._every(min(max(idle_ms / 4, 10), 1000), self._close_idle)
        self._every(LOG_INTERVAL_S * 1000, self._flush_connection_logs)
        for endpoint in (self.metrics_server, self.console, self.schema_registry):
            if endpoint is not None:
                endpoint.start()
        if self.schema_registry is not None:  # produce validation asks it (kwire.broker.schema_validation)
            self.broker.schema_ids = self.schema_registry.store.known_id

    def _bind_http(self) -> None:
        """Bind the metrics and console endpoints (served on threads of their own once started)."""
        if self._metrics_listeners:
            from kwire.metrics.server import MetricsServer

            self.metrics_server = MetricsServer(self, self.metrics, self._metrics_listeners)
        if self._console_listeners:
            from kwire.console.server import ConsoleServer

            try:
                self.console = ConsoleServer(self._console_listeners, self._console_bootstrap,
                                             read_only=self.config["console.read.only"],
                                             registry_url=self._registry_url if self._registry_listeners else None)
            except BaseException:
                self._close_http()
                raise
        if self._registry_listeners:
            from kwire.registry.server import RegistryServer
            from kwire.registry.store import KafkaStore

            try:
                node = self.broker.node_id if self.broker.cluster_mode else None
                store = KafkaStore(self._console_bootstrap, node_id=node, url=self._registry_url,
                                   replication_factor=self.config["offsets.topic.replication.factor"])
                self.schema_registry = RegistryServer(self._registry_listeners, store,
                                                      self.config["schema.registry.normalize.schemas"])
            except BaseException:
                self._close_http()
                raise

    def _registry_url(self) -> str:
        """Where this broker's Schema Registry answers, for the other brokers' forwarded writes."""
        host, port = self.schema_registry.addresses[0]
        if host in ("0.0.0.0", "::", ""):
            host = self.config.advertised_listeners[0][1] or "127.0.0.1"
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    def _console_bootstrap(self) -> str:
        """The console's client connects to this broker's first bound PLAINTEXT listener (the
        first listener if there is none: the console then shows the connection error)."""
        protocols = getattr(self.config, "listener_security_protocols", {})
        names = [lst[0] for lst in self.config.listeners]
        i = next((i for i, n in enumerate(names) if protocols.get(n, "PLAINTEXT") == "PLAINTEXT"), 0)
        host, port = self.bound[min(i, len(self.bound) - 1)]
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    def _close_http(self) -> None:
        for endpoint in (self.schema_registry, self.console, self.metrics_server):
            if endpoint is not None:
                try:
                    endpoint.close()
                except Exception:
                    log.exception("closing an HTTP endpoint failed")
        self.console = self.metrics_server = self.schema_registry = None

    def _listener_endpoints(self) -> dict[str, tuple[str, int]]:
        """The advertised (host, port) of every listener, port 0 and wildcard hosts resolved as
        for the first one (kwire.security: Metadata answers the endpoint of the request's listener)."""
        bound = {name: addr for (name, _, _), addr in zip(self.config.listeners, self.bound)}
        out = {}
        for name, host, port in self.config.advertised_listeners:
            b_host, b_port = bound.get(name, self.bound[0])
            if port == 0:
                port = b_port
            if not host or host in ("0.0.0.0", "::"):
                host = b_host if b_host not in ("0.0.0.0", "::") else "127.0.0.1"
            out[name] = (host, port)
        return out

    async def _accept_loop(self, sock: socket.socket, listener: str | None = None) -> None:
        """Accept while under max.connections; refuse what is over max.connections.per.ip.

        On an SSL / SASL_SSL listener the TLS handshake runs in a task of its own
        (``_tls_accept``), so a slow or silent client never holds up accepting."""
        loop = asyncio.get_running_loop()
        ssl_context = self.security.ssl_context(listener) if listener else None
        quotas = self.quotas
        blocked = False
        while True:
            if not quotas.slot_available():
                if not blocked:  # count each time accepting stops, not each wake-up
                    blocked = True
                    quotas.blocked.note(f"{quotas.total} connections, max.connections="
                                        f"{quotas.max_connections()}")
                await self._wait_for_slot()
                continue
            blocked = False
            try:
                conn, addr = await loop.sock_accept(sock)
            except OSError as e:  # EMFILE and the like: back off instead of spinning
                log.warning("accept failed: %s", e)
                await asyncio.sleep(0.1)
                continue
            host = addr[0]
            if listener is not None and not await self._connection_rate_ok(conn, host, listener):
                continue
            if not quotas.admit(host):
                conn.close()
                continue
            if ssl_context is not None:
                t = loop.create_task(self._tls_accept(conn, host, listener, ssl_context))
                self._handshakes.add(t)
                t.add_done_callback(self._handshakes.discard)
                continue
            try:
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                await loop.connect_accepted_socket(lambda: KafkaConnection(self, host, listener), conn)
            except OSError as e:  # the peer went away before the transport was made
                log.debug("connection from %s lost while accepting: %s", host, e)
                quotas.release(host)
                conn.close()

    async def _connection_rate_ok(self, conn: socket.socket, host: str, listener: str) -> bool:
        """KIP-612: wait out the broker's / listener's connection rate; False: ``conn`` is over its
        address's rate and will be closed, unread, after the throttle time (as Kafka's acceptor)."""
        rates = self.connection_rates
        delay = rates.listener_delay_s(listener, time.monotonic())
        if delay > 0:
            await asyncio.sleep(delay)  # accepting waits too, as Kafka's acceptor thread
        delay = rates.ip_delay_s(listener, host, time.monotonic())
        if delay <= 0:
            return True
        self.quotas.refused.note(f"{host} over its connection_creation_rate, closing in {delay * 1000:.0f} ms")

        def close() -> None:
            self._throttled_sockets.pop(conn, None)
            conn.close()
        self._throttled_sockets[conn] = asyncio.get_running_loop().call_later(delay, close)
        return False

    async def _tls_accept(self, conn: socket.socket, host: str, listener: str, ctx) -> None:
        loop = asyncio.get_running_loop()
        try:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            await loop.connect_accepted_socket(lambda: KafkaConnection(self, host, listener), conn,
                                               ssl=ctx, ssl_handshake_timeout=10.0)
        except (OSError, asyncio.TimeoutError) as e:  # not TLS, a bad certificate, gone
            log.warning("closing connection from %s on listener %s: TLS handshake failed: %s",
                        host, listener, e)
            self.quotas.release(host)
            conn.close()

    async def _wait_for_slot(self) -> None:
        """Until a connection closes, or 1 s (a dynamic raise of max.connections notifies no one)."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._slot_waiters.add(fut)
        timer = loop.call_later(1.0, _resolve, fut)
        try:
            await fut
        finally:
            timer.cancel()
            self._slot_waiters.discard(fut)

    def _slot_freed(self) -> None:
        for fut in self._slot_waiters:
            _resolve(fut)

    def _close_idle(self) -> None:
        """Close connections idle for connections.max.idle.ms (no bytes in or out, nothing pending)."""
        limit = self.config["connections.max.idle.ms"] / 1000
        now = time.monotonic()
        for c in list(self.connections):
            if not c.closed and c.conn.pending == 0 and now - c.last_active >= limit:
                log.debug("closing connection from %s:%d: idle for more than %d ms "
                          "(connections.max.idle.ms)", c.peer[0], c.peer[1],
                          self.config["connections.max.idle.ms"])
                c.close()

    def _flush_connection_logs(self) -> None:
        self.quotas.refused.flush()
        self.quotas.blocked.flush()

    # -- memory pool -------------------------------------------------------------------
    def wait_for_memory(self, conn: KafkaConnection) -> None:
        self.memory_waiters[conn] = None

    def _memory_available(self) -> None:
        """The pool has room again: let waiting connections read (soon, not inside a release)."""
        if not self._wake_scheduled and self.memory_waiters:
            self._wake_scheduled = True
            asyncio.get_running_loop().call_soon(self._wake_memory_waiters)

    def _wake_memory_waiters(self) -> None:
        self._wake_scheduled = False
        pool = self.pool
        while self.memory_waiters and pool.used < pool.limit:
            conn = next(iter(self.memory_waiters))
            del self.memory_waiters[conn]
            conn.memory_available()
        if self.memory_waiters:
            pool.waiting = True

    def _every(self, interval_ms: int, fn) -> None:
        async def loop_fn():
            while True:
                await asyncio.sleep(interval_ms / 1000)
                try:
                    fn()
                except Exception:
                    log.exception("periodic task %s failed", getattr(fn, "__name__", fn))

        self._timers.append(asyncio.get_running_loop().create_task(loop_fn()))

    def request_stop(self) -> None:
        if self._stopping is not None:
            self._stopping.set()

    async def wait_stopped(self) -> None:
        await self._stopping.wait()
        await self.shutdown()

    async def controlled_shutdown(self) -> None:
        """Cluster mode, controlled.shutdown.enable: ask the controller to move leadership away
        (off the loop, which keeps serving meanwhile: followers catch up, clients move), with
        Kafka's retries and backoff. Failing that, the broker stops anyway (as Kafka)."""
        md = self.broker.metadata
        if not self.config["controlled.shutdown.enable"] or not hasattr(md, "controlled_shutdown"):
            return
        loop = asyncio.get_running_loop()
        retries = max(self.config["controlled.shutdown.max.retries"], 1)
        backoff = self.config["controlled.shutdown.retry.backoff.ms"] / 1000
        timeout = 30.0  # Kafka: controller.socket.timeout.ms
        for attempt in range(1, retries + 1):
            log.info("controlled shutdown: attempt %d of %d", attempt, retries)
            try:
                if await loop.run_in_executor(None, md.controlled_shutdown, timeout):
                    log.info("controlled shutdown succeeded")
                    return
            except Exception as e:
                log.warning("controlled shutdown attempt %d failed: %s", attempt, e)
            if attempt < retries:
                await asyncio.sleep(backoff)
        log.warning("controlled shutdown did not complete after %d attempts; stopping anyway", retries)

    async def shutdown(self, grace_s: float = 5.0) -> None:
        if self.broker.cluster_mode:
            await self.controlled_shutdown()
        if self.console is not None or self.metrics_server is not None or self.schema_registry is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._close_http)
        log.info("shutting down: no new connections, finishing in-flight requests")
        for t in list(self._acceptors) + list(self._handshakes):  # (TLS handshakes in progress too)
            t.cancel()
        if self._acceptors:
            await asyncio.wait(self._acceptors, timeout=2)
        for sock in self._sockets:
            sock.close()
        for sock, timer in list(self._throttled_sockets.items()):
            timer.cancel()
            sock.close()
        for t in self._timers:
            t.cancel()
        for c in self.connections:
            c.drain()  # no new requests (followers' fetches would keep the drain below busy)
        self.broker.purgatory.wake_all()  # waiting fetches answer now with what they have
        deadline = time.monotonic() + grace_s
        while any(c.conn.pending for c in self.connections) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for c in list(self.connections):
            if c.transport is not None:
                c.transport.close()
        if self.broker.replicas is not None:
            await self.broker.replicas.close()  # no follower append after this
        self.broker.close()
        log.info("shutdown complete: logs flushed and checkpointed")


def walker_description() -> str:
    """Which record walker validates produced records (kwire.records.scan.IMPLEMENTATION)."""
    from kwire.records.scan import IMPLEMENTATION

    if IMPLEMENTATION == "c":
        return "c (compiled kwire.records._scan)"
    why = ("KWIRE_NO_EXTENSIONS=1" if os.environ.get("KWIRE_NO_EXTENSIONS") == "1"
           else "kwire.records._scan is not built: install with a C compiler, or the wheel")
    return f"python (pure-Python fallback: {why}; record validation is many times slower)"


def _resolve(fut: asyncio.Future) -> None:
    if not fut.done():
        fut.set_result(None)


def _freeze_survivors(phase: str, info: dict) -> None:
    """gc callback: once a full collection leaves many objects behind, freeze them.

    Right after a full (generation 2) collection there is no garbage left and
    the younger generations are empty, so everything in the oldest generation
    is reachable; freezing it then (an O(1) list splice) hides no garbage from
    the collector, and later full collections walk only what was added since.
    The cost: a frozen object that later becomes part of a garbage cycle is
    never collected. Topics' metadata and logs are freed by reference counting
    when deleted (none of them refers back to itself), so deleting topics frees
    them frozen or not; the threshold keeps a broker that is not growing from
    freezing the short-lived (request, connection) objects of the moment.
    """
    if phase == "stop" and info["generation"] == 2 and len(gc.get_objects(2)) >= FREEZE_MIN_OBJECTS:
        gc.freeze()


def _new_loop() -> asyncio.AbstractEventLoop:
    if os.environ.get("KWIRE_NO_UVLOOP") != "1":
        try:
            import uvloop

            return uvloop.new_event_loop()
        except ImportError:
            pass
    return asyncio.new_event_loop()


def serve(config: BrokerConfig) -> int:
    from kwire.server.heap import tune_malloc

    tune_malloc()  # large request buffers reused, not faulted in again (kwire.server.heap)
    loop = _new_loop()
    asyncio.set_event_loop(loop)
    server = KafkaServer(config)  # cluster mode: connects to ZooKeeper (ZooKeeperConnectError)

    async def main():
        await server.start()
        gc.collect()
        gc.freeze()  # start-up objects live for good: keep them out of later collections
        gc.callbacks.append(_freeze_survivors)  # and, mostly, what later full collections leave
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, server.request_stop)
        from kwire.server.diagnostics import log_dump

        loop.add_signal_handler(signal.SIGUSR2, log_dump, server.broker)
        print(f"kwire serving on {server.broker.host}:{server.broker.port} "
              f"(data in {', '.join(config.log_dirs)})", flush=True)
        await server.wait_stopped()

    try:
        loop.run_until_complete(main())
    except OSError as e:
        log.error("cannot serve: %s", e)
        server.broker.close()
        return 1
    finally:
        loop.close()
    return 0


class ThreadedBroker:
    """A broker running on its own event loop in a daemon thread (tests, embedding)."""

    def __init__(self, config: BrokerConfig) -> None:
        self.loop = _new_loop()
        self.server = KafkaServer(config)
        ready = threading.Event()
        self._error: BaseException | None = None

        def run():
            asyncio.set_event_loop(self.loop)
            try:
                self.loop.run_until_complete(self.server.start())
            except BaseException as e:  # report start-up failures to the caller
                self._error = e
                ready.set()
                return
            ready.set()
            self.loop.run_until_complete(self.server.wait_stopped())

        self.thread = threading.Thread(target=run, name="kwire-broker", daemon=True)
        self.thread.start()
        ready.wait(30)
        if self._error:
            raise self._error

    @property
    def bootstrap(self) -> str:
        return f"{self.server.broker.host}:{self.server.broker.port}"

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.server.request_stop)
        self.thread.join(30)
        self.loop.close()
