"""The built-in Schema Registry (issue 25) with confluent-kafka's SchemaRegistryClient and serializers.

* Avro, JSON Schema and Protobuf values serialized by confluent-kafka's
  serializers (which register their schemas), produced to a kwire topic,
  consumed and deserialized (which fetches the schema by id);
* references: an Avro record using a type of another subject, a Protobuf file
  importing another (the serializer registers the import as a reference);
* register is idempotent, one id per schema across subjects, lookup, versions,
  soft / hard deletes and ``deleted=true`` listings, config and mode;
* a broker restart keeps every schema, id and config, and a new schema after it
  gets a new id;
* bad input answers Confluent's error codes and stores nothing.
"""

from __future__ import annotations

import json
import time

import pytest
import requests
from confluent_kafka import Consumer, Producer
from confluent_kafka.schema_registry import Schema, SchemaReference, SchemaRegistryClient
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer
from confluent_kafka.schema_registry.error import SchemaRegistryError
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

pytestmark = pytest.mark.timeout(120)

USER_V1 = {"type": "record", "name": "User", "namespace": "kwire.test",
           "fields": [{"name": "name", "type": "string"}, {"name": "age", "type": "int"}]}
USER_V2 = {**USER_V1, "fields": USER_V1["fields"] + [{"name": "email", "type": ["null", "string"],
                                                        "default": None}]}


def client(broker) -> SchemaRegistryClient:
    return SchemaRegistryClient({"url": broker.schema_registry_url})


def roundtrip(broker, topic: str, serializer, deserializer, values: list) -> list:
    broker.create_topic(topic)
    p = Producer({"bootstrap.servers": broker.bootstrap})
    for v in values:
        p.produce(topic, value=serializer(v, SerializationContext(topic, MessageField.VALUE)))
    assert p.flush(30) == 0
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": "g-" + topic,
                  "auto.offset.reset": "earliest"})
    c.subscribe([topic])
    out = []
    try:
        while len(out) < len(values):
            m = c.poll(30)
            assert m is not None, f"only {len(out)} of {len(values)} records consumed"
            assert m.error() is None, m.error()
            raw = m.value()
            assert raw[0] == 0  # Confluent's wire format: magic byte, then the 4-byte schema id
            out.append(deserializer(raw, SerializationContext(topic, MessageField.VALUE)))
    finally:
        c.close()
    return out


def test_avro_end_to_end_and_evolution(kwire_broker):
    sr = client(kwire_broker)
    ser1 = AvroSerializer(sr, json.dumps(USER_V1))
    de = AvroDeserializer(sr)
    got = roundtrip(kwire_broker, "users", ser1, de, [{"name": "ann", "age": 3}, {"name": "bo", "age": 4}])
    assert got == [{"name": "ann", "age": 3}, {"name": "bo", "age": 4}]
    latest = sr.get_latest_version("users-value")
    assert latest.version == 1 and json.loads(latest.schema.schema_str) == USER_V1
    # BACKWARD (default): an optional field with a default is accepted, a required one refused
    ser2 = AvroSerializer(sr, json.dumps(USER_V2))
    got = roundtrip(kwire_broker, "users2", ser2, de, [{"name": "cy", "age": 5, "email": "c@x"}])
    assert got == [{"name": "cy", "age": 5, "email": "c@x"}]
    bad = {**USER_V1, "fields": USER_V1["fields"] + [{"name": "score", "type": "double"}]}
    with pytest.raises(SchemaRegistryError) as e:
        sr.register_schema("users-value", Schema(json.dumps(bad), "AVRO"))
    assert e.value.http_status_code == 409 and e.value.error_code == 409
    assert sr.get_versions("users-value") == [1]


