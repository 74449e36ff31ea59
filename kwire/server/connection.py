"""One client connection on asyncio: bytes in, dispatch, responses out in order.

The protocol object only moves bytes. Framing and response ordering are the
sans-I/O ``kwire.protocol.connection.Connection``; decoding is
``kwire.protocol.codec``; the work is the handler's. What happens here:

* it is an ``asyncio.BufferedProtocol``: the event loop reads into memory the
  ``Connection`` hands out, so a large request (a produce of many batches) is
  read straight into its own frame buffer, which the log then patches and
  writes; no intermediate ``bytes`` objects are made per read;
* every complete frame is decoded and dispatched at once, so pipelined requests
  run concurrently; a handler that waits (long-poll fetch, acks=all) returns a
  coroutine that runs as a task, and its slot keeps later responses queued
  behind it;
* responses are lists of byte chunks and file regions. Chunks are written
  straight to the transport; a large file region is sent with
  ``loop.sendfile`` (zero-copy ``os.sendfile`` on the standard event loop),
  a small one is read with ``os.pread`` and written inline, which costs less
  than a sendfile call for a few KiB. ``os.sendfile`` goes straight to the
  socket only while the transport has nothing buffered, so order is kept; what
  the socket does not take at once is copied onto the transport. This works
  the same on the standard loop and on uvloop (which has no loop.sendfile);
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
  the connection stops reading (``pause_reading``) until a request finishes and
  the server calls ``memory_available``; a frame's share is returned when its
  handler is done (or the connection is lost). Reading is also paused while the
  transport's write buffer is full; it resumes only when neither holds it;
* ``last_active`` (monotonic seconds) moves on every read and write, for the
  server's ``connections.max.idle.ms`` sweep.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
from time import monotonic
from types import CoroutineType

from kwire.handlers import REGISTRY, RequestContext
from kwire.log.region import PIN_MIN_BYTES
from kwire.protocol import codec
from kwire.protocol.connection import Connection, FrameError
from kwire.protocol.error_response import error_for, error_response

log = logging.getLogger("kwire.server")

API_VERSIONS_KEY = 18
# regions this large go out with sendfile; the log pins their file (kwire.log.region)
SENDFILE_MIN_BYTES = PIN_MIN_BYTES


def _is_awaitable(result, _cache: dict = {}) -> bool:
    """``inspect.isawaitable`` memoized per class (its ABC check costs on every request)."""
    cls = type(result)
    known = _cache.get(cls)
    if known is None:
        known = _cache[cls] = inspect.isawaitable(result)
    return known


class KafkaConnection(asyncio.BufferedProtocol):
    def __init__(self, server, quota_host: str | None = None) -> None:
        self.server = server
        self.broker = server.broker
        self._pool = server.pool
        self.conn = Connection(server.max_request_bytes, server.pool)
        self.transport: asyncio.Transport | None = None
        self.peer = ("?", 0)
        self.closed = False
        self.quota_host = quota_host  # counted in server.quotas under this address
        self.last_active = monotonic()
        self._tasks: set[asyncio.Task] = set()
        self._paused = False  # the transport's write buffer is full
        self._out_of_memory = False  # waiting for the memory pool
        self._reading = True

    # -- asyncio callbacks -------------------------------------------------------
    def connection_made(self, transport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        if peer:
            self.peer = (peer[0], peer[1])
        self.server.connections.add(self)

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

    def pause_writing(self) -> None:
        self._paused = True
        self._update_reading()

    def resume_writing(self) -> None:
        self._paused = False
        self._update_reading()

    def _update_reading(self) -> None:
        want = not (self._paused or self._out_of_memory or self.closed)
        if want != self._reading and self.transport is not None:
            self._reading = want
            if want:
                self.transport.resume_reading()
            else:
                self.transport.pause_reading()

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
        except FrameError as e:
            self.abort(str(e))
            return
        self._flush()

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
        """Decode and handle one frame; True if a task now owns its pool memory."""
        try:
            header, pos = codec.decode_request_header(frame)
        except (codec.ProtocolDecodeError, codec.UnsupportedVersionError) as e:
            self.abort(f"undecodable request header: {e}")
            return False
        api_key, version = header.request_api_key, header.request_api_version
        entry = REGISTRY.get(api_key)
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
        try:
            request = codec.decode_request(api_key, version, frame, pos)
        except (codec.ProtocolDecodeError, codec.UnsupportedVersionError) as e:
            self.abort(f"undecodable {entry.name} v{version} request: {e}")
            return False
        ctx = RequestContext(self.broker, api_key, version, header.correlation_id,
                             header.client_id, self.peer[0], self.peer[1])
        try:
            result = entry.handle(ctx, request)
        except Exception as e:
            self._failed(slot, ctx, entry, request, e)
            return False
        if result.__class__ is CoroutineType or (result is not None and _is_awaitable(result)):
            task = asyncio.get_running_loop().create_task(
                self._finish(slot, ctx, entry, request, result, size))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return True
        self._complete(slot, ctx, result, request)
        return False

    async def _finish(self, slot: int, ctx: RequestContext, entry, request, awaitable,
                      size: int) -> None:
        try:
            try:
                result = await awaitable
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._failed(slot, ctx, entry, request, e)
            else:
                if not self.closed:
                    self._complete(slot, ctx, result, request)
        finally:
            self._pool.release(size)
        if not self.closed:
            self._flush()

    def _failed(self, slot: int, ctx: RequestContext, entry, request, exc: Exception) -> None:
        """A handler raised: answer with the error in every error field, keep the connection."""
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

    def _complete(self, slot: int, ctx: RequestContext, response, request=None) -> None:
        if response is None:
            self.conn.complete(slot, None)
            return
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
            return
        out: list = []
        try:
            for parts in ready:
                for part in parts:
                    if isinstance(part, (bytes, bytearray, memoryview)):
                        out.append(part)
                    elif len(part) >= SENDFILE_MIN_BYTES:
                        self._write(out)
                        out = []
                        self._send_region(part)
                    else:
                        out.append(part.read())
            self._write(out)
        except Exception as e:  # part of a response may be on the wire: the stream is broken
            log.exception("%s:%d: sending a response failed", *self.peer)
            self.abort(f"sending a response failed: {e}")

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
        sock = self.transport.get_extra_info("socket")
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
