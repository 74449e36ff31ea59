"""The Schema Registry's HTTP exchanges as Confluent's Java clients make them, byte for byte.

Confluent's Java serializers (KafkaAvroSerializer and the JSON Schema and
Protobuf ones) and Kafka Connect's AvroConverter come only from Confluent's
own Maven repository, which this project cannot reach, so their requests are
replayed here with plain HTTP: the paths and query parameters of their
``RestService`` (``POST /subjects/{s}/versions?normalize=false`` to
register, ``POST /subjects/{s}?normalize=false&deleted=false`` to look up
without registering, ``GET /schemas/ids/{id}?fetchMaxId=false&subject=S``
in the deserializer, ``GET /subjects/{s}/versions/latest`` with
``use.latest.version``), their headers (``Content-Type`` and ``Accept`` of
``application/vnd.schemaregistry.v1+json``), and the answers they parse:
the JSON content type, ``{"id"}`` for a registration, ``schemaType`` left
out for Avro, and errors as ``{"error_code", "message"}`` with Confluent's
codes, which the Java client turns into ``RestClientException``.
"""

from __future__ import annotations

import http.client
import json
from urllib.parse import quote, urlsplit

import pytest

pytestmark = pytest.mark.timeout(120)

JAVA_HEADERS = {  # io.confluent.kafka.schemaregistry.client.rest.RestService
    "Content-Type": "application/vnd.schemaregistry.v1+json",
    "Accept": "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json; qs=0.9, "
              "application/json; qs=0.5",
}
AVRO = json.dumps({"type": "record", "name": "Order", "namespace": "shop",
                   "fields": [{"name": "id", "type": "long"}, {"name": "item", "type": "string"}]})


class Java:
    """One keep-alive connection, as the Java client's HttpURLConnection keeps."""

    def __init__(self, url: str) -> None:
        u = urlsplit(url)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)

    def call(self, method: str, path: str, body=None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        self.conn.request(method, path, body=data, headers=headers or JAVA_HEADERS)
        r = self.conn.getresponse()
        raw = r.read()
        return r.status, r.getheader("Content-Type"), json.loads(raw)


@pytest.fixture
def java(kwire_broker):
    j = Java(kwire_broker.schema_registry_url)
    yield j
    j.conn.close()


def test_serializer_and_deserializer_requests(java):
    subject = quote("orders-value", safe="")
    # KafkaAvroSerializer with auto.register.schemas=true (the default)
    status, ctype, body = java.call("POST", f"/subjects/{subject}/versions?normalize=false",
                                    {"schema": AVRO, "schemaType": "AVRO", "references": []})
    assert (status, ctype) == (200, "application/vnd.schemaregistry.v1+json")
    assert list(body) == ["id"] and isinstance(body["id"], int)
    sid = body["id"]
    # older clients leave schemaType out for Avro: the same schema, the same id
    assert java.call("POST", f"/subjects/{subject}/versions?normalize=false", {"schema": AVRO})[2] == {"id": sid}
    # KafkaAvroDeserializer: the schema by id, with the subject it expects
    status, ctype, body = java.call("GET", f"/schemas/ids/{sid}?fetchMaxId=false&subject={subject}")
    assert (status, ctype) == (200, "application/vnd.schemaregistry.v1+json")
    assert "schemaType" not in body and json.loads(body["schema"]) == json.loads(AVRO)
    # auto.register.schemas=false: a lookup of the schema under the subject
    status, _, body = java.call("POST", f"/subjects/{subject}?normalize=false&deleted=false", {"schema": AVRO})
    assert status == 200 and (body["subject"], body["version"], body["id"]) == ("orders-value", 1, sid)
    # use.latest.version=true
    status, _, body = java.call("GET", f"/subjects/{subject}/versions/latest")
    assert status == 200 and body["id"] == sid and body["version"] == 1
    # the JSON Schema and Protobuf serializers send their schemaType
    status, _, body = java.call("POST", "/subjects/json-value/versions?normalize=false",
                                {"schema": '{"type":"object"}', "schemaType": "JSON", "references": []})
    assert status == 200
    status, _, got = java.call("GET", f"/schemas/ids/{body['id']}?fetchMaxId=false&subject=json-value")
    assert status == 200 and got["schemaType"] == "JSON"
    # a request body sent as plain application/json (curl, other clients) is the same
    status, _, body = java.call("POST", f"/subjects/{subject}/versions", {"schema": AVRO},
                                headers={"Content-Type": "application/json"})
    assert (status, body) == (200, {"id": sid})


def test_errors_the_java_client_parses(java):
    """Each error is JSON with error_code and message (RestClientException carries both)."""
    def err(method, path, body=None):
        status, ctype, got = java.call(method, path, body)
        assert ctype == "application/vnd.schemaregistry.v1+json"
        assert set(got) == {"error_code", "message"} and isinstance(got["message"], str)
        return status, got["error_code"], got["message"]

    assert err("GET", "/schemas/ids/4242?fetchMaxId=false&subject=x-value") == (404, 40403, "Schema 4242 not found")
    assert err("GET", "/subjects/missing-value/versions/latest") == (404, 40401, "Subject 'missing-value' not found.")
    assert err("POST", "/subjects/missing-value?normalize=false&deleted=false", {"schema": AVRO})[:2] == (404, 40401)
    assert err("POST", "/subjects/bad-value/versions?normalize=false", {"schema": "{not avro"})[:2] == (422, 42201)
    # a change the subject's compatibility (BACKWARD) refuses: 409, as the serializer reports it
    assert java.call("POST", "/subjects/evolve-value/versions?normalize=false", {"schema": AVRO})[0] == 200
    incompatible = json.loads(AVRO)
    incompatible["fields"].append({"name": "qty", "type": "int"})  # no default: old data unreadable
    status, code, message = err("POST", "/subjects/evolve-value/versions?normalize=false",
                                {"schema": json.dumps(incompatible)})
    assert (status, code) == (409, 409) and "incompatible" in message
    status, _, body = java.call("POST", "/subjects/evolve-value?normalize=false&deleted=false",
                                {"schema": json.dumps(incompatible)})
    assert (status, body["error_code"]) == (404, 40403)  # the lookup of a schema never registered
