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
  UNSUPPORTED_VERSION and the supported ranges, as Kafka does).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
from types import CoroutineType

from kwire.handlers import REGISTRY, RequestContext
from kwire.protocol import codec
from kwire.protocol.connection import Connection, FrameError

log = logging.getLogger("kwire.server")

API_VERSIONS_KEY = 18
SENDFILE_MIN_BYTES = 256 * 1024


def _is_awaitable(result, _cache: dict = {}) -> bool:
    """``inspect.isawaitable`` memoized per class (its ABC check costs on every request)."""
    cls = type(result)
    known = _cache.get(cls)
    if known is None:
        known = _cache[cls] = inspect.isawaitable(result)
    return known


class KafkaConnection(asyncio.BufferedProtocol):
    def __init__(self, server) -> None:
        self.server = server
        self.broker = server.broker
        self.conn = Connection(server.max_request_bytes)
        self.transport: asyncio.Transport | None = None
        self.peer = ("?", 0)
        self.closed = False
        self._tasks: set[asyncio.Task] = set()
        self._paused = False

    # -- asyncio callbacks -------------------------------------------------------
    def connection_made(self, transport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        if peer:
            self.peer = (peer[0], peer[1])
        self.server.connections.add(self)

    def connection_lost(self, exc) -> None:
        self.closed = True
        self.server.connections.discard(self)
        for t in list(self._tasks):
            t.cancel()

    def pause_writing(self) -> None:
        self._paused = True
        self.transport.pause_reading()

    def resume_writing(self) -> None:
        self._paused = False
        if not self.closed:
            self.transport.resume_reading()

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.conn.get_buffer(sizehint)

    def buffer_updated(self, nbytes: int) -> None:
        self.conn.buffer_updated(nbytes)
        self._process()

    def data_received(self, data: bytes) -> None:
        """Feed bytes directly (tests, tools); the event loop uses get_buffer/buffer_updated."""
        self.conn.receive_data(data)
        self._process()

    def _process(self) -> None:
        conn = self.conn
        try:
            while not self.closed:
                frame = conn.next_frame()
                if frame is None:
                    break
                self._dispatch(frame)
        except FrameError as e:
            self.abort(str(e))
            return
        self._flush()

    # -- requests ----------------------------------------------------------------
    def abort(self, why: str) -> None:
        if not self.closed:
            log.warning("closing connection from %s:%d: %s", self.peer[0], self.peer[1], why)
            self.closed = True
            self.transport.abort()

    def _dispatch(self, frame: bytearray) -> None:
        try:
            header, pos = codec.decode_request_header(frame)
        except (codec.ProtocolDecodeError, codec.UnsupportedVersionError) as e:
            self.abort(f"undecodable request header: {e}")
            return
        api_key, version = header.request_api_key, header.request_api_version
        entry = REGISTRY.get(api_key)
        if entry is None:
            self.abort(f"unsupported API key {api_key} (correlation id {header.correlation_id})")
            return
        slot = self.conn.open_slot()
        if not entry.min_version <= version <= entry.max_version:
            if api_key == API_VERSIONS_KEY:
                from kwire.handlers.api_versions import unsupported_version_response

                self.conn.complete(slot, codec.encode_response(api_key, 0, header.correlation_id,
                                                               unsupported_version_response()))
                return
            self.abort(f"unsupported version {version} of API {entry.name} "
                       f"(supported {entry.min_version}-{entry.max_version})")
            return
        try:
            request = codec.decode_request(api_key, version, frame, pos)
        except (codec.ProtocolDecodeError, codec.UnsupportedVersionError) as e:
            self.abort(f"undecodable {entry.name} v{version} request: {e}")
            return
        ctx = RequestContext(self.broker, api_key, version, header.correlation_id,
                             header.client_id, self.peer[0], self.peer[1])
        try:
            result = entry.handle(ctx, request)
        except Exception:
            log.exception("%s v%d handler failed", entry.name, version)
            self.abort(f"internal error in {entry.name}")
            return
        if result.__class__ is CoroutineType or (result is not None and _is_awaitable(result)):
            task = asyncio.get_running_loop().create_task(self._finish(slot, ctx, entry, result))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            self._complete(slot, ctx, result)

    async def _finish(self, slot: int, ctx: RequestContext, entry, awaitable) -> None:
        try:
            result = await awaitable
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s v%d handler failed", entry.name, ctx.api_version)
            self.abort(f"internal error in {entry.name}")
            return
        if not self.closed:
            self._complete(slot, ctx, result)
            self._flush()

    def _complete(self, slot: int, ctx: RequestContext, response) -> None:
        if response is None:
            self.conn.complete(slot, None)
            return
        try:
            parts = codec.encode_response(ctx.api_key, ctx.api_version, ctx.correlation_id, response)
        except Exception:
            log.exception("could not encode response to API %d v%d", ctx.api_key, ctx.api_version)
            self.abort("response encoding failed")
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

    def _write(self, chunks: list) -> None:
        if not chunks:
            return
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
