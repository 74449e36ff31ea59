"""Sans-I/O framing, response ordering and request memory (kwire.protocol.connection)."""

import struct

import pytest
from hypothesis import given, strategies as st

from kwire.protocol.connection import Connection, FrameError


def frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


@given(st.lists(st.binary(max_size=300), max_size=20), st.data())
def test_frames_survive_any_split(payloads, data):
    wire = b"".join(frame(p) for p in payloads)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=10)))
    conn = Connection()
    got, prev = [], 0
    for cut in cuts + [len(wire)]:
        conn.receive_data(wire[prev:cut])
        prev = cut
        while (f := conn.next_frame()) is not None:
            got.append(bytes(f))
    assert got == payloads
    assert conn.buffered == 0


def test_frames_are_writable_copies():
    conn = Connection()
    conn.receive_data(frame(b"abc") + frame(b"defg"))
    a, b = conn.next_frame(), conn.next_frame()
    a[0] = ord("x")
    assert (bytes(a), bytes(b)) == (b"xbc", b"defg")


@pytest.mark.parametrize("size", [-1, 101, 2**31 - 1])
def test_oversized_or_negative_frame_is_refused(size):
    conn = Connection(max_frame_bytes=100)
    conn.receive_data(struct.pack(">i", size) + b"x")
    with pytest.raises(FrameError):
        conn.next_frame()


def test_frame_at_limit_is_accepted():
    conn = Connection(max_frame_bytes=100)
    conn.receive_data(frame(b"y" * 100))
    assert len(conn.next_frame()) == 100


def test_responses_leave_in_request_order():
    conn = Connection()
    s0, s1, s2, s3 = (conn.open_slot() for _ in range(4))
    conn.complete(s2, ["two"])
    conn.complete(s1, None)  # acks=0: nothing to send
    assert conn.pop_ready() == []  # slot 0 still waiting
    conn.complete(s0, ["zero"])
    assert conn.pop_ready() == [["zero"], ["two"]]
    assert conn.pending == 1
    conn.complete(s3, ["three"])
    assert conn.pop_ready() == [["three"]]
    assert conn.pending == 0


@given(st.lists(st.binary(max_size=200), max_size=15), st.data())
def test_buffered_protocol_path_with_large_frames_in_place(payloads, data):
    """get_buffer/buffer_updated (BufferedProtocol) mixed with receive_data, big-frame path forced."""
    import kwire.protocol.connection as mod

    wire = b"".join(frame(p) for p in payloads)
    old = mod.BIG_FRAME
    mod.BIG_FRAME = data.draw(st.sampled_from([1, 8, 64]))
    try:
        conn = Connection()
        got, pos = [], 0
        while pos < len(wire):
            step = data.draw(st.integers(1, 97))
            if data.draw(st.booleans()):
                buf = conn.get_buffer()
                n = min(step, len(buf), len(wire) - pos)
                buf[:n] = wire[pos:pos + n]
                conn.buffer_updated(n)
            else:
                n = min(step, len(wire) - pos)
                conn.receive_data(wire[pos:pos + n])
            pos += n
            while (f := conn.next_frame()) is not None:
                got.append(bytes(f))
        assert got == payloads
        assert conn.buffered == 0
    finally:
        mod.BIG_FRAME = old


# -- memory: buffers follow the bytes that arrived; the pool bounds them ---------------

def _feed_buffered(conn, data: bytes, step: int = 1 << 20) -> list[bytes]:
    """Feed through get_buffer/buffer_updated (as the event loop does); frames out."""
    got, pos = [], 0
    while pos < len(data):
        buf = conn.get_buffer()
        n = min(step, len(buf), len(data) - pos)
        buf[:n] = data[pos:pos + n]
        conn.buffer_updated(n)
        pos += n
        while (f := conn.next_frame()) is not None:
            got.append(bytes(f))
    return got


def test_announced_size_does_not_allocate_the_frame():
    """Four bytes announcing 100 MB hold 1 MiB (EAGER_FRAME), not 100 MB."""
    import kwire.protocol.connection as mod

    conn = Connection()
    conn.receive_data(struct.pack(">i", 100_000_000) + b"x")
    assert conn.next_frame() is None
    assert len(conn._big) == mod.EAGER_FRAME
    assert len(conn.get_buffer()) == mod.EAGER_FRAME - 1


@pytest.mark.parametrize("size", [65536, 1 << 20, (1 << 20) + 1, 5_000_000, 17_000_000])
def test_large_frames_grow_and_arrive_whole(size):
    payload = bytes(range(256)) * (size // 256) + b"z" * (size % 256)
    conn = Connection(max_frame_bytes=1 << 26)
    caps = []
    got, pos, wire = [], 0, frame(payload) + frame(b"next")
    while pos < len(wire):
        buf = conn.get_buffer()
        n = min(300_000, len(buf), len(wire) - pos)
        buf[:n] = wire[pos:pos + n]
        conn.buffer_updated(n)
        pos += n
        while (f := conn.next_frame()) is not None:
            got.append(bytes(f))
        if conn._big is not None:
            caps.append(len(conn._big))
            assert len(conn._big) <= max(8 * conn._big_got, 1 << 20)  # bounded by what arrived
    assert got == [payload, b"next"]
    assert caps == sorted(caps) and (not caps or caps[-1] == size)
    if size <= (1 << 20):  # normal-sized: one buffer, the socket reads straight into it
        assert set(caps) == {size}


def test_pool_blocks_then_resumes():
    from kwire.protocol.connection import MemoryPool

    pool = MemoryPool(100)
    woken = []
    pool.on_available = lambda: woken.append(True)
    a, b = Connection(pool=pool), Connection(pool=pool)
    a.receive_data(frame(b"x" * 80))
    fa = a.next_frame()
    assert len(fa) == 80 and pool.used == 80
    b.receive_data(frame(b"y" * 30) + frame(b"z" * 5))
    fb = b.next_frame()
    assert len(fb) == 30 and pool.used == 110  # non-strict: allowed while under the limit
    assert b.next_frame() is None and b.blocked  # exhausted: the next frame waits
    pool.release(80)
    assert woken == [True]
    assert bytes(b.next_frame()) == b"z" * 5 and not b.blocked
    assert pool.used == 35


def test_one_request_larger_than_the_pool_gets_through():
    """A frame grows even though its own earlier share already fills the pool."""
    from kwire.protocol.connection import MemoryPool

    pool = MemoryPool(1000)
    conn = Connection(max_frame_bytes=1 << 24, pool=pool)
    payload = b"p" * 3_000_000
    assert _feed_buffered(conn, frame(payload), step=200_000) == [payload]
    assert pool.used == len(payload)
    pool.release(len(payload))
    assert pool.used == 0


def test_big_frame_waits_for_pool_and_close_returns_its_share():
    from kwire.protocol.connection import MemoryPool

    pool = MemoryPool(1000)
    pool.used = 1000  # someone else holds it all
    conn = Connection(pool=pool)
    conn.receive_data(struct.pack(">i", 200_000) + b"a" * 10)
    assert conn.next_frame() is None and conn.blocked and conn._big is None
    pool.release(1)
    assert conn.next_frame() is None and not conn.blocked
    assert len(conn._big) == 200_000 and pool.used == 999 + 200_000
    conn.close()
    assert pool.used == 999
