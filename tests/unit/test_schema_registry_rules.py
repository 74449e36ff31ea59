"""The Schema Registry's compatibility rules and its replayed state, without a broker.

* Avro: Avro's schema-resolution rules (promotions, defaults, aliases, enums,
  unions, fixed, nested and recursive records, named types from references);
* JSON Schema: Confluent's rules (types widen, enums grow, required and
  bounds, open and closed content models);
* Protobuf: Confluent's rules (wire-compatible scalar groups, kind and type
  changes, removed messages, oneofs, package), from .proto text and from a
  base64 FileDescriptorProto;
* ``SchemaRegistry`` on a ``MemoryStore``: ids and versions, idempotence,
  deletes, the id floor that keeps a permanently deleted id from reuse
  across a replay, and replay of the store's log giving the same state.
"""

from __future__ import annotations

import base64
import json

import pytest

from kwire.registry import errors
from kwire.registry import types as t
from kwire.registry.service import SchemaRegistry
from kwire.registry.state import RegistryState
from kwire.registry.store import MemoryStore


def avro(schema, refs=()):
    return t.parse("AVRO", json.dumps(schema), list(refs))


def rec(*fields, name="R", **extra):
    return {"type": "record", "name": name, "fields": list(fields), **extra}


def f(name, type_, **kw):
    return {"name": name, "type": type_, **kw}


@pytest.mark.parametrize("writer,reader,ok", [
    ("int", "long", True), ("int", "double", True), ("long", "int", False), ("float", "double", True),
    ("double", "float", False), ("string", "bytes", True), ("bytes", "string", True),
    ("boolean", "int", False), ("null", "null", True),
])
def test_avro_primitives_and_promotions(writer, reader, ok):
    assert (t.can_read(avro(reader), avro(writer)) == []) is ok


def test_avro_records_unions_enums_fixed():
    v1 = rec(f("a", "int"))
    assert t.can_read(avro(rec(f("a", "int"), f("b", "string", default="x"))), avro(v1)) == []
    assert t.can_read(avro(rec(f("a", "int"), f("b", "string"))), avro(v1))  # no default
    assert t.can_read(avro(rec(f("z", "int", aliases=["a"]))), avro(v1)) == []  # renamed with an alias
    assert t.can_read(avro(rec(f("a", "int"), name="Other")), avro(v1))  # another name
    assert t.can_read(avro(rec(f("a", "int"), name="Other", aliases=["R"])), avro(v1)) == []
    # unions: the reader needs a branch for every writer branch
    assert t.can_read(avro(["null", "long"]), avro("int")) == []
    assert t.can_read(avro("int"), avro(["null", "int"]))
    assert t.can_read(avro(["null", "string", "int"]), avro(["int", "null"])) == []
    enum = {"type": "enum", "name": "E", "symbols": ["A", "B"]}
    assert t.can_read(avro({**enum, "symbols": ["A", "B", "C"]}), avro(enum)) == []
    assert t.can_read(avro({**enum, "symbols": ["A"]}), avro(enum))
    assert t.can_read(avro({**enum, "symbols": ["A"], "default": "A"}), avro(enum)) == []
    fixed = {"type": "fixed", "name": "F", "size": 4}
    assert t.can_read(avro({**fixed, "size": 8}), avro(fixed))
    assert t.can_read(avro({"type": "array", "items": "long"}), avro({"type": "array", "items": "int"})) == []
    assert t.can_read(avro({"type": "map", "values": "int"}), avro({"type": "map", "values": "long"}))


def test_avro_nested_recursive_and_referenced():
    inner1 = rec(f("x", "int"), name="Inner")
    inner2 = rec(f("x", "int"), f("y", "int"), name="Inner")
    assert t.can_read(avro(rec(f("i", inner2))), avro(rec(f("i", inner1))))
    node = rec(f("v", "int"), f("next", ["null", "Node"]), name="Node")
    node2 = rec(f("v", "long"), f("next", ["null", "Node"]), name="Node")
    assert t.can_read(avro(node2), avro(node)) == []
    assert t.can_read(avro(node), avro(node2))
    address = avro(rec(f("city", "string"), name="Address", namespace="a"))
    person = avro(rec(f("home", "a.Address"), name="P"), [("a.Address", address)])
    assert t.can_read(person, person) == []
    with pytest.raises(ValueError):
        avro(rec(f("home", "a.Address"), name="P"))  # the reference is missing


def js(schema):
    return t.parse("JSON", json.dumps(schema), [])


