"""Sans-I/O state of one Kafka connection: framing in, ordered responses out.

Kafka frames every request and response with a 4-byte big-endian size prefix::

    +----------------+---------------------------------+
    | int32 size (N) | N bytes: header + body           |
    +----------------+---------------------------------+

``Connection`` takes the bytes that arrive (``receive_data``) and hands back
complete request frames (``next_frame``), each as its own ``bytearray`` so a
handler may patch it in place (the produce path writes offsets into the
batches it stores). It also keeps responses in request order: every request
takes a slot when it is read, a response fills its slot whenever it is ready,
and ``pop_ready`` releases the filled slots at the head of the queue. A slot
completed with ``None`` (acks=0 produce) sends nothing.

Two ways to feed it. ``receive_data(bytes)`` appends to an internal buffer.
The buffered pair ``get_buffer()`` / ``buffer_updated(n)`` (what
``asyncio.BufferedProtocol`` calls) lets the socket read straight into memory
the connection owns: a small read lands in a scratch buffer (one per memory
pool, i.e. per server and event loop: the loop consumes it before the next
read) and is appended; once a frame
of ``BIG_FRAME`` bytes or more is announced and not yet complete, a frame
buffer is allocated and the kernel reads the rest of it directly into place.
Small frames are copied out of the buffer (cheap); the buffer is consumed
through a read position and compacted only when it is drained or must grow,
not shifted after every frame.

Memory follows the bytes that arrived, not the size a peer announces. A frame
of up to ``EAGER_FRAME`` (1 MiB, the producer's default ``max.request.size``)
gets its full buffer at once, so normal requests are copied once (socket to
frame). A larger frame starts with ``EAGER_FRAME`` and grows fourfold each time
the buffer fills (straight to the full size once that is at most twice the
next step), copying what it holds: memory is at most 8x what arrived (plus
1 MiB) and the extra copying at most about half the frame. Four bytes
announcing 100 MB cost 1 MiB, not 100 MB.

``MemoryPool`` bounds the bytes of all requests being read and handled
(Kafka's ``queued.max.request.bytes``, KIP-72). A connection takes memory from
it before it allocates or grows a frame buffer and before it hands out a small
frame; the server gives it back when the request is done (``release``). Like
Kafka's non-strict ``SimpleMemoryPool`` an allocation succeeds while the pool is
not exhausted, whatever its size, so one request larger than the pool still
gets through; the frame's own earlier share does not count against its next
growth step (Kafka allocates a frame in one step). When the pool is exhausted
``next_frame`` returns None with ``blocked`` set; the caller stops reading and
calls ``next_frame`` again once memory was released. Bytes already received
for an unfinished small frame are not counted (at most ``BIG_FRAME`` plus one
read per connection).

It does not decode headers, dispatch, or touch sockets: the asyncio layer in
``kwire.server`` moves the bytes. Invariant: frames come out in arrival order;
responses leave in the order of their slots, whatever order they complete in;
every frame ``next_frame`` returns holds ``len(frame)`` bytes of the pool until
the caller releases them, and ``close()`` returns what a half-read frame holds.
"""

from __future__ import annotations

import struct

_SIZE = struct.Struct(">i")


class FrameError(Exception):
    """The peer sent a frame we will not read; the connection must be closed."""


BIG_FRAME = 64 * 1024  # frames at least this large are read in place
EAGER_FRAME = 1024 * 1024  # frames up to this size get their whole buffer at once
READ_CHUNK = 64 * 1024  # scratch buffer handed to the socket between large frames


class MemoryPool:
    """Bytes of requests being read or handled, against a limit (non-strict, as Kafka's).

    ``on_available`` (set by the server) is called when a release brings the
    pool back under its limit while some connection waits for memory. The
    pool also holds the scratch buffer its connections read small pieces into:
    they share one event loop, which consumes a read before it starts the next.
    """

    __slots__ = ("limit", "used", "waiting", "on_available", "scratch")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self.waiting = False
        self.on_available = None
        self.scratch = memoryview(bytearray(READ_CHUNK))

    def release(self, n: int) -> None:
        self.used -= n
        if self.waiting and self.used < self.limit:
            self.waiting = False
            if self.on_available is not None:
                self.on_available()