def test_json_and_protobuf_end_to_end(kwire_broker):
    sr = client(kwire_broker)
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Order", "type": "object",
              "properties": {"id": {"type": "integer"}, "item": {"type": "string"}},
              "required": ["id"]}
    ser = JSONSerializer(json.dumps(schema), sr)
    de = JSONDeserializer(json.dumps(schema), schema_registry_client=sr)
    assert roundtrip(kwire_broker, "orders", ser, de, [{"id": 1, "item": "tea"}]) == [{"id": 1, "item": "tea"}]
    assert sr.get_latest_version("orders-value").schema.schema_type == "JSON"
    with pytest.raises(Exception):  # the serializer validates against the schema
        ser({"item": "no id"}, SerializationContext("orders", MessageField.VALUE))

    Point, Line = _proto_classes()
    pser = ProtobufSerializer(Line, sr, {"use.deprecated.format": False})
    pde = ProtobufDeserializer(Line, {"use.deprecated.format": False})
    line = Line(start=Point(x=1, y=2), end=Point(x=3, y=4), name="diag")
    got = roundtrip(kwire_broker, "lines", pser, pde, [line])
    assert got[0] == line
    # the import was registered as its own subject and referenced by the file that uses it
    latest = sr.get_latest_version("lines-value")
    assert latest.schema.schema_type == "PROTOBUF"
    assert [(r.name, r.subject) for r in latest.schema.references] == [("kwire/point.proto", "kwire/point.proto")]
    assert "kwire/point.proto" in sr.get_subjects()
    # registered as a base64 descriptor, answered as .proto text unless format=serialized
    url = kwire_broker.schema_registry_url
    text = requests.get(f"{url}/subjects/lines-value/versions/latest").json()["schema"]
    assert 'import "kwire/point.proto";' in text and "message Line {" in text
    assert ".kwire.Point start = 1;" in text


def test_protobuf_registered_as_text(kwire_broker):
    """A schema registered as .proto text (as Java clients and `kwire schemas` do) serves the
    Python serializer and deserializer, which ask for format=serialized."""
    from google.protobuf import descriptor_pool, message_factory

    url = kwire_broker.schema_registry_url
    point = 'syntax = "proto3";\npackage kwire;\nmessage Point { int32 x = 1; int32 y = 2; }\n'
    line = ('syntax = "proto3";\npackage kwire;\nimport "kwire/point.proto";\n'
            'message Line { Point start = 1; Point end = 2; string name = 3; map<string, int32> tags = 4; }\n')
    r = requests.post(f"{url}/subjects/point/versions", json={"schema": point, "schemaType": "PROTOBUF"})
    assert r.status_code == 200, r.text
    r = requests.post(f"{url}/subjects/text-lines-value/versions", json={
        "schema": line, "schemaType": "PROTOBUF",
        "references": [{"name": "kwire/point.proto", "subject": "point", "version": 1}]})
    assert r.status_code == 200, r.text
    # answered as Confluent's registry prints it back (its canonical form), not as sent
    assert requests.get(f"{url}/subjects/text-lines-value/versions/1").json()["schema"] == (
        'syntax = "proto3";\npackage kwire;\nimport "kwire/point.proto";\nmessage Line {\n  Point start = 1;\n'
        '  Point end = 2;\n  string name = 3;\n  map<string, int32> tags = 4;\n}\n')
    # the message classes come from what the registry answers as a descriptor
    from confluent_kafka.schema_registry.common.protobuf import _str_to_proto

    pool = descriptor_pool.DescriptorPool()
    for subject, name in (("point", "kwire/point.proto"), ("text-lines-value", "kwire/line.proto")):
        got = requests.get(f"{url}/subjects/{subject}/versions/1?format=serialized").json()["schema"]
        fdp = _str_to_proto(name, got)
        fdp.name = name
        pool.Add(fdp)
    Line = message_factory.GetMessageClass(pool.FindMessageTypeByName("kwire.Line"))
    sr = client(kwire_broker)
    ser = ProtobufSerializer(Line, sr, {"use.deprecated.format": False, "auto.register.schemas": False,
                                        "use.latest.version": True})
    msg = Line(name="n", tags={"a": 1})
    msg.start.x = 5
    got = roundtrip(kwire_broker, "text-lines", ser, ProtobufDeserializer(Line, {"use.deprecated.format": False}),
                    [msg])
    assert got == [msg]


