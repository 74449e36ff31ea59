"""Hypothesis strategies for generated message objects, derived from the spec model.

Shared by the codec test modules (imported as ``test_codec_strategies``);
the tests at the bottom only check the strategies themselves.

``message_strategy(msg, v)`` draws objects valid for version ``v``: fields
absent from ``v`` keep their defaults, nullable fields are sometimes None,
flexible structs sometimes carry unknown tagged fields (with tags that ``v``
does not know).
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from hypothesis import given, settings, strategies as st

from kwire.codegen.model import INT_RANGES, Field, Message, Struct, broker_api_pairs, load_all
from kwire.protocol.primitives import ZERO_UUID

MESSAGES = load_all()
PAIRS = broker_api_pairs(MESSAGES)


def module_of(msg: Message):
    return importlib.import_module(f"kwire.protocol.generated.{msg.module_name}")


# "Tame" values for libraries that give fields semantic types (kio turns
# error codes into an enum and timestamps/durations into datetime objects).
_TAME_ERROR_CODES = (0, 1, 3, 6, 7)


def _prim(t: str, compact: bool, tame: bool = False, name: str = ""):
    if tame and name.endswith("ErrorCode") and t == "int16":
        return st.sampled_from(_TAME_ERROR_CODES)
    if tame and t in INT_RANGES:
        return st.integers(0, 100)
    if t in INT_RANGES:
        lo, hi = INT_RANGES[t]
        return st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, -1 if lo < 0 else 0, 0]))
    if t == "bool":
        return st.booleans()
    if t == "float64":
        return st.floats(allow_nan=False)
    if t == "string":
        return st.text(max_size=8)
    if t in ("bytes", "records"):
        return st.binary(max_size=12)
    if t == "uuid":
        return st.one_of(st.just(ZERO_UUID), st.uuids())
    raise ValueError(t)


@lru_cache(maxsize=None)
def struct_strategy(msg_name: str, struct_name: str, v: int, unknown_tags: bool = True,
                    tame: bool = False):
    msg = MESSAGES[msg_name]
    st_ = msg.root if struct_name == msg.root.name else msg.structs[struct_name]
    return _struct_strategy(msg, st_, v, unknown_tags, tame)


def _field_strategy(msg: Message, f: Field, v: int, unknown_tags: bool, tame: bool):
    flex = msg.flexible(v)
    compact = f.compact(v, flex)
    if f.is_struct_array or f.is_struct:
        inner = struct_strategy(msg.name, f.struct.name, v, unknown_tags, tame)
    else:
        inner = _prim(f.elem_type, compact, tame, f.name)
    s = st.lists(inner, max_size=3) if f.is_array else inner
    if f.nullable(v):
        s = st.one_of(st.none(), s)
    return s


def _struct_strategy(msg: Message, struct: Struct, v: int, unknown_tags: bool, tame: bool):
    mod = module_of(msg)
    cls = getattr(mod, struct.name)
    kwargs = {}
    known_tags = set()
    flex = msg.flexible(v)
    for f in struct.fields:
        if not f.present(v):
            continue
        if flex and f.tagged(v):
            known_tags.add(f.tag)
        kwargs[f.attr] = st.deferred(lambda f=f: _field_strategy(msg, f, v, unknown_tags, tame))
    if flex and unknown_tags:
        kwargs["unknown_tagged_fields"] = st.dictionaries(
            st.integers(0, 300).filter(lambda t: t not in known_tags), st.binary(max_size=6), max_size=2)
    return st.fixed_dictionaries(kwargs).map(lambda kw: cls(**kw))


def message_strategy(msg: Message, v: int, unknown_tags: bool = True, tame: bool = False):
    return struct_strategy(msg.name, msg.root.name, v, unknown_tags, tame)


# -- self-checks -------------------------------------------------------------------

def test_pairs_cover_broker_apis():
    assert len(PAIRS) >= 70
    assert {req.api_key for req, _ in PAIRS} >= {0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 18, 19, 20}


@settings(max_examples=10, deadline=None)
@given(st.data())
def test_strategy_respects_versions(data):
    msg = MESSAGES["FetchResponse"]
    obj = data.draw(message_strategy(msg, 12))
    assert obj.node_endpoints == []  # NodeEndpoints only exists from v16