def obj(props, required=(), additional=None):
    s = {"type": "object", "properties": props}
    if required:
        s["required"] = list(required)
    if additional is not None:
        s["additionalProperties"] = additional
    return s


def test_json_schema_rules():
    closed = obj({"a": {"type": "integer"}}, additional=False)
    # BACKWARD = the new schema (reader) accepts what the old one did
    assert t.can_read(js(obj({"a": {"type": "number"}}, additional=False)), js(closed)) == []
    assert t.can_read(js(obj({"a": {"type": "string"}}, additional=False)), js(closed))
    assert t.can_read(js(obj({"a": {"type": ["integer", "null"]}}, additional=False)), js(closed)) == []
    # an optional property added to a closed model is compatible; to an open one it is not
    assert t.can_read(js(obj({"a": {"type": "integer"}, "b": {"type": "string"}}, additional=False)),
                      js(closed)) == []
    open_ = obj({"a": {"type": "integer"}})
    assert t.can_read(js(obj({"a": {"type": "integer"}, "b": {"type": "string"}})), js(open_))
    # removing a property from a closed model is not; from an open one it is
    assert t.can_read(js(obj({}, additional=False)), js(closed))
    assert t.can_read(js(obj({})), js(open_)) == []
    # required, enums, bounds, additionalProperties
    assert t.can_read(js(obj({"a": {"type": "integer"}}, required=["a"])), js(open_))
    assert t.can_read(js({"enum": ["x", "y", "z"]}), js({"enum": ["x", "y"]})) == []
    assert t.can_read(js({"enum": ["x"]}), js({"enum": ["x", "y"]}))
    assert t.can_read(js({"type": "string", "maxLength": 5}), js({"type": "string", "maxLength": 10}))
    assert t.can_read(js({"type": "string", "maxLength": 10}), js({"type": "string", "maxLength": 5})) == []
    assert t.can_read(js({"type": "string", "minLength": 2}), js({"type": "string"}))
    assert t.can_read(js(obj({}, additional=False)), js(obj({})))
    assert t.can_read(js({"type": "array", "items": {"type": "number"}}),
                      js({"type": "array", "items": {"type": "integer"}})) == []
    with pytest.raises(ValueError):
        js({"type": "object", "properties": {"a": {"type": 7}}})


PROTO_V1 = """syntax = "proto3";
package shop;
message Order {
  int32 id = 1;
  string item = 2;
  oneof pay { string card = 3; string cash = 4; }
  Line line = 5;
  message Line { int64 qty = 1; }
}
"""


def pb(text):
    return t.parse("PROTOBUF", text, [])


def test_protobuf_rules():
    v1 = pb(PROTO_V1)
    assert t.can_read(v1, v1) == []
    # adding and removing fields, renaming: compatible
    assert t.can_read(pb(PROTO_V1.replace("  string item = 2;\n", "  string note = 9;\n")), v1) == []
    assert t.can_read(pb(PROTO_V1.replace("string item = 2", "string title = 2")), v1) == []
    # int32 -> int64 is one wire group; int32 -> string is not; string -> bytes is
    assert t.can_read(pb(PROTO_V1.replace("int32 id = 1", "int64 id = 1")), v1) == []
    assert any("FIELD_SCALAR_KIND_CHANGED" in m for m in t.can_read(pb(PROTO_V1.replace("int32 id", "string id")), v1))
    assert t.can_read(pb(PROTO_V1.replace("string item", "bytes item")), v1) == []
    assert any("FIELD_KIND_CHANGED" in m for m in t.can_read(pb(PROTO_V1.replace("Line line = 5", "int32 line = 5")), v1))
    assert any("MESSAGE_REMOVED" in m for m in
               t.can_read(pb(PROTO_V1.replace("  message Line { int64 qty = 1; }\n", "").replace(
                   "Line line = 5", "int32 line = 5")), v1))
    assert any("PACKAGE_CHANGED" in m for m in t.can_read(pb(PROTO_V1.replace("package shop", "package store")), v1))
    moved = PROTO_V1.replace("  string item = 2;\n", "").replace("string cash = 4;", "string cash = 4; string item = 2;")
    assert any("FIELD_MOVED_TO_EXISTING_ONEOF" in m for m in t.can_read(pb(moved), v1))


