"""One client connection on asyncio: bytes in, dispatch, responses out in order.

The protocol object only moves bytes. Framing and response ordering are the
sans-I/O ``kwire.protocol.connection.Connection``; decoding is
``kwire.protocol.codec``; the work is the handler's. What happens here:

* it is an ``asyncio.BufferedProtocol``: the event loop reads into memory the
  ``Connection`` hands out, so a large request (a produce of many batches) is
  read straight into its own frame buffer, which the log then patches and
  writes; no intermediate ``bytes`` objects are made per read;
* every complete frame is decoded and dispatched at once, so pipelined requests
  run concurrently, in slices of at most ``SLICE_S`` of the loop's time: a
  connection whose frames take longer (a burst of pipelined produce requests,
  hundreds per read) stops reading and goes on in a callback of its own, so
  the answers its appends woke (a consumer's parked Fetch, other connections'
  requests, timers) go out between its slices instead of after all of them;
  a handler that waits (long-poll fetch, acks=all) returns a
  coroutine that runs as a task (or a ``kwire.delayed.Later``, answered from
  its future's done callback without a task), and its slot keeps later
  responses queued behind it;
* the single-partition Produce (one topic, one partition, no transactional
  id: what librdkafka and the Java producer send at low rates) skips the
  generated request and response objects when the connection has no
  authorizer, no client quotas and no metrics: the frame is read by one C call
  (``kwire.records._scan.produce_frame``; without the C helper by its twin
  ``kwire.protocol.produce_single.decode_frame``), ``produce.append_single``
  appends as the handler would, and a success is written from a per-version
  template with the log's ``AppendResult``; any other answer, and any
  other shape, goes the generic way (``KWIRE_FAST_PATHS=0`` or a server's
  ``fast_paths = False`` turns it off: the reference it is tested against);
* a consumer's Fetch v13-16 of the common shape (no tagged fields, no
  replica id) is read by ``kwire.protocol.fetch_plain_request`` into the
  tuples the handler uses, without a generated object per topic and
  partition (the same ``KWIRE_FAST_PATHS`` / ``fast_paths`` switch);
* responses are lists of byte chunks and file regions. Chunks are written
  straight to the transport; a large file region is sent with
  ``loop.sendfile`` (zero-copy ``os.sendfile`` on the standard event loop),
  a small one is read with ``os.pread`` and written inline, which costs less
  than a sendfile call for a few KiB. ``os.sendfile`` goes straight to the
  socket only while the transport has nothing buffered, so order is kept; what
  the socket does not take at once is copied onto the transport. This works
  the same on the standard loop and on uvloop (which has no loop.sendfile).
  The small chunks between regions (the header, each partition's fields) are
  separate writes; corking the socket around them was tried and left out
  (docs/performance.md: no fewer segments on loopback, no less client CPU);
* bad input closes only this connection, with a log line saying why: a frame
  above ``socket.request.max.bytes``, an undecodable header or body, an unknown
  API key, an unsupported version (except ApiVersions, which answers v0 with
  UNSUPPORTED_VERSION and the supported ranges, as Kafka does);
* a handler failure never closes the connection: the exception is logged once
  with its traceback and the request is answered with
  ``kwire.protocol.error_response`` (UNKNOWN_SERVER_ERROR, KAFKA_STORAGE_ERROR
  for an OSError, or the code of a ``KafkaError``) in every error field, as
  Kafka's ``getErrorResponse`` does. The one exception is also Kafka's: an
  acks=0 produce gets no response, so its failure closes the connection to
  make the producer refresh its metadata;
* request memory comes from the server's ``MemoryPool``: when it is exhausted
  the connection stops reading (``pause_reading``) until a request's memory is
  returned and the server calls ``memory_available``; a frame's share is
  returned when its handler returns, also when its answer comes later (an
  acks=all produce waiting for followers, a long-poll fetch), as Kafka releases
  a request's buffer once ``KafkaApis.handle`` returns. Reading is also paused while the
  transport's write buffer is full; it resumes only when neither holds it;
* ``last_active`` (monotonic seconds) moves on every read and write, for the
  server's ``connections.max.idle.ms`` sweep;
* with metrics on (``server.metrics``, a ``kwire.metrics.RequestMetrics``),
  every request's API, time from decoding to its response being queued, and
  (Produce, Fetch) per-topic records and bytes are counted; off, one
  ``is not None`` test per request is all it costs;
* security (``kwire.security``): the listener's ``Session`` (from
  ``server.security``) says which requests may come yet: on a SASL listener,
  anything but ApiVersions / SaslHandshake / SaslAuthenticate before
  authentication closes the connection (as Kafka); after SaslHandshake v0 the
  frames are raw SASL tokens, answered here with a length-prefixed token; a
  failed authentication is answered, then the connection closes
  ``connection.failed.authentication.delay.ms`` later, reading nothing more.
  On a TLS listener file regions are read and written through the TLS
  transport (``sendfile`` would bypass the encryption);
* client quotas (``kwire.security.request_quotas``): while the quota table is
  non-empty, each request's time on the loop is measured (``perf_counter``
  around decoding and the handler; a waiting handler's coroutine steps through
  ``Timed``) and every response is recorded against the byte-rate, request and
  controller-mutation quotas; the largest throttle goes into its
  ``throttle_time_ms`` and the connection reads nothing more for that long
  (KIP-219). With an empty table it costs one truth test per request;
* a closed connection takes the share sessions it opened with it
  (``SharePartitionManager.connection_closed``, as Kafka's ShareSessionCache
  evicts them): what their members held is released.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import sys
from functools import partial
from time import monotonic, perf_counter
from types import CoroutineType

from kwire.delayed import Later
from kwire.handlers import REGISTRY, RequestContext
from kwire.log.region import PIN_MIN_BYTES
from kwire.protocol import codec, fetch_plain_request, produce_single
from kwire.protocol.connection import Connection, FrameError
from kwire.protocol.errors import CloseConnection
from kwire.protocol.error_response import error_for, error_response
from kwire.protocol.primitives import UUID_CACHE, read_uuid
from kwire.records.scan import produce_frame as _c_produce_frame
from kwire.security.authorizer import cluster_gate
from kwire.security.request_quotas import Timed, throttle_ms as quota_throttle_ms

log = logging.getLogger("kwire.server")

API_VERSIONS_KEY = 18
# regions this large go out with sendfile; the log pins their file (kwire.log.region)
SENDFILE_MIN_BYTES = PIN_MIN_BYTES
# a connection handles frames for at most this long (s) before the loop's other callbacks run
SLICE_S = 0.001
# the single-partition Produce without generated objects (``_produce_single``); KWIRE_FAST_PATHS=0
# takes the generic path for every request (the reference the fast path is tested against)
FAST_PATHS = os.environ.get("KWIRE_FAST_PATHS", "1") != "0"
# the Produce handler's module: loaded at the first Produce (kwire.handlers imports a handler
# at its API's first request), not by this module, so a broker that never serves one lacks it
_PRODUCE = "kwire.handlers.produce"


def _is_awaitable(result, _cache: dict = {}) -> bool:
    """``inspect.isawaitable`` memoized per class (its ABC check costs on every request)."""
    cls = type(result)
    known = _cache.get(cls)
    if known is None:
        known = _cache[cls] = inspect.isawaitable(result)
    return known


class KafkaConnection(asyncio.BufferedProtocol):
    def __init__(self, server, quota_host: str | None = None, listener: str | None = None) -> None:
        self.server = server
        self.listener = listener  # listener name (kwire.security); None: no security checks
        self.session = None  # kwire.security.session.Session once connected on a named listener
        self.tls = False  # a TLS transport: no sendfile
        self._throttled = False  # muted for a client quota's throttle time (KIP-219)
        self._unmute_at = 0.0  # loop time the mute ends
        self.broker = server.broker
        self._pool = server.pool
        self.conn = Connection(server.max_request_bytes, server.pool)
        self.transport: asyncio.Transport | None = None
        self._sock = None  # the transport's socket, for sendfile
        self.peer = ("?", 0)
        self.closed = False
        self.quota_host = quota_host  # counted in server.quotas under this address
        self.last_active = monotonic()
        self._tasks: set[asyncio.Task] = set()
        self._waiting: set[asyncio.Future] = set()  # the futures of parked requests (``Later``)
        self._paused = False  # the transport's write buffer is full
        self._out_of_memory = False  # waiting for the memory pool
        self._reading = True
        self._draining = False  # shutting down: no new request is read
        self._sliced = False  # its slice of the loop is used up: the rest waits for _next_slice
        self.metrics = getattr(server, "metrics", None)  # kwire.metrics.RequestMetrics, None: off
        self._client_quotas = None  # kwire.security.client_quotas.ClientQuotas (with a session)
        # the single-partition Produce without generated objects; a server may turn it off
        self._fast = FAST_PATHS and getattr(server, "fast_paths", True)

    # -- asyncio callbacks -------------------------------------------------------
    def connection_made(self, transport) -> None:
        self.transport = transport
        self._sock = transport.get_extra_info("socket")  # asked once, not per region
        peer = transport.get_extra_info("peername")
        if peer:
            self.peer = (peer[0], peer[1])
        self.server.connections.add(self)
        security = getattr(self.server, "security", None)
        if security is not None and self.listener is not None:
            ssl_object = transport.get_extra_info("ssl_object")
            self.tls = ssl_object is not None
            self._client_quotas = security.client_quotas
            try:
                self.session = security.new_session(self.listener, self.peer[0], ssl_object)
            except ValueError as e:  # no ssl.principal.mapping.rules rule matches the DN
                self.abort(f"no principal for the client certificate: {e}")

    def connection_lost(self, exc) -> None:
        self.closed = True
        server = self.server
        server.connections.discard(self)
        server.memory_waiters.pop(self, None)
        self.conn.close()
        if self.quota_host is not None:
            server.quotas.release(self.quota_host)
            self.quota_host = None
        for t in list(self._tasks):
            t.cancel()
        for f in list(self._waiting):
            f.cancel()
        self.broker.connection_closed(self.peer)

    def pause_writing(self) -> None:
        self._paused = True
        self._update_reading()

    def resume_writing(self) -> None:
        self._paused = False
        self._update_reading()

    def _update_reading(self) -> None:
        want = not (self._paused or self._out_of_memory or self.closed or self._draining or self._throttled
                    or self._sliced)
        if want != self._reading and self.transport is not None:
            self._reading = want
            if want:
                self.transport.resume_reading()
            else:
                self.transport.pause_reading()

    def drain(self) -> None:
        """Shutdown: read no new request; those in flight still get their answers."""
        self._draining = True
        self._update_reading()

    def memory_available(self) -> None:
        """The server's pool has room again: take the frame we were waiting for, read on."""
        self._out_of_memory = False
        if not self.closed:
            self._process()
            self._update_reading()

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.conn.get_buffer(sizehint)

    def buffer_updated(self, nbytes: int) -> None:
        self.conn.buffer_updated(nbytes)
        self.last_active = monotonic()
        self._process()

    def data_received(self, data: bytes) -> None:
        """Feed bytes directly (tests, tools); the event loop uses get_buffer/buffer_updated."""
        self.conn.receive_data(data)
        self.last_active = monotonic()
        self._process()

    def _process(self) -> None:
        conn = self.conn
        release = self._pool.release
        if self._sliced:  # a slice is scheduled: the frames wait for it, in order
            return
        end = perf_counter() + SLICE_S
        try:
            while not self.closed:
                frame = conn.next_frame()
                if frame is None:
                    if conn.blocked:
                        self._out_of_memory = True
                        self.server.wait_for_memory(self)
                        self._update_reading()
                    break
                size = len(frame)
                owned = False
                try:
                    owned = self._dispatch(frame, size)
                finally:
                    if not owned:  # the frame is done with: its pool memory comes back
                        release(size)
                if perf_counter() >= end and self._yield_slice():
                    break
        except FrameError as e:
            self.abort(str(e))
            return
        self._flush()

    def _yield_slice(self) -> bool:
        """The slice is used up: read nothing more and go on after the callbacks queued meanwhile
        (the Fetch answers this slice's appends woke among them). False outside a running loop
        (frames fed directly by a tool): everything is handled at once."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        self._sliced = True
        self._update_reading()
        loop.call_soon(self._next_slice)
        return True

    def _next_slice(self) -> None:
        self._sliced = False
        if not self.closed:
            self._process()
            self._update_reading()

    def close(self) -> None:
        """Close gracefully (idle connection): what is queued is still sent."""
        if not self.closed:
            self.closed = True
            self.transport.close()

    # -- requests ----------------------------------------------------------------
    def abort(self, why: str) -> None:
        if not self.closed:
            log.warning("closing connection from %s:%d: %s", self.peer[0], self.peer[1], why)
            self.closed = True
            self.transport.abort()

    def _dispatch(self, frame: bytearray, size: int) -> bool:
        """Decode and handle one frame; False: the caller returns its pool memory now."""
        metrics = self.metrics
        t0 = monotonic() if metrics is not None else 0.0
        cq = self._client_quotas
        t_quota = perf_counter() if cq is not None and cq.table else 0.0  # request_percentage (KIP-124)
        session = self.session
        if session is not None and session.state != "complete" and session.raw:
            self._raw_sasl_token(session, frame)
            return False
        if self._fast and len(frame) > 12 and frame[1] == 0 and frame[0] == 0 and metrics is None and not t_quota and (
                session is None or not session.sasl and session.manager.authorizer is None) and \
                REGISTRY[0].handle is getattr(sys.modules.get(_PRODUCE), "handle", None):
            # (the handler is imported at the first Produce, which the generic path serves)
            # Produce (key 0) of one partition, or None: one C call, or its Python twin
            single = (_c_produce_frame(frame, UUID_CACHE, read_uuid) if _c_produce_frame is not None
                      else produce_single.decode_frame(frame))
            if single is not None and self._produce_single(single, frame):
                return False
        try:
            header, pos = codec.decode_request_header(frame)
        except (codec.ProtocolDecodeError, codec.UnsupportedVersionError) as e:
            self.abort(f"undecodable request header: {e}")
            return False
        api_key, version = header.request_api_key, header.request_api_version
        entry = REGISTRY.get(api_key)
        if session is not None and session.sasl:
            why = session.check(api_key, entry.name if entry is not None else f"API key {api_key}")
            if why is not None:
                self.abort(why)
                return False
            if api_key == API_VERSIONS_KEY:
                session.after_api_versions()
        if entry is None:
            self.abort(f"unsupported API key {api_key} (correlation id {header.correlation_id})")
            return False
        slot = self.conn.open_slot()
        if not entry.min_version <= version <= entry.max_version:
            if api_key == API_VERSIONS_KEY:
                from kwire.handlers.api_versions import unsupported_version_response

                self.conn.complete(slot, codec.encode_response(api_key, 0, header.correlation_id,
                                                               unsupported_version_response()))
                return False
            self.abort(f"unsupported version {version} of API {entry.name} "
                       f"(supported {entry.min_version}-{entry.max_version})")
            return False
        # a consumer's Fetch v13-16 of the common shape, read without generated objects
        # (kwire.protocol.fetch_plain_request); None: any other, decoded the generic way
        request = fetch_plain_request.decode(frame, pos, version) if api_key == 1 and self._fast \
            else None
        if request is None:
            try:
                request = codec.decode_request(api_key, version, frame, pos)
            except (codec.ProtocolDecodeError, codec.UnsupportedVersionError) as e:
                self.abort(f"undecodable {entry.name} v{version} request: {e}")
                return False
        ctx = RequestContext(self.broker, api_key, version, header.correlation_id,
                             header.client_id, self.peer[0], self.peer[1], session)
        if session is not None and session.manager.authorizer is not None:  # kwire.security
            denied = cluster_gate(ctx, request)
            if denied is not None:
                self._complete(slot, ctx, denied)
                return False
        try:
            result = entry.handle(ctx, request)
        except Exception as e:
            self._failed(slot, ctx, entry, request, e)
            if metrics is not None:
                metrics.request_done(api_key, monotonic() - t0, request, None, True)
            return False
        if result.__class__ is Later and not t_quota:
            # a parked request (long-poll Fetch): answered from its future's done callback,
            # no Task; its pool memory comes back now, as below
            future = result.future
            self._waiting.add(future)
            future.add_done_callback(partial(self._later_done, slot, ctx, entry, request,
                                             result.then, t0))
            return False
        if result.__class__ is CoroutineType or (result is not None and _is_awaitable(result)):
            # The request's pool memory is released now that the handler has returned,
            # not when its answer is ready (as Kafka releases a request's buffer once
            # KafkaApis.handle returns): an acks=all produce waiting for the followers
            # must not hold the pool, or reading stops on every connection, the
            # followers' fetches included, and nothing can complete it.
            spent = 0.0
            if t_quota:
                spent = perf_counter() - t_quota
                result = Timed(result)
            task = asyncio.get_running_loop().create_task(
                self._finish(slot, ctx, entry, request, result, t0, spent))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return False
        self._complete(slot, ctx, result, request, t_quota)
        if metrics is not None:
            metrics.request_done(api_key, monotonic() - t0, request, result)
        return False

    def _produce_single(self, single, frame) -> bool:
        """The single-partition Produce without generated objects (``kwire.protocol.produce_single``,
        ``produce.append_single``); False when the generic path must answer (nothing was done).
        Its slot is opened after the append: nothing else runs in between, so the order holds."""
        version, correlation_id, client_id, acks, _timeout_ms, topic, index, records = single
        _produce = sys.modules[_PRODUCE]  # loaded: its handle is REGISTRY[0]'s (_dispatch)
        try:
            r = _produce.append_single(self.broker, version, acks, topic, index, records)
        except Exception as e:  # as _dispatch answers a handler's failure
            _header, pos = codec.decode_request_header(frame)
            self._failed(self.conn.open_slot(), self._context(correlation_id, client_id, version),
                         REGISTRY[0], codec.decode_request(0, version, frame, pos), e)
            return True
        if r is None:
            return False
        if r.__class__ is not _produce.PartitionProduceResponse:  # the log's AppendResult
            self.conn.complete_next([produce_single.encode_ok(
                version, correlation_id, topic, index, r.base_offset, r.log_append_time,
                r.log_start_offset)])
        else:  # an error answer
            self._complete(self.conn.open_slot(), self._context(correlation_id, client_id, version),
                           _produce.single_response(self.broker, version, topic, r))
        return True

    def _context(self, correlation_id: int, client_id, version: int) -> RequestContext:
        """A Produce's context, for the answers ``_produce_single`` leaves to the generic code."""
        return RequestContext(self.broker, 0, version, correlation_id, client_id,
                              self.peer[0], self.peer[1], self.session)

    def _later_done(self, slot: int, ctx: RequestContext, entry, request, then, t0: float,
                    future) -> None:
        """A ``Later``'s future is done: answer with ``then(result)``, as ``_finish`` would."""
        self._waiting.discard(future)
        if future.cancelled():  # the connection closed
            return
        try:
            result = then(future.result())
        except Exception as e:
            self._answer(slot, ctx, entry, request, t0, None, e)
        else:
            self._answer(slot, ctx, entry, request, t0, result)

    async def _finish(self, slot: int, ctx: RequestContext, entry, request, awaitable,
                      t0: float = 0.0, spent: float = 0.0) -> None:
        """``spent``: the request's time on the loop so far, when ``awaitable`` is ``Timed``."""
        try:
            result = await awaitable
        except asyncio.CancelledError:
            raise
        except Exception as e:
            self._answer(slot, ctx, entry, request, t0, None, e)
        else:
            if awaitable.__class__ is Timed:
                self._answer(slot, ctx, entry, request, t0, result, None, perf_counter(),
                             spent + awaitable.spent)
            else:
                self._answer(slot, ctx, entry, request, t0, result)

    def _answer(self, slot: int, ctx: RequestContext, entry, request, t0: float, result,
                exc: Exception | None = None, t_quota: float = 0.0, spent: float = 0.0) -> None:
        """A waiting handler finished with ``result`` or raised ``exc``: answer, count, flush."""
        metrics = self.metrics
        if exc is not None:
            self._failed(slot, ctx, entry, request, exc)
            if metrics is not None:
                metrics.request_done(ctx.api_key, monotonic() - t0, request, None, True)
        else:
            if not self.closed:
                self._complete(slot, ctx, result, request, t_quota, spent)
            if metrics is not None:
                metrics.request_done(ctx.api_key, monotonic() - t0, request, result)
        if not self.closed:
            self._flush()

    def _failed(self, slot: int, ctx: RequestContext, entry, request, exc: Exception) -> None:
        """A handler raised: answer with the error in every error field, keep the connection."""
        if isinstance(exc, CloseConnection):
            self.abort(str(exc))
            return
        code, message = error_for(exc)
        log.error("%s v%d handler failed (client %s at %s:%d, correlation id %d); answering "
                  "error code %d", entry.name, ctx.api_version, ctx.client_id, ctx.client_host,
                  ctx.client_port, ctx.correlation_id, code, exc_info=exc)
        if ctx.api_key == 0 and getattr(request, "acks", -1) == 0:
            # no response to carry the error: Kafka closes the connection instead
            self.abort(f"acks=0 {entry.name} failed")
            return
        if self.closed:
            return
        try:
            response = error_response(ctx.api_key, ctx.api_version, request, code, message)
        except Exception:
            log.exception("could not build the error response to %s v%d", entry.name, ctx.api_version)
            self.abort(f"internal error in {entry.name}")
            return
        self._complete(slot, ctx, response)

    def _complete(self, slot: int, ctx: RequestContext, response, request=None,
                  t_quota: float = 0.0, spent: float = 0.0) -> None:
        """``t_quota`` (perf_counter) and ``spent`` (s): the request's time on the loop so far."""
        if response is None:
            self.conn.complete(slot, None)
            return
        session = self.session
        cq = self._client_quotas
        if cq is not None and cq.table and request is not None and session is not None:  # client quotas
            cost = perf_counter() - t_quota + spent if t_quota else None
            throttle_ms = quota_throttle_ms(cq, session, ctx, request, response, cost)
            if throttle_ms > 0 and hasattr(response, "throttle_time_ms"):
                response.throttle_time_ms = max(response.throttle_time_ms or 0, throttle_ms)
                self._mute(throttle_ms / 1000)
        try:
            parts = codec.encode_response(ctx.api_key, ctx.api_version, ctx.correlation_id, response)
        except Exception as e:
            if request is None:  # the error response itself: nothing left to answer with
                log.exception("could not encode response to API %d v%d", ctx.api_key, ctx.api_version)
                self.abort("response encoding failed")
                return
            # the handler's response does not fit the version: a handler failure like any other
            self._failed(slot, ctx, REGISTRY[ctx.api_key], request, e)
            return
        self.conn.complete(slot, parts)

    # -- responses -----------------------------------------------------------------
    def _flush(self) -> None:
        if self.closed:
            return
        ready = self.conn.pop_ready()
        if not ready:
            if self.session is not None and self.session.close_after_response is not None:
                self._close_after_auth(self.session)
            return
        out: list = []
        try:
            for parts in ready:
                for part in parts:
                    if isinstance(part, (bytes, bytearray, memoryview)):
                        out.append(part)
                    elif len(part) >= SENDFILE_MIN_BYTES and not self.tls:
                        self._write(out)
                        out = []
                        self._send_region(part)
                    else:
                        out.append(part.read())
            self._write(out)
        except Exception as e:  # part of a response may be on the wire: the stream is broken
            log.exception("%s:%d: sending a response failed", *self.peer)
            self.abort(f"sending a response failed: {e}")
            return
        session = self.session
        if session is not None and session.close_after_response is not None:
            self._close_after_auth(session)

    def _mute(self, seconds: float) -> None:
        """KIP-219: the throttled response goes out now; nothing more is read until the time is up."""
        loop = asyncio.get_running_loop()
        until = loop.time() + seconds
        if self._throttled and until <= self._unmute_at:
            return  # already muted for longer
        self._throttled = True
        self._unmute_at = until
        self._update_reading()

        def unmute() -> None:
            if self._unmute_at > until:
                return  # a later throttle extended the mute; its own timer ends it
            self._throttled = False
            if not self.closed:
                self._update_reading()
        loop.call_at(until, unmute)

    def _close_after_auth(self, session) -> None:
        """Authentication failed or was refused: the answer is queued; read nothing more, close."""
        delay, session.close_after_response = session.close_after_response, None
        self._draining = True  # read no new request
        self._update_reading()
        log.warning("closing connection from %s:%d after a failed or refused SASL exchange on listener %s",
                    self.peer[0], self.peer[1], session.listener)
        if delay > 0:
            asyncio.get_running_loop().call_later(delay, self.close)
        else:
            self.close()

    def _raw_sasl_token(self, session, frame) -> None:
        """SaslHandshake v0 framing: a length-prefixed SASL token, answered the same way."""
        from kwire.security.errors import SaslAuthenticationError

        slot = self.conn.open_slot()
        try:
            out, _ = session.authenticate(bytes(frame))
        except SaslAuthenticationError as e:
            # v0 has no error field: Kafka closes the connection
            self.conn.complete(slot, None)
            log.warning("%s:%d: SASL authentication failed (%s): %s", self.peer[0], self.peer[1],
                        session.mechanism, e.message)
            return
        self.conn.complete(slot, [len(out).to_bytes(4, "big") + out])

    def _write(self, chunks: list) -> None:
        if not chunks:
            return
        self.last_active = monotonic()
        if len(chunks) == 1:
            self.transport.write(chunks[0])
        else:
            self.transport.writelines(chunks)

    def _send_region(self, region) -> None:
        """Send a file region: os.sendfile while the socket takes it, then copy the rest.

        Only when the transport has nothing buffered may bytes go to the socket
        behind its back; otherwise (or once the socket buffer is full) the rest
        is read with pread and queued on the transport, keeping the order.
        """
        sent = 0
        sock = self._sock
        if sock is not None and self.transport.get_write_buffer_size() == 0:
            fd_out, fd_in = sock.fileno(), region.file.fileno()
            try:
                while sent < region.length:
                    n = os.sendfile(fd_out, fd_in, region.position + sent, region.length - sent)
                    if n == 0:
                        break
                    sent += n
            except BlockingIOError:
                pass
            except OSError as e:
                self.abort(f"sendfile failed: {e}")
                return
        if sent < region.length:
            self.transport.write(os.pread(region.file.fileno(), region.length - sent, region.position + sent))
