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

It does not decode headers, dispatch, or touch sockets: the asyncio layer in
``kwire.server`` moves the bytes. Invariant: frames come out in arrival order;
responses leave in the order of their slots, whatever order they complete in.
"""

from __future__ import annotations

import struct

_SIZE = struct.Struct(">i")


class FrameError(Exception):
    """The peer sent a frame we will not read; the connection must be closed."""


class Connection:
    __slots__ = ("max_frame_bytes", "_buf", "_need", "_slots", "_next_slot", "_head")

    def __init__(self, max_frame_bytes: int = 104857600) -> None:
        self.max_frame_bytes = max_frame_bytes
        self._buf = bytearray()
        self._need = -1  # size of the frame being read, -1 while reading the prefix
        self._slots: dict[int, object] = {}
        self._next_slot = 0
        self._head = 0

    # -- input -----------------------------------------------------------------
    def receive_data(self, data) -> None:
        self._buf += data

    def next_frame(self) -> bytearray | None:
        """The next complete frame (without its size prefix), or None if more bytes are needed.

        Raises FrameError for a negative size or one above ``max_frame_bytes``
        (Kafka's ``socket.request.max.bytes``): the caller closes the connection.
        """
        buf = self._buf
        if self._need < 0:
            if len(buf) < 4:
                return None
            size = _SIZE.unpack_from(buf, 0)[0]
            if size < 0 or size > self.max_frame_bytes:
                raise FrameError(
                    f"frame size {size} outside 0..{self.max_frame_bytes} (socket.request.max.bytes)"
                )
            self._need = size
            del buf[:4]
        if len(buf) < self._need:
            return None
        need = self._need
        self._need = -1
        if len(buf) == need:
            self._buf = bytearray()
            return buf
        frame = buf[:need]
        del buf[:need]
        return frame

    @property
    def buffered(self) -> int:
        return len(self._buf)

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


__all__ = ["Connection", "FrameError"]