def test_protobuf_from_a_descriptor():
    from google.protobuf import descriptor_pb2

    fdp = descriptor_pb2.FileDescriptorProto(name="o.proto", package="shop", syntax="proto3")
    m = fdp.message_type.add(name="Order")
    m.field.add(name="id", number=1, type=descriptor_pb2.FieldDescriptorProto.TYPE_INT32)
    m.field.add(name="item", number=2, type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING)
    from_descriptor = pb(base64.b64encode(fdp.SerializeToString()).decode())
    assert from_descriptor.serialized
    text = pb('syntax = "proto3"; package shop; message Order { int64 id = 1; string item = 2; }')
    assert t.can_read(text, from_descriptor) == [] and t.can_read(from_descriptor, text) == []
    with pytest.raises(ValueError):
        pb("bm90IGEgZGVzY3JpcHRvcg")  # base64, but not a descriptor (bad padding)


def test_registry_on_a_memory_store_replays_to_the_same_state():
    store = MemoryStore()
    reg = SchemaRegistry(store)
    reg.set_config(None, {"compatibility": "NONE"})
    a = reg.register("s", {"schema": '"int"'})["id"]
    assert reg.register("s", {"schema": ' "int" '}) == {"id": a}  # canonical text: one id
    b = reg.register("s", {"schema": '"long"'})["id"]
    c = reg.register("t", {"schema": '"string"'})["id"]
    assert (a, b, c) == (1, 2, 3)
    assert reg.register("t2", {"schema": '"long"'})["id"] == b  # one id per schema across subjects
    assert reg.delete_subject("t") == [1]
    assert reg.delete_subject("t", permanent=True) == [1]
    # id 3 (the largest) is gone for good; the floor record keeps it from reuse after a replay
    # replayed whole, and as compaction leaves it (the newest value per key, no tombstones)
    compacted = {k: v for k, v in store.log}
    for log in (store.log, [(k, v) for k, v in compacted.items() if v is not None]):
        replayed = RegistryState()
        for k, v in log:
            replayed.replay(json.loads(k), json.loads(v) if v is not None else None)
        assert replayed.max_id == 3 and 3 not in replayed.schemas
        assert replayed.subjects.keys() == store.state.subjects.keys() == {"s", "t2"}
        assert replayed.config == {None: "NONE"}
    assert 3 not in store.state.schemas
    assert reg.register("u", {"schema": '"double"'})["id"] == 4
    keys = [json.loads(k)["keytype"] for k, _ in store.log]
    assert {"SCHEMA", "CONFIG", "DELETE_SUBJECT", "CLEAR_SUBJECT", "ID_FLOOR"} <= set(keys)
    with pytest.raises(errors.RegistryError) as e:
        reg.get_version("s", "0")
    assert e.value.error_code == 42202


def test_produce_validation_walk():
    """kwire.broker.schema_validation on built batches: plain and compressed, keys and values."""
    from kwire.protocol.errors import ErrorCode
    from kwire.records.builder import build_batch
    from kwire.records.compression import codec_by_name
    from kwire.broker.schema_validation import invalid_records

    known = {7}.__contains__
    good = b"\x00" + (7).to_bytes(4, "big") + b"payload"
    unknown = b"\x00" + (8).to_bytes(4, "big") + b"payload"
    for codec in ("none", "gzip", "zstd"):
        c = codec_by_name(codec)
        ok = build_batch([(None, good), (b"k", good), (b"k", None)], compression=c)
        assert invalid_records(ok, False, True, known) is None
        bad = build_batch([(None, good), (None, b"plain"), (None, unknown), (None, b"\x00\x00")], compression=c)
        code, message, errors = invalid_records(bad, False, True, known)
        assert code == ErrorCode.INVALID_RECORD and [i for i, _ in errors] == [1, 2, 3]
        assert "schema id 8 is not known" in errors[1][1] and "3 record errors" in message
        # keys: the plain key of record 1 is refused, the null key of record 0 passes
        keyed = build_batch([(None, good), (b"plain", good), (good, good)], compression=c)
        assert [i for i, _ in invalid_records(keyed, True, True, known)[2]] == [1]
        assert invalid_records(keyed, False, True, known) is None
    assert invalid_records(build_batch([(None, good)]), False, True, None)[0] == ErrorCode.INVALID_RECORD