def _proto_classes():
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    point = descriptor_pb2.FileDescriptorProto(name="kwire/point.proto", package="kwire", syntax="proto3")
    m = point.message_type.add(name="Point")
    for i, n in enumerate(("x", "y"), 1):
        m.field.add(name=n, number=i, type=descriptor_pb2.FieldDescriptorProto.TYPE_INT32,
                    label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    line = descriptor_pb2.FileDescriptorProto(name="kwire/line.proto", package="kwire", syntax="proto3",
                                              dependency=["kwire/point.proto"])
    m = line.message_type.add(name="Line")
    for i, n in enumerate(("start", "end"), 1):
        m.field.add(name=n, number=i, type=descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE,
                    type_name=".kwire.Point", label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    m.field.add(name="name", number=3, type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
                label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL)
    pool.Add(point)
    pool.Add(line)
    return (message_factory.GetMessageClass(pool.FindMessageTypeByName("kwire.Point")),
            message_factory.GetMessageClass(pool.FindMessageTypeByName("kwire.Line")))


def test_avro_reference_and_ids(kwire_broker):
    sr = client(kwire_broker)
    address = {"type": "record", "name": "Address", "namespace": "kwire.test",
               "fields": [{"name": "city", "type": "string"}]}
    aid = sr.register_schema("address", Schema(json.dumps(address), "AVRO"))
    assert sr.register_schema("address", Schema(json.dumps(address), "AVRO")) == aid  # idempotent
    # the same schema under another subject: the same id, version 1 there
    assert sr.register_schema("address-copy", Schema(json.dumps(address, indent=2), "AVRO")) == aid
    person = {"type": "record", "name": "Person", "namespace": "kwire.test",
              "fields": [{"name": "home", "type": "kwire.test.Address"}]}
    ref = SchemaReference("kwire.test.Address", "address", 1)
    pid = sr.register_schema("person-value", Schema(json.dumps(person), "AVRO", [ref]))
    assert pid != aid
    got = sr.get_schema(pid)
    assert got.references[0].subject == "address"
    assert sorted(sr.get_subjects_by_schema_id(aid)) == ["address", "address-copy"]
    # a missing reference is an invalid schema: nothing stored
    ghost = SchemaReference("kwire.test.Ghost", "ghost", 1)
    with pytest.raises(SchemaRegistryError) as e:
        sr.register_schema("person2-value", Schema(json.dumps(person), "AVRO", [ghost]))
    assert e.value.error_code == 42201
    assert "person2-value" not in sr.get_subjects()
    # the serializer/deserializer resolve the reference
    ser = AvroSerializer(sr, Schema(json.dumps(person), "AVRO", [ref]), conf={"auto.register.schemas": False,
                                                                             "use.latest.version": True})
    got = roundtrip(kwire_broker, "person", ser, AvroDeserializer(sr), [{"home": {"city": "Oslo"}}])
    assert got == [{"home": {"city": "Oslo"}}]
    # a referenced version cannot be deleted
    with pytest.raises(SchemaRegistryError) as e:
        sr.delete_version("address", 1)
    assert e.value.error_code == 42206


def test_compatibility_levels(kwire_broker):
    """Each level accepts and refuses what it should; transitive levels check every version."""
    sr = client(kwire_broker)

    def rec(*fields):
        return Schema(json.dumps({"type": "record", "name": "R", "fields": list(fields)}), "AVRO")

    a = {"name": "a", "type": "int"}
    b_def = {"name": "b", "type": "int", "default": 0}
    b_req = {"name": "b", "type": "int"}
    cases = {
        # level: (first, accepted second, refused second)
        "BACKWARD": (rec(a), rec(a, b_def), rec(a, b_req)),
        "FORWARD": (rec(a, b_def), rec(a), rec({"name": "a", "type": "string"})),
        "FULL": (rec(a), rec(a, b_def), rec(a, b_req)),
        "NONE": (rec(a), rec({"name": "z", "type": "string"}), None),
    }
    for level, (first, ok, refused) in cases.items():
        subject = f"compat-{level}"
        sr.set_compatibility(subject, level)
        assert sr.get_compatibility(subject) == level
        sr.register_schema(subject, first)
        if refused is not None:
            assert not sr.test_compatibility(subject, refused)
            with pytest.raises(SchemaRegistryError) as e:
                sr.register_schema(subject, refused)
            assert e.value.error_code == 409, level
        assert sr.test_compatibility(subject, ok)
        sr.register_schema(subject, ok)
        assert len(sr.get_versions(subject)) == 2, level
    # transitive vs not: v3 requires c, which v2 data has and v1 data lacks, so v3 can read the
    # latest version (BACKWARD accepts it) but not every version (BACKWARD_TRANSITIVE refuses it)
    v1 = rec(a)
    v2 = rec(a, {"name": "c", "type": "int", "default": 1})
    v3 = rec(a, {"name": "c", "type": "int"})  # c without default: v2 data has c, v1 data does not
    for level, accepted in (("BACKWARD", True), ("BACKWARD_TRANSITIVE", False)):
        subject = f"trans-{level}"
        sr.set_compatibility(subject, level)
        sr.register_schema(subject, v1)
        sr.register_schema(subject, v2)
        if accepted:
            assert sr.register_schema(subject, v3) > 0
        else:
            with pytest.raises(SchemaRegistryError) as e:
                sr.register_schema(subject, v3)
            assert e.value.error_code == 409
    r = requests.post(f"{kwire_broker.schema_registry_url}/compatibility/subjects/trans-BACKWARD_TRANSITIVE"
                      "/versions?verbose=true", json={"schema": v3.schema_str})
    assert r.status_code == 200 and r.json()["is_compatible"] is False
    assert any("oldSchemaVersion: 1" in m for m in r.json()["messages"])
    # an unknown level: 42203, nothing stored
    r = requests.put(f"{kwire_broker.schema_registry_url}/config/x", json={"compatibility": "SIDEWAYS"})
    assert (r.status_code, r.json()["error_code"]) == (422, 42203)
    assert requests.get(f"{kwire_broker.schema_registry_url}/config/x").json()["error_code"] == 40408


def test_deletes_listings_and_restart(kwire_broker):
    url = kwire_broker.schema_registry_url
    sr = client(kwire_broker)
    sr.set_compatibility(level="NONE")
    ids = [sr.register_schema("d", Schema(json.dumps({"type": "enum", "name": "E", "symbols": [s]}), "AVRO"))
           for s in ("A", "B", "C")]
    assert ids == sorted(ids) and len(set(ids)) == 3
    assert sr.delete_version("d", 2) == 2
    assert sr.get_versions("d") == [1, 3]
    assert requests.get(f"{url}/subjects/d/versions?deleted=true").json() == [1, 2, 3]
    assert requests.get(f"{url}/subjects/d/versions/2").json()["error_code"] == 40402
    assert requests.get(f"{url}/subjects/d/versions/2?deleted=true").json()["id"] == ids[1]
    r = requests.delete(f"{url}/subjects/d/versions/2")  # soft-deleted already: Confluent's 40406
    assert (r.status_code, r.json()["error_code"]) == (404, 40406), r.text
    assert requests.get(f"{url}/subjects/d/versions?deleted=true").json() == [1, 2, 3]
    r = requests.delete(f"{url}/subjects/d/versions/3?permanent=true")
    assert (r.status_code, r.json()["error_code"]) == (404, 40407)  # not soft-deleted first
    assert sr.delete_version("d", 2, permanent=True) == 2
    assert requests.get(f"{url}/subjects/d/versions?deleted=true").json() == [1, 3]
    assert sr.delete_subject("d") == [1, 3]
    assert "d" not in sr.get_subjects()
    assert "d" in requests.get(f"{url}/subjects?deleted=true").json()
    r = requests.delete(f"{url}/subjects/d")
    assert r.json()["error_code"] == 40404
    for v in ("1", "latest"):  # every version soft-deleted with the subject
        r = requests.delete(f"{url}/subjects/d/versions/{v}")
        assert (r.status_code, r.json()["error_code"]) == (404, 40406), (v, r.text)
    assert sr.delete_subject("d", permanent=True) == [1, 3]
    assert requests.get(f"{url}/subjects?deleted=true").json() == []
    # the largest id was deleted for good: a restart must not hand it out again
    keep = sr.register_schema("keep", Schema(json.dumps({"type": "fixed", "name": "F", "size": 4}), "AVRO"))
    sr.set_compatibility("keep", "FULL_TRANSITIVE")
    kwire_broker.restart()
    sr2 = client(kwire_broker)
    assert sr2.get_subjects() == ["keep"]
    assert sr2.get_schema(keep).schema_str == json.dumps({"type": "fixed", "name": "F", "size": 4},
                                                         separators=(",", ":"))
    assert sr2.get_compatibility("keep") == "FULL_TRANSITIVE"
    assert sr2.get_compatibility() == "NONE"
    new = sr2.register_schema("new", Schema('"string"', "AVRO"))
    assert new == keep + 1 and new not in ids


def test_equal_schemas_share_an_id(kwire_broker):
    """Confluent's registry compares schemas by the text it prints back from the parsed schema
    (Avro: Java's Schema.toString(); Protobuf: its .proto printer; JSON: compact JSON), and with
    normalize=true by its normalized form: what that treats as equal gets one id here too."""
    url = kwire_broker.schema_registry_url
    n = iter(range(1000))

    def reg(schema, schema_type="AVRO", normalize=False) -> int:
        text = schema if isinstance(schema, str) else json.dumps(schema)
        r = requests.post(f"{url}/subjects/eq{next(n)}/versions?normalize={str(normalize).lower()}",
                          json={"schema": text, "schemaType": schema_type})
        assert r.status_code == 200, r.text
        return r.json()["id"]

    # Avro: whitespace, key order, full vs short names, {"type": "int"} for "int": one schema
    avro = {"type": "record", "name": "R", "namespace": "n", "fields": [
        {"name": "a", "type": "int"}, {"name": "b", "type": {"type": "record", "name": "S", "fields": []}},
        {"name": "c", "type": "S"}]}
    same = ('{ "fields" : [ {"type": {"type": "int"}, "name": "a"},\n {"name": "b", "type": {"fields": [], '
            '"name": "n.S", "type": "record"}}, {"name": "c", "type": "n.S"} ],\n "name": "n.R", "type": "record" }')
    first = reg(avro)
    assert reg(same) == first
    assert requests.get(f"{url}/schemas/ids/{first}").json()["schema"] == (
        '{"type":"record","name":"R","namespace":"n","fields":[{"name":"a","type":"int"},{"name":"b","type":'
        '{"type":"record","name":"S","fields":[]}},{"name":"c","type":"S"}]}')  # as Java prints it
    # ... but a doc, a default or the order of fields makes another schema, normalized or not
    with_doc = json.loads(json.dumps(avro))
    with_doc["fields"][0]["doc"] = "the a"
    swapped = dict(avro, fields=[avro["fields"][1], avro["fields"][0], avro["fields"][2]])
    ids = {first, reg(with_doc), reg(swapped)}
    assert len(ids) == 3
    assert len({reg(avro, normalize=True), reg(with_doc, normalize=True), reg(swapped, normalize=True)}) == 3
    # properties in another order: two schemas as sent, one normalized
    p1 = {"type": "record", "name": "P", "fields": [], "x.a": 1, "x.b": 2}
    p2 = {"type": "record", "name": "P", "x.b": 2, "x.a": 1, "fields": []}
    assert reg(p1) != reg(p2)
    assert reg(p1, normalize=True) == reg(p2, normalize=True)

    # Protobuf: comments, blank lines, where options and nested types sit: one schema
    proto = 'syntax = "proto3";\npackage k;\nmessage M {\n  int32 a = 1;\n  string b = 2;\n}\n'
    noisy = ('// a comment\nsyntax="proto3";   package k;\n\n/* block */ message M { message Unused {} '
             'int32 a = 1; // trailing\n string b = 2; }')
    pid = reg(proto, "PROTOBUF")
    assert reg(proto.replace("}\n", "  message Unused {\n  }\n}\n"), "PROTOBUF") == reg(noisy, "PROTOBUF")
    assert reg(' \n// lead\n' + proto, "PROTOBUF") == pid
    # field and option order: other schemas as sent, one normalized
    fields = 'syntax = "proto3";\npackage k;\nmessage M {\n  string b = 2;\n  int32 a = 1;\n}\n'
    assert reg(fields, "PROTOBUF") != pid
    assert reg(fields, "PROTOBUF", True) == reg(proto, "PROTOBUF", True)
    o1 = 'syntax = "proto3";\noption java_package = "x";\noption go_package = "y";\nmessage O { int32 a = 1; }'
    o2 = 'syntax = "proto3";\noption go_package = "y";\noption java_package = "x";\nmessage O { int32 a = 1; }'
    assert reg(o1, "PROTOBUF") != reg(o2, "PROTOBUF")
    assert reg(o1, "PROTOBUF", True) == reg(o2, "PROTOBUF", True)

    # JSON Schema: whitespace only; key order counts unless normalized
    j1 = '{"type": "object", "properties": {"a": {"type": "string"}}}'
    j2 = '{\n  "type":"object",\n  "properties":{ "a" : {"type":"string"} }\n}'
    j3 = '{"properties": {"a": {"type": "string"}}, "type": "object"}'
    assert reg(j1, "JSON") == reg(j2, "JSON") != reg(j3, "JSON")
    assert reg(j1, "JSON", True) == reg(j3, "JSON", True)


def test_bad_input_stores_nothing(kwire_broker):
    url = kwire_broker.schema_registry_url

    def post(path, **kw):
        r = requests.post(url + path, **kw)
        return r.status_code, r.json().get("error_code")

    assert post("/subjects/s/versions", data="{not json") == (400, 400)
    assert post("/subjects/s/versions", json={"schema": '{"type": "record", "name": "R"}'}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schema": '{"type": "nope"}'}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schema": '{"type": 5}', "schemaType": "JSON"}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schema": "message {", "schemaType": "PROTOBUF"}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schema": '"int"', "schemaType": "XML"}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schemaType": "AVRO"}) == (422, 422)
    huge = json.dumps({"type": "enum", "name": "H", "symbols": [f"S{i}" for i in range(200_000)]})
    assert post("/subjects/s/versions", json={"schema": huge}) == (422, 42209)
    assert post("/subjects/%01ctl/versions", json={"schema": '"int"'}) == (422, 42208)
    # more invalid schemas of each type
    bad_default = {"type": "record", "name": "D", "fields": [{"name": "a", "type": "int", "default": "x"}]}
    assert post("/subjects/s/versions", json={"schema": json.dumps(bad_default)}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schema": '["int", "int"]'}) == (422, 42201)  # duplicate branch
    assert post("/subjects/s/versions", json={"schema": "not json", "schemaType": "JSON"}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schema": '{"type": "strin"}', "schemaType": "JSON"}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schema": 'syntax = "proto3"; message M { int32 a = ; }',
                                              "schemaType": "PROTOBUF"}) == (422, 42201)
    assert post("/subjects/s/versions", json={"schema": {"type": "string"}}) == (422, 422)  # not a string
    assert post("/subjects/s/versions", json=["a list"]) == (422, 422)
    # references to a subject or a version that does not exist
    for ref in ({"name": "a.avsc", "subject": "nowhere", "version": 1},
                {"name": "a.avsc", "subject": "nowhere", "version": "latest"}):
        assert post("/subjects/s/versions", json={"schema": '"int"', "references": [ref]}) == (422, 42201)
    # an unknown compatibility level, globally and per subject; a body that is not JSON
    for path in ("/config", "/config/s"):
        r = requests.put(url + path, json={"compatibility": "SOMETIMES"})
        assert (r.status_code, r.json()["error_code"]) == (422, 42203)
        r = requests.put(url + path, data="{oops", headers={"Content-Type": "application/json"})
        assert (r.status_code, r.json()["error_code"]) == (400, 400)
    assert requests.get(url + "/config").json() == {"compatibilityLevel": "BACKWARD"}
    assert requests.get(url + "/config/s").json()["error_code"] == 40408
    # a subject name longer than any Confluent accepts
    assert post(f"/subjects/{'x' * 2000}/versions", json={"schema": '"int"'}) == (422, 42208)
    assert requests.get(url + "/subjects").json() == []
    # odd but valid subject names round-trip
    for subject in ("a/b", "ü nicode", "dots.and-dashes:colon"):
        enc = requests.utils.quote(subject, safe="")
        assert post(f"/subjects/{enc}/versions", json={"schema": '"long"'}) == (200, None)
        assert requests.get(f"{url}/subjects/{enc}/versions/latest").json()["subject"] == subject
    assert requests.get(url + "/schemas/ids/999").json()["error_code"] == 40403
    assert requests.get(url + "/subjects/none/versions").json()["error_code"] == 40401
    assert requests.get(url + "/subjects/a%2Fb/versions/0").json()["error_code"] == 42202
    assert requests.get(url + "/subjects/a%2Fb/versions/7").json()["error_code"] == 40402
    assert requests.put(url + "/mode", json={"mode": "SOMETIMES"}).json()["error_code"] == 42204
    assert post("/subjects/none", json={"schema": '"long"'}) == (404, 40401)
    assert requests.post(url + "/subjects/a%2Fb", json={"schema": '"long"'}).json()["version"] == 1


def test_modes(kwire_broker):
    url = kwire_broker.schema_registry_url
    sr = client(kwire_broker)
    sr.register_schema("m", Schema('"int"', "AVRO"))
    assert sr.update_mode("m", "READONLY") == "READONLY"
    with pytest.raises(SchemaRegistryError) as e:
        sr.register_schema("m", Schema('"long"', "AVRO"))
    assert e.value.error_code == 42205
    assert requests.put(url + "/mode", json={"mode": "IMPORT"}).json()["error_code"] == 42205  # subjects exist
    assert requests.put(url + "/mode/imp", json={"mode": "IMPORT"}).json() == {"mode": "IMPORT"}
    r = requests.post(url + "/subjects/imp/versions", json={"schema": '"bytes"', "id": 100, "version": 7})
    assert r.json() == {"id": 100}
    assert requests.get(url + "/subjects/imp/versions").json() == [7]
    assert requests.get(url + "/schemas/ids/100").json()["schema"] == '"bytes"'
    r = requests.post(url + "/subjects/imp/versions", json={"schema": '"string"', "id": 100, "version": 8})
    assert r.json()["error_code"] == 42207  # the id holds another schema
    # ids after an import continue above it
    assert sr.register_schema("after", Schema('"float"', "AVRO")) == 101


def test_produce_validation(kwire_broker):
    """confluent.value.schema.validation=true: only values carrying a known schema id are appended."""
    from confluent_kafka import KafkaError

    sr = client(kwire_broker)
    topic = kwire_broker.create_topic("validated", configs={"confluent.value.schema.validation": "true"})
    plain = kwire_broker.create_topic("plain")
    ser = AvroSerializer(sr, json.dumps(USER_V1))
    good = ser({"name": "ann", "age": 1}, SerializationContext(topic, MessageField.VALUE))
    unknown = b"\x00" + (9999).to_bytes(4, "big") + good[5:]
    results = []
    p = Producer({"bootstrap.servers": kwire_broker.bootstrap, "enable.idempotence": False, "retries": 0,
                  "linger.ms": 0})
    for value in (good, b"not framed", unknown, None):
        p.produce(topic, value=value, key=b"k", on_delivery=lambda err, msg: results.append(err))
        p.flush(30)
    p.produce(plain, value=b"not framed", on_delivery=lambda err, msg: results.append(err))
    assert p.flush(30) == 0
    assert results[0] is None and results[3] is None and results[4] is None
    assert results[1].code() == KafkaError.INVALID_RECORD and results[2].code() == KafkaError.INVALID_RECORD
    got = kwire_broker.consume(topic)
    assert [r.value for r in got] == [good, None]
    # after a restart the registry loads on the first validated produce: the producer's retry
    # (REQUEST_TIMED_OUT meanwhile) gets the record in, an unknown id is still refused
    kwire_broker.restart()
    results.clear()
    p = Producer({"bootstrap.servers": kwire_broker.bootstrap, "linger.ms": 0, "retry.backoff.ms": 50})
    p.produce(topic, value=good, key=b"k", on_delivery=lambda err, msg: results.append(err))
    p.flush(30)
    p.produce(topic, value=unknown, key=b"k", on_delivery=lambda err, msg: results.append(err))
    assert p.flush(30) == 0
    assert results[0] is None and results[1].code() == KafkaError.INVALID_RECORD
    assert [r.value for r in kwire_broker.consume(topic)] == [good, None, good]


def test_json_and_protobuf_evolution(kwire_broker):
    """JSON Schema and Protobuf evolve by Confluent's rules at FORWARD_TRANSITIVE and FULL."""
    url = kwire_broker.schema_registry_url

    def reg(subject, schema, schema_type):
        r = requests.post(f"{url}/subjects/{subject}/versions", json={"schema": schema, "schemaType": schema_type})
        return r.status_code, r.json()

    def obj(props, closed=True):
        return json.dumps({"type": "object", "properties": props, "additionalProperties": not closed})

    assert requests.put(f"{url}/config/j", json={"compatibility": "FORWARD_TRANSITIVE"}).status_code == 200
    assert reg("j", obj({"a": {"type": "number"}, "b": {"type": "string"}}), "JSON")[0] == 200
    # FORWARD: the old schema must read new data. Narrowing a number to an integer is fine...
    assert reg("j", obj({"a": {"type": "integer"}, "b": {"type": "string"}}), "JSON")[0] == 200
    # ...widening it back is not, transitively either (v1 reads it, v2 does not)
    code, body = reg("j", obj({"a": {"type": ["integer", "string"]}, "b": {"type": "string"}}), "JSON")
    assert (code, body["error_code"]) == (409, 409)
    assert requests.get(f"{url}/subjects/j/versions").json() == [1, 2]

    assert requests.put(f"{url}/config/p", json={"compatibility": "FULL"}).status_code == 200
    v1 = 'syntax = "proto3"; package shop; message Order { int32 id = 1; string item = 2; }'
    assert reg("p", v1, "PROTOBUF")[0] == 200
    added = 'syntax = "proto3"; package shop; message Order { int64 id = 1; string item = 2; bool gift = 3; }'
    assert reg("p", added, "PROTOBUF")[0] == 200  # a field added, int32 -> int64: one wire group
    changed = 'syntax = "proto3"; package shop; message Order { int64 id = 1; double item = 2; bool gift = 3; }'
    code, body = reg("p", changed, "PROTOBUF")
    assert (code, body["error_code"]) == (409, 409) and "FIELD_SCALAR_KIND_CHANGED" in body["message"]
    r = requests.post(f"{url}/compatibility/subjects/p/versions/latest?verbose=true",
                      json={"schema": changed, "schemaType": "PROTOBUF"}).json()
    assert r["is_compatible"] is False and any("FIELD_SCALAR_KIND_CHANGED" in m for m in r["messages"])


def test_json_schema_references(kwire_broker):
    """A JSON schema referencing another subject's schema by name; the serializer resolves $ref."""
    sr = client(kwire_broker)
    address = {"$schema": "http://json-schema.org/draft-07/schema#", "$id": "address.json", "type": "object",
               "properties": {"city": {"type": "string"}}, "required": ["city"]}
    person = {"$schema": "http://json-schema.org/draft-07/schema#", "title": "Person", "type": "object",
              "properties": {"name": {"type": "string"}, "home": {"$ref": "address.json"}}}
    sr.register_schema("address-json", Schema(json.dumps(address), "JSON"))
    ref = SchemaReference("address.json", "address-json", 1)
    pid = sr.register_schema("people-value", Schema(json.dumps(person), "JSON", [ref]))
    assert sr.get_schema(pid).references[0].name == "address.json"
    with pytest.raises(SchemaRegistryError) as e:  # the referenced subject must exist
        sr.register_schema("people2-value", Schema(json.dumps(person), "JSON",
                                                   [SchemaReference("address.json", "nowhere", 1)]))
    assert e.value.error_code == 42201
    ser = JSONSerializer(Schema(json.dumps(person), "JSON", [ref]), sr, conf={"auto.register.schemas": False,
                                                                             "use.latest.version": True})
    de = JSONDeserializer(None, schema_registry_client=sr)
    got = roundtrip(kwire_broker, "people", ser, de, [{"name": "ann", "home": {"city": "Oslo"}}])
    assert got == [{"name": "ann", "home": {"city": "Oslo"}}]
    with pytest.raises(Exception):  # the referenced schema's "required" is enforced
        ser({"name": "bo", "home": {}}, SerializationContext("people", MessageField.VALUE))


def test_a_zombie_primarys_record_loses_and_is_repaired(kwire_broker):
    """A SCHEMA record appended to _schemas by a second writer that planned against an old end of
    the log (a primary not yet fenced) lands after the records it conflicts with: the first in
    the log keeps the id and the version, the next write appends repairs (so compaction, which
    keeps the newest record of a key, cannot bring the loser back), and a restart replays the
    same state."""
    from kwire.client import KafkaClient
    from kwire.records.builder import build_batch
    from kwire.records.decode import decode_batches

    url = kwire_broker.schema_registry_url
    a, b = '"string"', '"bytes"'
    r = requests.post(f"{url}/subjects/z/versions", json={"schema": a})
    assert r.status_code == 200, r.text
    sid = r.json()["id"]

    def record(subject, version, schema_id, schema):
        key = {"keytype": "SCHEMA", "subject": subject, "version": version, "magic": 1}
        value = {"subject": subject, "version": version, "id": schema_id, "schema": schema, "deleted": False}
        return json.dumps(key).encode(), json.dumps(value).encode()

    with KafkaClient(kwire_broker.bootstrap) as c:  # the zombie's two records: same key, same id
        c.produce("_schemas", 0, build_batch([record("z", 1, sid + 1, b), record("other", 1, sid, b)]))

    def state():
        return (requests.get(f"{url}/schemas/ids/{sid}").json(),
                requests.get(f"{url}/subjects/z/versions").json(), requests.get(f"{url}/subjects").json())

    expect = ({"schema": a}, [1], ["z"])
    deadline = time.monotonic() + 30
    while requests.get(f"{url}/subjects/z/versions/1").status_code != 200 or state() != expect:
        assert time.monotonic() < deadline, state()
        time.sleep(0.1)
    # the next write repairs both keys first, then takes an id the zombie's record did not
    r = requests.post(f"{url}/subjects/w/versions", json={"schema": '"double"'})
    assert r.status_code == 200 and r.json()["id"] > sid + 1, r.text
    with KafkaClient(kwire_broker.bootstrap) as c:
        data = c.fetch("_schemas", 0, 0, max_bytes=1 << 22)
    log = [(json.loads(rec.key), rec.value and json.loads(rec.value))
           for batch in decode_batches(data) for rec in batch.records if rec.key]
    zombie = max(i for i, (k, v) in enumerate(log) if v and v.get("schema") == b)
    after = {(k.get("subject"), k.get("version")): v for k, v in log[zombie + 1:] if k["keytype"] == "SCHEMA"}
    assert after[("z", 1)]["id"] == sid and after[("z", 1)]["schema"] == a  # the winner, written again
    assert after[("other", 1)] is None  # a tombstone: the key held nothing
    kwire_broker.restart()
    deadline = time.monotonic() + 60
    while True:
        try:
            if state()[:2] == expect[:2]:
                break
        except requests.RequestException:
            pass
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert sorted(state()[2]) == ["w", "z"]
