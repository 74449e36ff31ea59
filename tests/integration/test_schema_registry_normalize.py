"""Protobuf normalization (issue 25) through the REST API, with ``requests`` over HTTP.

Confluent's ``ProtobufSchema.normalize`` (``?normalize=true`` on register and
look-up, as confluent-kafka's serializers send with ``normalize.schemas``;
the ``normalize`` field of ``PUT /config``; kwire's broker default
``schema.registry.normalize.schemas``) makes
schemas that differ only in how they are written one schema: type names
fully qualified (``Foo``, ``pkg.Foo``, ``.pkg.Foo``), a ``map<k, v>`` and the
synthetic ``...Entry`` message a descriptor carries for it, the order of
options, of message-literal option fields, of imports, of fields. Schemas
that really differ (another type, another map value, a map against a repeated
message) keep their own ids.
"""

from __future__ import annotations

import itertools

import pytest
import requests

pytestmark = pytest.mark.timeout(120)

_n = itertools.count()


def register(url: str, text: str, normalize: bool | None = None, subject: str | None = None,
             references: list | None = None) -> int:
    q = "" if normalize is None else f"?normalize={str(normalize).lower()}"
    body = {"schema": text, "schemaType": "PROTOBUF", "references": references or []}
    r = requests.post(f"{url}/subjects/{subject or f'n{next(_n)}'}/versions{q}", json=body, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()["id"]


SHORT = """syntax = "proto3";
package shop.v1;
message Order {
  Item item = 1;
  repeated Item.Kind kinds = 2;
  map<string, Item> by_sku = 3;
}
message Item {
  string sku = 1;
  enum Kind { KIND_UNSPECIFIED = 0; KIND_BOOK = 1; }
}
service Orders { rpc Put (Order) returns (Item); }
"""

QUALIFIED = """syntax = "proto3";
package shop.v1;
message Order {
  .shop.v1.Item item = 1;
  repeated shop.v1.Item.Kind kinds = 2;
  repeated BySkuEntry by_sku = 3;
  message BySkuEntry {
    option map_entry = true;
    string key = 1;
    .shop.v1.Item value = 2;
  }
}
message Item {
  string sku = 1;
  enum Kind { KIND_UNSPECIFIED = 0; KIND_BOOK = 1; }
}
service Orders { rpc Put (.shop.v1.Order) returns (shop.v1.Item); }
"""


def test_names_and_map_entries_normalize_to_one_id(kwire_broker):
    url = kwire_broker.schema_registry_url
    # as written they are two schemas (Confluent's canonical form keeps names as written) ...
    assert register(url, SHORT) != register(url, QUALIFIED)
    # ... normalized, one
    sid = register(url, SHORT, normalize=True)
    assert register(url, QUALIFIED, normalize=True) == sid
    text = requests.get(f"{url}/schemas/ids/{sid}", timeout=30).json()["schema"]
    assert "map<string, .shop.v1.Item> by_sku = 3;" in text and "Entry" not in text
    assert "repeated .shop.v1.Item.Kind kinds = 2;" in text and "(.shop.v1.Order)" in text
    # look-up: the other spelling finds the version only with normalize=true
    subject = f"n{next(_n)}"
    register(url, SHORT, normalize=True, subject=subject)
    r = requests.post(f"{url}/subjects/{subject}?normalize=true", json={"schema": QUALIFIED,
                                                                        "schemaType": "PROTOBUF"}, timeout=30)
    assert r.status_code == 200 and r.json()["id"] == sid and r.json()["version"] == 1, r.text
    r = requests.post(f"{url}/subjects/{subject}", json={"schema": QUALIFIED, "schemaType": "PROTOBUF"},
                      timeout=30)
    assert (r.status_code, r.json()["error_code"]) == (404, 40403)
    # and under BACKWARD the two spellings are compatible versions of one subject (a map and its
    # explicit entry message are one field kind)
    subject = f"n{next(_n)}"
    assert register(url, SHORT, subject=subject) != register(url, QUALIFIED, subject=subject)
    assert requests.get(f"{url}/subjects/{subject}/versions", timeout=30).json() == [1, 2]


def test_options_imports_and_field_order_normalize(kwire_broker):
    url = kwire_broker.schema_registry_url
    dep = 'syntax = "proto3";\npackage geo;\nmessage Point { sint32 x = 1; sint32 y = 2; }\n'
    register(url, dep, subject="geo-point")
    refs = [{"name": "geo/point.proto", "subject": "geo-point", "version": 1}]
    a = """syntax = "proto3";
package shop.v1;
import "geo/point.proto";
import "google/protobuf/descriptor.proto";
option java_package = "com.shop";
option go_package = "shop/v1";
extend google.protobuf.FieldOptions { Rule rule = 50000; }
message Rule { int32 min = 1; int32 max = 2; }
message Store {
  option deprecated = true;
  int32 id = 1 [(rule) = { min: 1, max: 9 }, deprecated = true];
  geo.Point where = 2 [json_name = "at"];
}
"""
    b = """syntax = "proto3";
package shop.v1;
import "google/protobuf/descriptor.proto";
import "geo/point.proto";
option go_package = "shop/v1";
option java_package = "com.shop";
extend google.protobuf.FieldOptions { Rule rule = 50000; }
message Rule { int32 min = 1; int32 max = 2; }
message Store {
  .geo.Point where = 2 [json_name = "at"];
  int32 id = 1 [deprecated = true, (rule) = { max: 9, min: 1 }];
  option deprecated = true;
}
"""
    assert register(url, a, references=refs) != register(url, b, references=refs)
    sid = register(url, a, normalize=True, references=refs)
    assert register(url, b, normalize=True, references=refs) == sid
    text = requests.get(f"{url}/schemas/ids/{sid}", timeout=30).json()["schema"]
    assert ".geo.Point where = 2" in text  # resolved through the reference
    assert text.index('"geo/point.proto"') < text.index('"google/protobuf/descriptor.proto"')
    assert text.index("go_package") < text.index("java_package")


def test_real_differences_keep_their_ids(kwire_broker):
    url = kwire_broker.schema_registry_url
    base = register(url, SHORT, normalize=True)
    other_value = SHORT.replace("map<string, Item>", "map<string, Item.Kind>")
    as_repeated = SHORT.replace("map<string, Item> by_sku = 3;", "repeated Item by_sku = 3;")
    other_key = SHORT.replace("map<string, Item>", "map<int64, Item>")
    other_type = SHORT.replace("  Item item = 1;", "  Order item = 1;")
    # a nested type of the same short name in another scope is another type
    shadowed = SHORT.replace("message Order {\n", "message Order {\n  message Item { int32 n = 1; }\n")
    other_option = SHORT.replace("string sku = 1;", "string sku = 1 [deprecated = true];")
    ids = [register(url, s, normalize=True)
           for s in (other_value, as_repeated, other_key, other_type, shadowed, other_option)]
    assert len(set(ids + [base])) == 7, ids
    text = requests.get(f"{url}/schemas/ids/{ids[4]}", timeout=30).json()["schema"]
    assert ".shop.v1.Order.Item item = 1;" in text  # resolved to the innermost scope, as protoc


def test_normalize_config_per_subject_and_global(kwire_broker):
    url = kwire_broker.schema_registry_url
    assert register(url, SHORT, subject="plain") != register(url, QUALIFIED, subject="plain-2")
    r = requests.put(f"{url}/config/cfg", json={"normalize": True}, timeout=30)
    assert r.status_code == 200 and r.json()["normalize"] is True, r.text
    got = requests.get(f"{url}/config/cfg", timeout=30).json()
    assert got["normalize"] is True and got["compatibilityLevel"] == "BACKWARD"
    sid = register(url, SHORT, subject="cfg")
    assert register(url, QUALIFIED, subject="cfg") == sid  # no ?normalize: the subject's config
    assert requests.get(f"{url}/subjects/cfg/versions", timeout=30).json() == [1]
    # a compatibility change keeps the subject's normalize
    assert requests.put(f"{url}/config/cfg", json={"compatibility": "NONE"}, timeout=30).status_code == 200
    assert requests.get(f"{url}/config/cfg", timeout=30).json() == {"compatibilityLevel": "NONE",
                                                                     "normalize": True}
    # the global normalize applies to subjects without their own
    assert requests.put(f"{url}/config", json={"normalize": True}, timeout=30).status_code == 200
    g = register(url, SHORT, subject="global-on")
    assert register(url, QUALIFIED, subject="global-on") == g
    r = requests.put(f"{url}/config/off", json={"normalize": False, "compatibility": "NONE"}, timeout=30)
    assert r.status_code == 200
    assert register(url, SHORT, subject="off") != register(url, QUALIFIED, subject="off")
    # a normalize that is not a boolean, or an empty update, is refused
    r = requests.put(f"{url}/config/bad", json={"normalize": "yes"}, timeout=30)
    assert (r.status_code, r.json()["error_code"]) == (422, 422)
    r = requests.put(f"{url}/config/bad", json={}, timeout=30)
    assert (r.status_code, r.json()["error_code"]) == (422, 42203)
    # a restart replays the normalize configs from _schemas
    kwire_broker.restart()
    assert requests.get(f"{url}/config/cfg", timeout=30).json()["normalize"] is True
    assert register(url, QUALIFIED, subject="cfg") == sid


@pytest.mark.kwire_broker_config({"schema.registry.normalize.schemas": "true"})
def test_server_normalize_schemas(kwire_broker):
    url = kwire_broker.schema_registry_url
    sid = register(url, SHORT)
    assert register(url, QUALIFIED) == sid
    assert register(url, QUALIFIED, normalize=False) == sid  # the broker's setting still applies
    # a subject's own normalize=false config overrides the broker's
    r = requests.put(f"{url}/config/raw", json={"normalize": False, "compatibility": "NONE"}, timeout=30)
    assert r.status_code == 200
    assert register(url, SHORT, subject="raw") != register(url, QUALIFIED, subject="raw")


def _basket_class():
    """A message class built from a descriptor (as protoc's output carries it): a map field is
    a repeated synthetic ``TagsEntry`` message there."""
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    F = descriptor_pb2.FieldDescriptorProto
    fdp = descriptor_pb2.FileDescriptorProto(name="shop/basket.proto", package="shop", syntax="proto3")
    item = fdp.message_type.add(name="Item")
    item.field.add(name="sku", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    basket = fdp.message_type.add(name="Basket")
    entry = basket.nested_type.add(name="TagsEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    entry.field.add(name="value", number=2, type=F.TYPE_MESSAGE, type_name=".shop.Item", label=F.LABEL_OPTIONAL)
    basket.field.add(name="tags", number=2, type=F.TYPE_MESSAGE, type_name=".shop.Basket.TagsEntry",
                     label=F.LABEL_REPEATED)
    basket.field.add(name="first", number=1, type=F.TYPE_MESSAGE, type_name=".shop.Item", label=F.LABEL_OPTIONAL)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("shop.Basket"))


def test_python_serializer_with_normalize_schemas(kwire_broker):
    """confluent-kafka's ProtobufSerializer with normalize.schemas=True registers a base64
    descriptor with ?normalize=true: stored normalized, it is one schema with the .proto text
    written by hand, and the deserializer still reads what was produced."""
    from confluent_kafka import Consumer, Producer
    from confluent_kafka.schema_registry import SchemaRegistryClient
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    Basket = _basket_class()
    url = kwire_broker.schema_registry_url
    sr = SchemaRegistryClient({"url": url})
    topic = kwire_broker.create_topic("baskets")
    ctx = SerializationContext(topic, MessageField.VALUE)
    ser = ProtobufSerializer(Basket, sr, {"use.deprecated.format": False, "normalize.schemas": True})
    msg = Basket()
    msg.first.sku = "a"
    msg.tags["x"].sku = "b"
    p = Producer({"bootstrap.servers": kwire_broker.bootstrap})
    p.produce(topic, value=ser(msg, ctx))
    assert p.flush(30) == 0
    sid = sr.get_latest_version(f"{topic}-value").schema_id
    text = """syntax = "proto3";
package shop;
message Item { string sku = 1; }
message Basket {
  map<string, Item> tags = 2;
  Item first = 1;
}
"""
    assert register(url, text, normalize=True) == sid
    assert register(url, text) != sid  # as written, another schema
    c = Consumer({"bootstrap.servers": kwire_broker.bootstrap, "group.id": "g-baskets",
                  "auto.offset.reset": "earliest"})
    c.subscribe([topic])
    try:
        m = c.poll(30)
        assert m is not None and m.error() is None
        assert ProtobufDeserializer(Basket, {"use.deprecated.format": False})(m.value(), ctx) == msg
    finally:
        c.close()
