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
the connection owns: a small read lands in a reusable scratch buffer and is
appended; once a frame of ``BIG_FRAME`` bytes or more is announced and not yet
complete, the frame's own ``bytearray`` is allocated and the kernel reads the
rest of it directly into place, so a large produce request is copied once
(socket to frame) instead of three times. Small frames are copied out of the
buffer (cheap); the buffer is consumed through a read position and compacted
only when it is drained or must grow, not shifted after every frame.

It does not decode headers, dispatch, or touch sockets: the asyncio layer in
``kwire.server`` moves the bytes. Invariant: frames come out in arrival order;
responses leave in the order of their slots, whatever order they complete in.
"""

from __future__ import annotations

import struct

_SIZE = struct.Struct(">i")


class FrameError(Exception):
    """The peer sent a frame we will not read; the connection must be closed."""


BIG_FRAME = 64 * 1024  # frames at least this large are read in place
READ_CHUNK = 64 * 1024  # scratch buffer handed to the socket between large frames


class Connection:
    __slots__ = ("max_frame_bytes", "_buf", "_pos", "_need", "_big", "_big_got", "_scratch",
                 "_slots", "_next_slot", "_head")

    def __init__(self, max_frame_bytes: int = 104857600) -> None:
        self.max_frame_bytes = max_frame_bytes
        self._buf = bytearray()  # received bytes not yet framed start at _pos
        self._pos = 0
        self._need = -1  # size of the frame being read, -1 while reading the prefix
        self._big: bytearray | None = None  # a large frame being filled in place
        self._big_got = 0
        self._scratch: memoryview | None = None
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

    def next_frame(self) -> bytearray | None:
        """The next complete frame (without its size prefix), or None if more bytes are needed.

        Raises FrameError for a negative size or one above ``max_frame_bytes``
        (Kafka's ``socket.request.max.bytes``): the caller closes the connection.
        """
        big = self._big
        if big is not None:
            if self._big_got < len(big):
                return None
            self._big = None
            return big
        buf = self._buf
        pos = self._pos
        avail = len(buf) - pos
        need = self._need
        if need < 0:
            if avail < 4:
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
                frame = bytearray(need)
                frame[:avail] = memoryview(buf)[pos:]
                self._big, self._big_got = frame, avail
                self._need = -1
                self._buf = bytearray()
                self._pos = 0
            else:
                self._compact()
            return None
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

    def _compact(self) -> None:
        if self._pos:
            del self._buf[:self._pos]
            self._pos = 0

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


__all__ = ["BIG_FRAME", "Connection", "FrameError"]