class Connection:
    __slots__ = ("max_frame_bytes", "pool", "blocked", "_buf", "_pos", "_need", "_big",
                 "_big_got", "_big_need", "_scratch", "_slots", "_next_slot", "_head")

    def __init__(self, max_frame_bytes: int = 104857600, pool: MemoryPool | None = None) -> None:
        self.max_frame_bytes = max_frame_bytes
        self.pool = pool
        self.blocked = False  # waiting for pool memory; call next_frame again after a release
        self._buf = bytearray()  # received bytes not yet framed start at _pos
        self._pos = 0
        self._need = -1  # size of the frame being read, -1 while reading the prefix
        self._big: bytearray | None = None  # a large frame being filled in place
        self._big_got = 0  # bytes of it received
        self._big_need = 0  # its full size; len(_big) is less while it grows
        self._scratch: memoryview | None = pool.scratch if pool is not None else None
        self._slots: dict[int, object] = {}
        self._next_slot = 0
        self._head = 0

    # -- input -----------------------------------------------------------------
    def receive_data(self, data) -> None:
        big = self._big
        if big is None:
            self._buf += data
            return
        got = self._big_got
        n = min(len(big) - got, len(data))
        big[got:got + n] = memoryview(data)[:n]
        self._big_got = got + n
        if n < len(data):
            self._buf += memoryview(data)[n:]

    def get_buffer(self, sizehint: int = -1) -> memoryview:
        """Where the next socket read should go (``asyncio.BufferedProtocol.get_buffer``)."""
        big = self._big
        if big is not None and self._big_got < len(big):
            return memoryview(big)[self._big_got:]
        if self._scratch is None:
            self._scratch = memoryview(bytearray(READ_CHUNK))
        return self._scratch

    def buffer_updated(self, nbytes: int) -> None:
        """``nbytes`` were read into the buffer ``get_buffer`` returned."""
        big = self._big
        if big is not None and self._big_got < len(big):
            self._big_got += nbytes
        else:
            self._buf += self._scratch[:nbytes]

    def _take(self, n: int, own: int = 0) -> bool:
        """Take ``n`` bytes from the pool unless it is exhausted (``own``: held by this frame)."""
        pool = self.pool
        if pool is None:
            return True
        if pool.used - own >= pool.limit:
            self.blocked = pool.waiting = True
            return False
        pool.used += n
        return True

    def next_frame(self) -> bytearray | None:
        """The next complete frame (without its size prefix), or None if more bytes are needed.

        None with ``blocked`` set means the memory pool is exhausted. Raises
        FrameError for a negative size or one above ``max_frame_bytes``
        (Kafka's ``socket.request.max.bytes``): the caller closes the connection.
        """
        self.blocked = False
        big = self._big
        if big is not None:
            while self._big_got == len(big) < self._big_need:
                if not self._grow(big, self._big_need):
                    return None
                big = self._big
            if self._big_got < self._big_need:
                return None
            self._big = None
            return big
        buf = self._buf
        pos = self._pos
        avail = len(buf) - pos
        need = self._need
        if need < 0:
            if avail < 4:
                if pos:  # _compact, without the call when nothing is left (every read's end)
                    self._compact()
                return None
            need = _SIZE.unpack_from(buf, pos)[0]
            if need < 0 or need > self.max_frame_bytes:
                raise FrameError(
                    f"frame size {need} outside 0..{self.max_frame_bytes} (socket.request.max.bytes)"
                )
            pos += 4
            avail -= 4
            self._pos = pos
            self._need = need
        if avail < need:
            if need >= BIG_FRAME:  # read the rest of this frame straight into place
                cap = need if need <= EAGER_FRAME else max(EAGER_FRAME, avail)
                if not self._take(cap):
                    self._compact()
                    return None
                frame = bytearray(cap)
                frame[:avail] = memoryview(buf)[pos:]
                self._big, self._big_got, self._big_need = frame, avail, need
                self._need = -1
                self._buf = bytearray()
                self._pos = 0
            else:
                self._compact()
            return None
        pool = self.pool  # _take, inlined: this is every small request
        if pool is not None:
            if pool.used >= pool.limit:
                self.blocked = pool.waiting = True
                return None
            pool.used += need
        self._need = -1
        if pos == 0 and avail == need:
            self._buf = bytearray()
            return buf
        frame = buf[pos:pos + need]
        pos += need
        if pos == len(buf):
            self._buf = bytearray()
            self._pos = 0
        else:
            self._pos = pos
        return frame

    def _grow(self, big: bytearray, need: int) -> bool:
        """The partial frame buffer is full: move it to one four times larger (or full size).

        Bytes that arrived meanwhile through the small-read path (``receive_data``,
        or a read while the buffer was full) move along into it.
        """
        cap = len(big)
        new = min(need, 4 * cap)
        if 2 * new >= need:
            new = need
        if not self._take(new - cap, own=cap):
            return False
        grown = bytearray(new)
        grown[:cap] = big
        got = cap
        buf, pos = self._buf, self._pos
        extra = len(buf) - pos
        if extra:
            n = min(extra, new - cap)
            grown[cap:cap + n] = memoryview(buf)[pos:pos + n]
            got += n
            pos += n
            if pos == len(buf):
                self._buf = bytearray()
                self._pos = 0
            else:
                self._pos = pos
        self._big, self._big_got = grown, got
        return True

    def _compact(self) -> None:
        if self._pos:
            del self._buf[:self._pos]
            self._pos = 0

    def close(self) -> None:
        """Return the pool memory of a half-read frame (the connection is going away)."""
        if self._big is not None:
            if self.pool is not None:
                self.pool.release(len(self._big))
            self._big = None

    @property
    def buffered(self) -> int:
        """Bytes received and not yet returned as frames (prefixes of partial frames excluded)."""
        if self._big is not None:
            return self._big_got
        return len(self._buf) - self._pos

    # -- output ordering -------------------------------------------------------
    def open_slot(self) -> int:
        slot = self._next_slot
        self._next_slot += 1
        return slot

    def complete(self, slot: int, response) -> None:
        """Fill a slot; ``response`` is a list of parts, or None to send nothing."""
        self._slots[slot] = response

    def complete_next(self, response) -> None:
        """``complete(open_slot(), response)`` in one call: an answer ready as its request is read."""
        slot = self._next_slot
        self._next_slot = slot + 1
        self._slots[slot] = response

    @property
    def pending(self) -> int:
        """Slots opened whose response has not been released yet."""
        return self._next_slot - self._head

    def pop_ready(self) -> list:
        """Responses that may be sent now, in request order (None entries skipped)."""
        out = []
        slots = self._slots
        while self._head in slots:
            response = slots.pop(self._head)
            self._head += 1
            if response is not None:
                out.append(response)
        return out


__all__ = ["BIG_FRAME", "EAGER_FRAME", "Connection", "FrameError", "MemoryPool"]
