"""Byte-level mutations for fuzz tests of record batches (unit and integration).

``mutation_ops()`` is the Hypothesis strategy of edit lists and ``mutate(buf,
ops)`` applies one: each op is ``(kind, where, byte)`` with kind 0 flip bits
(XOR ``byte``, at least 1), 1 insert ``byte``, 2 delete one byte, 3 truncate;
``where`` is taken modulo the current length, so every op applies to any
buffer. Callers recompute framing and CRC themselves where they want the
damage to reach past the batch header.
"""

from __future__ import annotations

from hypothesis import strategies as st


def mutation_ops(max_where: int, max_size: int = 4):
    """Lists of 1 to ``max_size`` ops with positions up to ``max_where``."""
    return st.lists(st.tuples(st.integers(0, 3), st.integers(0, max_where), st.integers(0, 255)),
                    min_size=1, max_size=max_size)


def mutate(buf: bytes, ops) -> bytes:
    out = bytearray(buf)
    for kind, where, byte in ops:
        i = where % (len(out) + 1)
        if kind == 0 and out:
            out[i % len(out)] ^= byte or 1
        elif kind == 1:
            out.insert(i, byte)
        elif kind == 2 and out:
            del out[i % len(out)]
        elif kind == 3:
            del out[i:]
    return bytes(out)