def test_protobuf_text_and_descriptor_conversions():
    """.proto text -> FileDescriptorProto loads into a descriptor pool and back to text
    describes the same messages; a descriptor -> text parses back to the same descriptor."""
    from google.protobuf import descriptor_pool, message_factory

    from kwire.registry.types.protobuf import parse

    point = parse('syntax = "proto3"; package geo; message Point { sint32 x = 1; sint32 y = 2; }', [])
    text = """syntax = "proto3";
package geo;
import "geo/point.proto";
message Shape {
  string name = 1;
  repeated Point points = 2;
  map<string, int64> tags = 3;
  oneof fill { string color = 4; bytes pattern = 5; }
  optional Kind kind = 6;
  Inner inner = 7;
  message Inner { double area = 1; }
  enum Kind { KIND_UNKNOWN = 0; KIND_POLYGON = 1; }
}
"""
    shape = parse(text, [("geo/point.proto", point)])
    pool = descriptor_pool.DescriptorPool()
    pool.Add(point.descriptor("geo/point.proto"))
    pool.Add(shape.descriptor("geo/shape.proto"))
    cls = message_factory.GetMessageClass(pool.FindMessageTypeByName("geo.Shape"))
    msg = cls(name="tri", tags={"a": 1}, color="red", kind=1)
    msg.points.add(x=1, y=-2)
    msg.inner.area = 0.5
    assert cls.FromString(msg.SerializeToString()) == msg
    assert msg.HasField("kind")  # proto3 optional: presence kept
    # and back: the descriptor printed as text parses to the same descriptor
    serialized = shape.as_serialized()
    again = parse(serialized, [("geo/point.proto", point)])
    printed = again.as_text()
    assert "map<string, int64> tags = 3;" in printed and "oneof fill {" in printed
    reparsed = parse(printed, [("geo/point.proto", point)])
    a, b = again.descriptor(), reparsed.descriptor("default")
    for d in (a, b):
        d.name = "x"
    assert a == b
    assert t.can_read(reparsed, shape) == [] and t.can_read(shape, reparsed) == []


def test_produce_validation_while_the_registry_loads():
    from kwire.protocol.errors import ErrorCode
    from kwire.records.builder import build_batch
    from kwire.broker.schema_validation import invalid_records

    framed = b"\x00" + (3).to_bytes(4, "big") + b"v"
    code, _, errors = invalid_records(build_batch([(None, framed)]), False, True, lambda sid: None)
    assert code == ErrorCode.REQUEST_TIMED_OUT and errors == []  # retriable: producers try again


def _replay(log):
    st = RegistryState()
    for k, v in log:
        st.replay(k, v)
    return st


def _compact(log):
    """What log compaction may leave: the newest record of each key (tombstones included)."""
    last = {json.dumps(k, sort_keys=True): i for i, (k, _v) in enumerate(log)}
    return [rec for i, rec in enumerate(log) if last[json.dumps(rec[0], sort_keys=True)] == i]


def test_two_writers_first_record_wins_and_the_repair_survives_compaction():
    """Two primaries at once (a leader change) planned against the same end of the log: one gave
    id 1 to schema A as s/1, the other id 1 to schema B as s/1 (same key) and as t/1 (same id,
    another key). The first record in the log wins; the losers are repaired so that what a
    replay gives stays the same after compaction drops the winner's record."""
    from kwire.registry.state import Stored, schema_key, schema_value

    a, b = Stored("AVRO", '"string"'), Stored("AVRO", '"int"')
    log = [(schema_key("s", 1), schema_value("s", 1, 1, a, False)),
           (schema_key("s", 1), schema_value("s", 1, 1, b, False)),   # same key and id, other schema
           (schema_key("s", 1), schema_value("s", 1, 2, b, False)),   # same key, another id
           (schema_key("t", 1), schema_value("t", 1, 1, b, False))]   # same id, another key
    st = _replay(log)
    assert st.schemas[1].schema == '"string"' and st.subjects == {"s": {1: st.subjects["s"][1]}}
    assert st.subjects["s"][1].id == 1 and st.conflicts == 3
    assert st.max_id == 2  # the loser's id is not handed out again either
    assert st.unrepaired == {("s", 1), ("t", 1)}
    # unrepaired, compaction would let a loser win: the bug repairs() exists for
    assert _replay(_compact(log)).subjects["s"][1].id == 2
    repairs = st.repairs()
    assert [(k["subject"], v and v["id"]) for k, v in repairs] == [("s", 1), ("t", None)]
    log += repairs
    st = _replay(log)
    again = _replay(_compact(log))
    assert not st.unrepaired and not again.unrepaired
    for s in (st, again):
        assert {n: {v: x.id for v, x in vs.items()} for n, vs in s.subjects.items()} == {"s": {1: 1}}
        assert s.schemas[1].schema == '"string"'
