"""Hypothesis strategies for generated message objects, derived from the spec model.

Shared by the codec test modules (imported as ``test_codec_strategies``);
the tests at the bottom only check the strategies themselves.

``message_strategy(msg, v)`` draws objects valid for version ``v``: fields
absent from ``v`` keep their defaults, nullable fields are sometimes None,
flexible structs sometimes carry unknown tagged fields (with tags that ``v``
does not know).

``all_versions_strategy(msg)`` draws one object for every version at once (each field that
any version has; None wherever some version allows it; unknown tags that no version knows),
and ``at_version(msg, obj, v)`` projects it onto version ``v`` exactly as ``message_strategy``
would have drawn it: fields absent from ``v`` get their defaults, a None that ``v`` does not allow
becomes an empty value, unknown tags go where ``v`` is not flexible. The codec tests draw once per
message and check every version of it (``naming_version`` names the version in a failure): a
draw costs milliseconds of Hypothesis bookkeeping, the codec microseconds.
"""

from __future__ import annotations

import importlib
from contextlib import contextmanager
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
def struct_strategy(msg_name: str, struct_name: str, unknown_tags: bool = True,
                    tame: bool = False):
    """Objects of one struct of ``msg_name`` with the fields of every version (the union)."""
    msg = MESSAGES[msg_name]
    st_ = msg.root if struct_name == msg.root.name else msg.structs[struct_name]
    return _struct_strategy(msg, st_, unknown_tags, tame)


def _in_some_version(msg: Message, pred) -> bool:
    return any(pred(v) for v in msg.versions)


def _field_strategy(msg: Message, f: Field, unknown_tags: bool, tame: bool):
    if f.is_struct_array or f.is_struct:
        inner = struct_strategy(msg.name, f.struct.name, unknown_tags, tame)
    else:
        inner = _prim(f.elem_type, False, tame, f.name)
    s = st.lists(inner, max_size=3) if f.is_array else inner
    if _in_some_version(msg, lambda v: f.present(v) and f.nullable(v)):
        s = st.one_of(st.none(), s)
    return s


def _struct_strategy(msg: Message, struct: Struct, unknown_tags: bool, tame: bool):
    cls = getattr(module_of(msg), struct.name)
    kwargs = {}
    known_tags = {f.tag for f in struct.fields if f.tag is not None}
    for f in struct.fields:
        if _in_some_version(msg, f.present):
            kwargs[f.attr] = _field_strategy(msg, f, unknown_tags, tame)
    if unknown_tags and _in_some_version(msg, msg.flexible):
        kwargs["unknown_tagged_fields"] = st.dictionaries(
            st.integers(0, 300).filter(lambda t: t not in known_tags), st.binary(max_size=6), max_size=2)
    return st.fixed_dictionaries(kwargs).map(lambda kw: cls(**kw))


def all_versions_strategy(msg: Message, unknown_tags: bool = True, tame: bool = False):
    """Objects of ``msg`` for every version at once: project each with ``at_version``."""
    return struct_strategy(msg.name, msg.root.name, unknown_tags, tame)


def _empty(msg: Message, f: Field, v: int):
    """A value for field ``f`` where ``v`` does not allow the None another version allows."""
    if f.is_array:
        return []
    if f.is_struct:
        return _project(msg, f.struct, getattr(module_of(msg), f.struct.name)(), v)
    return {"string": "", "bytes": b"", "records": b"", "uuid": ZERO_UUID}.get(f.type, 0)


def _project(msg: Message, struct: Struct, obj, v: int):
    kwargs = {}
    for f in struct.fields:
        if not f.present(v):
            continue
        val = getattr(obj, f.attr)
        if val is None:
            if not f.nullable(v):
                val = _empty(msg, f, v)
        elif f.is_struct:
            val = _project(msg, f.struct, val, v)
        elif f.is_struct_array:
            val = [_project(msg, f.struct, x, v) for x in val]
        kwargs[f.attr] = val
    if msg.flexible(v):
        kwargs["unknown_tagged_fields"] = dict(obj.unknown_tagged_fields)
    return type(obj)(**kwargs)


def at_version(msg: Message, obj, v: int):
    """``obj`` (from ``all_versions_strategy``) as version ``v`` of ``msg`` has it."""
    return _project(msg, msg.root, obj, v)


def message_strategy(msg: Message, v: int, unknown_tags: bool = True, tame: bool = False):
    return all_versions_strategy(msg, unknown_tags, tame).map(lambda obj: at_version(msg, obj, v))


@contextmanager
def naming_version(msg: Message, v: int):
    """A failure inside says which message and version it was (one test checks them all)."""
    try:
        yield
    except Exception as e:
        e.add_note(f"-- while checking {msg.name} version {v}")
        raise


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


@settings(max_examples=10, deadline=None)
@given(all_versions_strategy(MESSAGES["FetchRequest"]))
def test_projection_keeps_each_versions_own_fields(obj):
    # ReplicaId is in v0-14 only, ReplicaState from v15: one draw serves both
    msg = MESSAGES["FetchRequest"]
    old, new = at_version(msg, obj, 14), at_version(msg, obj, 15)
    assert old.replica_id == obj.replica_id and new.replica_id == -1
    assert new.replica_state == obj.replica_state
    assert old.rack_id == obj.rack_id and at_version(msg, obj, 10).rack_id == ""  # rack from v11
    assert at_version(msg, obj, 11).unknown_tagged_fields == {}  # flexible from v12
    assert new.unknown_tagged_fields == obj.unknown_tagged_fields


def test_projection_fills_a_null_the_version_forbids():
    msg = MESSAGES["MetadataRequest"]  # Topics: nullable from v1 only
    obj = module_of(msg).MetadataRequest(topics=None)
    assert at_version(msg, obj, 0).topics == [] and at_version(msg, obj, 1).topics is None


def test_a_failure_names_the_version():
    msg = MESSAGES["FetchRequest"]
    try:
        with naming_version(msg, 7):
            raise AssertionError("differs")
    except AssertionError as e:
        assert e.__notes__ == ["-- while checking FetchRequest version 7"]
    else:
        raise AssertionError("naming_version swallowed the failure")
