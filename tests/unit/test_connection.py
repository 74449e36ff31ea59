"""Sans-I/O framing and response ordering (kwire.protocol.connection)."""

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
