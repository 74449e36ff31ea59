"""Bad input to the Schema Registry's REST API (issue 25), over HTTP with ``requests``.

Every write endpoint given a body that is not JSON, JSON of the wrong shape, a
schema too large, a Protobuf schema naming a type or importing a file it does
not have, a reference to nothing, an unknown compatibility level or mode:
Confluent's status and error code (400/400, 422/422, 42201 invalid schema,
42202 invalid version, 42203 invalid compatibility level, 42204 invalid mode,
42209 too large, 40401/40402/40403 not found), nothing appended to
``_schemas``, and the broker unaffected: the registry still registers and the
Kafka side still produces and consumes, the records still validated.
"""

from __future__ import annotations

import json

import pytest
import requests

pytestmark = pytest.mark.timeout(120)

PROTO = 'syntax = "proto3";\npackage bad;\nmessage Ok { int32 a = 1; }\n'


def schemas_records(broker) -> int:
    """Records in ``_schemas`` (every registry write is one)."""
    return len(broker.consume("_schemas"))


def call(method: str, url: str, **kw) -> tuple[int, int | None]:
    r = requests.request(method, url, timeout=30, **kw)
    body = r.json()
    return r.status_code, body.get("error_code") if isinstance(body, dict) else None


def test_bad_requests_answer_confluent_codes_and_store_nothing(kwire_broker):
    url = kwire_broker.schema_registry_url
    assert call("POST", f"{url}/subjects/good/versions", json={"schema": PROTO, "schemaType": "PROTOBUF"})[0] == 200
    before = schemas_records(kwire_broker)
    assert before >= 1  # the registration above
    not_json = {"data": "{oops", "headers": {"Content-Type": "application/vnd.schemaregistry.v1+json"}}
    # a body that is not JSON, on every endpoint that reads one
    for method, path in (("POST", "/subjects/good/versions"), ("POST", "/subjects/good"),
                         ("POST", "/compatibility/subjects/good/versions/latest"),
                         ("PUT", "/config"), ("PUT", "/config/good"), ("PUT", "/mode"), ("PUT", "/mode/good")):
        assert call(method, url + path, **not_json) == (400, 400), (method, path)
    # JSON of the wrong shape
    for body in ([1, 2], 5, "schema", {"schema": 5}, {"schema": PROTO, "references": "nope"},
                 {"schema": PROTO, "schemaType": 7}):
        assert call("POST", f"{url}/subjects/good/versions", json=body) == (422, 422), body
    # invalid Protobuf: an undefined type, an import that is not a reference, broken syntax
    for text in ('syntax = "proto3";\nmessage M { Missing m = 1; }\n',
                 'syntax = "proto3";\nmessage M { map<string, Missing> m = 1; }\n',
                 'syntax = "proto3";\nimport "other.proto";\nmessage M { int32 a = 1; }\n',
                 'syntax = "proto3";\nmessage M { int32 a = 1 }\n'):
        assert call("POST", f"{url}/subjects/p/versions", json={"schema": text, "schemaType": "PROTOBUF"}) == \
            (422, 42201), text
    # ... while well-known types need no reference
    wkt = ('syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\n'
           'message At { google.protobuf.Timestamp at = 1; }\n')
    assert call("POST", f"{url}/subjects/wkt/versions", json={"schema": wkt, "schemaType": "PROTOBUF"})[0] == 200
    before += 1
    # references: to a subject that does not exist, a version that does not, a bad version
    for ref, code in (({"name": "x.proto", "subject": "nowhere", "version": 1}, 42201),
                      ({"name": "x.proto", "subject": "good", "version": 9}, 42201),
                      ({"name": "x.proto", "subject": "good", "version": "first"}, 42201)):
        text = 'syntax = "proto3";\nimport "x.proto";\nmessage R { bad.Ok ok = 1; }\n'
        body = {"schema": text, "schemaType": "PROTOBUF", "references": [ref]}
        assert call("POST", f"{url}/subjects/r/versions", json=body) == (422, code), ref
    # too large: Avro, JSON Schema and Protobuf
    big_avro = json.dumps({"type": "enum", "name": "E", "symbols": [f"S{i}" for i in range(150_000)]})
    big_json = json.dumps({"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(60_000)}})
    big_proto = "syntax = \"proto3\";\nmessage Big {\n" + "".join(f"  int32 f{i} = {i};\n" for i in range(1, 70_000)) + "}\n"
    for text, schema_type in ((big_avro, "AVRO"), (big_json, "JSON"), (big_proto, "PROTOBUF")):
        assert len(text) > 1 << 20
        assert call("POST", f"{url}/subjects/big/versions", json={"schema": text, "schemaType": schema_type}) == \
            (422, 42209), schema_type
    # unknown compatibility level, mode; config and compatibility of what does not exist
    assert call("PUT", f"{url}/config/good", json={"compatibility": "MOSTLY"}) == (422, 42203)
    assert call("PUT", f"{url}/config/good", json={"compatibilityLevel": 3}) == (422, 42203)
    assert call("PUT", f"{url}/mode/good", json={"mode": "WRITEONLY"}) == (422, 42204)
    assert call("POST", f"{url}/compatibility/subjects/nobody/versions/1",
                json={"schema": PROTO, "schemaType": "PROTOBUF"}) == (404, 40401)
    assert call("POST", f"{url}/compatibility/subjects/good/versions/9",
                json={"schema": PROTO, "schemaType": "PROTOBUF"}) == (404, 40402)
    assert call("POST", f"{url}/compatibility/subjects/good/versions/zero",
                json={"schema": PROTO, "schemaType": "PROTOBUF"}) == (422, 42202)
    assert call("POST", f"{url}/subjects/good", json={"schema": PROTO.replace("a = 1", "b = 1"),
                                                      "schemaType": "PROTOBUF"}) == (404, 40403)
    assert call("DELETE", f"{url}/subjects/nobody") == (404, 40401)
    assert call("GET", f"{url}/schemas/ids/424242") == (404, 40403)
    # nothing of the above was written
    assert schemas_records(kwire_broker) == before
    assert sorted(requests.get(f"{url}/subjects", timeout=30).json()) == ["good", "wkt"]


def test_the_broker_is_unaffected(kwire_broker):
    """After a burst of bad requests the registry and the Kafka side work as before."""
    from confluent_kafka import Producer

    url = kwire_broker.schema_registry_url
    huge = "x" * (2 << 20)
    for _ in range(5):
        assert call("POST", f"{url}/subjects/s/versions", data=huge,
                    headers={"Content-Type": "application/json"})[0] == 400
        assert call("POST", f"{url}/subjects/s/versions", json={"schema": huge})[1] == 42209
        assert call("POST", f"{url}/subjects/s/versions", json={"schema": '{"type": "nope"}'})[1] == 42201
    sid = requests.post(f"{url}/subjects/s/versions", json={"schema": '"string"'}, timeout=30).json()["id"]
    topic = kwire_broker.create_topic("checked", configs={"confluent.value.schema.validation": "true"})
    framed = b"\x00" + sid.to_bytes(4, "big") + b"\x06abc"
    errors = []
    p = Producer({"bootstrap.servers": kwire_broker.bootstrap, "linger.ms": 0, "retries": 0,
                  "enable.idempotence": False})
    for value in (framed, b"plain"):
        p.produce(topic, value=value, on_delivery=lambda err, msg: errors.append(err))
        p.flush(30)
    assert errors[0] is None and errors[1] is not None and errors[1].name() == "INVALID_RECORD"
    assert [r.value for r in kwire_broker.consume(topic)] == [framed]
