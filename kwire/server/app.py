"""Run a broker: listeners, periodic housekeeping, graceful shutdown.

``KafkaServer`` binds the listeners from ``listeners`` (port 0 picks a free
port, and the advertised address follows it), drives the broker's periodic
work on the event loop (retention every ``log.retention.check.interval.ms``,
time-based flush, offset checkpoints), and on SIGTERM/SIGINT stops accepting,
lets in-flight requests finish (bounded), flushes and checkpoints the logs,
and returns so the process exits 0.

``serve(config)`` is the blocking entry point used by ``kwire serve``;
``start_in_thread(config)`` runs a broker on its own loop in a thread for
tests and embedding. uvloop is used when installed unless KWIRE_NO_UVLOOP=1.

Once the listeners are up, ``serve`` moves everything allocated so far
(modules, config, metadata, open logs) out of the garbage collector's sight
with ``gc.freeze()``: those objects live as long as the process, and a full
collection that no longer walks them is a shorter pause on the request path.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import signal
import threading
import time

from kwire.broker.broker import Broker
from kwire.config import BrokerConfig
from kwire.server.connection import KafkaConnection

log = logging.getLogger("kwire.server")


class KafkaServer:
    def __init__(self, config: BrokerConfig) -> None:
        self.config = config
        self.broker = Broker(config)
        self.max_request_bytes = config["socket.request.max.bytes"]
        self.connections: set[KafkaConnection] = set()
        self._servers: list[asyncio.base_events.Server] = []
        self._timers: list[asyncio.Task] = []
        self._stopping: asyncio.Event | None = None
        self.bound: list[tuple[str, int]] = []

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        for name, host, port in self.config.listeners:
            srv = await loop.create_server(lambda: KafkaConnection(self), host or None, port,
                                           reuse_address=True, backlog=1024)
            self._servers.append(srv)
            sock = srv.sockets[0].getsockname()
            self.bound.append((sock[0], sock[1]))
            log.info("listening on %s://%s:%d", name, sock[0], sock[1])
        adv_name, adv_host, adv_port = self.config.advertised_listeners[0]
        if adv_port == 0:
            adv_port = self.bound[0][1]
        if not adv_host or adv_host in ("0.0.0.0", "::"):
            adv_host = self.bound[0][0] if self.bound[0][0] not in ("0.0.0.0", "::") else "127.0.0.1"
        self.broker.set_advertised(adv_host, adv_port)
        self.broker.start()
        self._every(self.config["log.retention.check.interval.ms"], self.broker.run_retention)
        self._every(1000, self.broker.flush_due)
        self._every(self.config["log.flush.offset.checkpoint.interval.ms"], self.broker.checkpoint)

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

    async def shutdown(self, grace_s: float = 5.0) -> None:
        log.info("shutting down: no new connections, finishing in-flight requests")
        for srv in self._servers:
            srv.close()
        for t in self._timers:
            t.cancel()
        self.broker.purgatory.wake_all()  # waiting fetches answer now with what they have
        deadline = time.monotonic() + grace_s
        while any(c.conn.pending for c in self.connections) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for c in list(self.connections):
            if c.transport is not None:
                c.transport.close()
        self.broker.close()
        log.info("shutdown complete: logs flushed and checkpointed")


def _new_loop() -> asyncio.AbstractEventLoop:
    if os.environ.get("KWIRE_NO_UVLOOP") != "1":
        try:
            import uvloop

            return uvloop.new_event_loop()
        except ImportError:
            pass
    return asyncio.new_event_loop()


def serve(config: BrokerConfig) -> int:
    loop = _new_loop()
    asyncio.set_event_loop(loop)
    server = KafkaServer(config)

    async def main():
        await server.start()
        gc.collect()
        gc.freeze()  # start-up objects live for good: keep them out of later collections
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, server.request_stop)
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
