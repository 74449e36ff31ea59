"""The web console's HTTP API against a broker with real traffic (kafka-python clients).

* off unless configured;
* cluster, topics, topic detail (leader, replicas, ISR, offsets, sizes), the
  record browser (from an offset, from a timestamp, newest; UTF-8, pretty
  JSON, binary as hex; headers), groups with members, assignments and lag
  (and its history), through the broker's own Kafka API;
* create / delete topic and reset offsets: need the X-Kwire-Console header and,
  for deletion and resets, the name typed again; Kafka's refusals (topic
  exists, group has members, unknown topic) come back as 4xx with Kafka's error
  name; read-only mode answers 403 and changes nothing;
* malformed HTTP and unknown paths answer 4xx, and the Kafka listener keeps serving.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request

import pytest
from kafka import KafkaConsumer, KafkaProducer, OffsetAndMetadata, TopicPartition

pytestmark = pytest.mark.timeout(180)


class Console:
    def __init__(self, broker) -> None:
        host, port = broker.server.console.addresses[0]
        self.base = f"http://{host}:{port}"
        self.addr = (host, port)

    def get(self, path: str):
        try:
            with urllib.request.urlopen(self.base + path, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def post(self, path: str, body: dict, header: bool = True):
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"X-Kwire-Console": "1"} if header else {})})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")


def raw(addr, data: bytes) -> bytes:
    with socket.create_connection(addr, timeout=10) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out


@pytest.fixture
def traffic(make_broker, topic_name):
    """A broker with the console on, 3 partitions of records, and a group with committed offsets."""
    b = make_broker(overrides={"console.port": "0"})
    producer = KafkaProducer(bootstrap_servers=b.bootstrap)
    t0 = int(time.time() * 1000) - 60_000
    for i in range(30):
        value = json.dumps({"n": i, "text": "héllo"}).encode() if i % 3 == 0 else \
            bytes([0, 159, 146, 150, i]) if i % 3 == 1 else f"plain {i}".encode()
        producer.send(topic_name, key=f"key-{i}".encode(), value=value, partition=0,
                      headers=[("trace", b"abc"), ("bin", b"\xff\x00")], timestamp_ms=t0 + i * 1000)
    producer.flush()
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=b.bootstrap, group_id="console-group", enable_auto_commit=False)
    consumer.commit({TopicPartition(topic_name, 0): OffsetAndMetadata(10, None, -1)})
    consumer.close()
    return b, Console(b), t0


def test_console_off_by_default(make_broker):
    assert make_broker().server.console is None


def test_pages_show_the_cluster(traffic, topic_name):
    b, c, t0 = traffic
    code, cl = c.get("/api/cluster")
    assert code == 200 and cl["brokers"][0]["port"] == int(b.bootstrap.rsplit(":", 1)[1])
    assert cl["topics"] >= 1 and cl["under_replicated"] == 0 and cl["controller"] == 0
    code, ts = c.get("/api/topics")
    row = next(t for t in ts["topics"] if t["name"] == topic_name)
    assert row["partitions"] == 1 and row["size"] > 0
    code, t = c.get(f"/api/topics/{topic_name}")
    p0 = t["partitions"][0]
    assert (p0["leader"], p0["replicas"], p0["isr"], p0["start_offset"], p0["end_offset"]) == (0, [0], [0], 0, 30)
    assert p0["size"] == row["size"]

    # newest records by default; then from an offset; then from a timestamp
    code, r = c.get(f"/api/topics/{topic_name}/records?partition=0&limit=5")
    assert [x["offset"] for x in r["records"]] == [25, 26, 27, 28, 29]
    code, r = c.get(f"/api/topics/{topic_name}/records?partition=0&offset=3&limit=3")
    assert [x["offset"] for x in r["records"]] == [3, 4, 5]
    json_rec, bin_rec, text_rec = r["records"]
    assert json_rec["value"]["kind"] == "json" and json.loads(json_rec["value"]["json"]) == {"n": 3, "text": "héllo"}
    assert "\n" in json_rec["value"]["json"]  # pretty-printed
    assert bin_rec["value"]["kind"] == "binary" and bin_rec["value"]["hex"] == "009f929604"
    assert "text" not in bin_rec["value"]
    assert text_rec["value"] == {"size": 7, "hex": b"plain 5".hex(), "truncated": False, "text": "plain 5", "kind": "text"}
    assert json_rec["key"]["text"] == "key-3" and json_rec["timestamp"] == t0 + 3000
    assert [(h["key"], h["value"]["kind"]) for h in json_rec["headers"]] == [("trace", "text"), ("bin", "binary")]
    code, r = c.get(f"/api/topics/{topic_name}/records?partition=0&timestamp={t0 + 20_500}&limit=2")
    assert [x["offset"] for x in r["records"]] == [21, 22]

    code, g = c.get("/api/groups")
    assert {"group": "console-group", "lag": 20} .items() <= next(
        x for x in g["groups"] if x["group"] == "console-group").items()
    code, gd = c.get("/api/groups/console-group")
    assert gd["state"] == "Empty" and gd["total_lag"] == 20
    assert gd["offsets"] == [{"topic": topic_name, "partition": 0, "committed": 10, "end_offset": 30, "lag": 20,
                              "member": None}]
    assert gd["history"] and gd["history"][-1]["lag"] == 20


def test_group_members_and_assignments(traffic, topic_name):
    b, c, _ = traffic
    consumer = KafkaConsumer(topic_name, bootstrap_servers=b.bootstrap, group_id="live-group",
                             client_id="console-test-client", auto_offset_reset="earliest",
                             enable_auto_commit=False)
    deadline = time.monotonic() + 60
    got = 0
    while got == 0 and time.monotonic() < deadline:
        got = sum(len(v) for v in consumer.poll(timeout_ms=500).values())
    consumer.commit()
    try:
        code, gd = c.get("/api/groups/live-group")
        assert code == 200 and gd["state"] == "Stable", gd
        [m] = gd["members"]
        assert m["client_id"] == "console-test-client" and m["assignment"] == {topic_name: [0]}
        assert gd["offsets"][0]["member"] == m["member_id"]
        # a reset while the group has members is refused, as Kafka's tool does
        code, err = c.post("/api/groups/live-group/reset-offsets",
                           {"topic": topic_name, "to": "earliest", "confirm": "live-group"})
        assert code == 409 and err["error"] == "NON_EMPTY_GROUP"
    finally:
        consumer.close()


def test_changes_behind_confirmation(traffic, topic_name):
    b, c, _ = traffic
    assert c.post("/api/topics", {"name": "made-here", "partitions": 3}, header=False)[0] == 403
    code, res = c.post("/api/topics", {"name": "made-here", "partitions": 3})
    assert code == 200, res
    assert len(c.get("/api/topics/made-here")[1]["partitions"]) == 3
    code, err = c.post("/api/topics", {"name": "made-here", "partitions": 1})
    assert code == 409 and err["error"] == "TOPIC_ALREADY_EXISTS"
    # deletion needs the name typed again
    assert c.post("/api/topics/made-here/delete", {})[0] == 400
    assert c.post("/api/topics/made-here/delete", {"confirm": "other"})[0] == 400
    assert c.post("/api/topics/made-here/delete", {"confirm": "made-here"})[0] == 200
    code, err = c.get("/api/topics/made-here")
    deadline = time.monotonic() + 30
    while code == 200 and time.monotonic() < deadline:
        time.sleep(0.1)
        code, err = c.get("/api/topics/made-here")
    assert code == 404 and err["error"] == "UNKNOWN_TOPIC_OR_PARTITION"
    code, err = c.post("/api/topics/missing-topic/delete", {"confirm": "missing-topic"})
    assert code == 404 and err["error"] == "UNKNOWN_TOPIC_OR_PARTITION"
    # reset offsets of the empty group
    assert c.post("/api/groups/console-group/reset-offsets", {"topic": topic_name, "to": "latest"})[0] == 400
    code, res = c.post("/api/groups/console-group/reset-offsets",
                       {"topic": topic_name, "to": "offset", "value": 25, "confirm": "console-group"})
    assert code == 200 and res["offsets"] == [{"partition": 0, "offset": 25}]
    assert c.get("/api/groups/console-group")[1]["total_lag"] == 5
    code, res = c.post("/api/groups/console-group/reset-offsets",
                       {"topic": topic_name, "to": "offset", "value": 10_000, "confirm": "console-group"})
    assert res["offsets"] == [{"partition": 0, "offset": 30}]  # clamped to the log end
    code, err = c.post("/api/groups/console-group/reset-offsets",
                       {"topic": "missing-topic", "to": "earliest", "confirm": "console-group"})
    assert code == 404 and err["error"] == "UNKNOWN_TOPIC_OR_PARTITION"


def test_read_only(make_broker, topic_name):
    b = make_broker(overrides={"console.listeners": "HTTP://127.0.0.1:0", "console.read.only": "true"})
    c = Console(b)
    producer = KafkaProducer(bootstrap_servers=b.bootstrap)
    producer.send(topic_name, b"x").get(timeout=30)
    producer.close()
    assert c.get("/api/cluster")[1]["read_only"] is True
    code, err = c.post("/api/topics", {"name": "nope", "partitions": 1})
    assert code == 403 and err["error"] == "READ_ONLY"
    code, err = c.post(f"/api/topics/{topic_name}/delete", {"confirm": topic_name})
    assert code == 403
    assert c.get(f"/api/topics/{topic_name}")[0] == 200
    assert c.get("/api/topics/nope")[0] == 404


def test_bad_http_and_unknown_paths(traffic, topic_name):
    b, c, _ = traffic
    assert c.get("/api/nothing")[0] == 404
    assert c.get("/api/topics/no-such-topic")[0] == 404
    assert c.get(f"/api/topics/{topic_name}/records?partition=7")[0] == 404
    assert c.get(f"/api/topics/{topic_name}/records?partition=x")[0] == 400
    assert c.get("/api/groups/no-such-group")[0] == 404
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(c.base + "/static/../server.py", timeout=10)
    assert e.value.code == 404
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(c.base + "/nothing-here", timeout=10)
    assert e.value.code == 404
    assert raw(c.addr, b"\x00\x01garbage\r\n\r\n").split(b" ")[1] == b"400"
    assert raw(c.addr, b"GET / HTTP/1.1\r\n" + b"X: " + b"y" * 70000 + b"\r\n\r\n").split(b" ")[1].startswith(b"4")
    assert raw(c.addr, b"DELETE /api/topics HTTP/1.1\r\nHost: x\r\n\r\n").split(b" ")[1] == b"405"
    bad_json = (b"POST /api/topics HTTP/1.1\r\nHost: x\r\nX-Kwire-Console: 1\r\nContent-Length: 5\r\n\r\n{nope")
    assert raw(c.addr, bad_json).split(b" ")[1] == b"400"
    huge = b"POST /api/topics HTTP/1.1\r\nHost: x\r\nX-Kwire-Console: 1\r\nContent-Length: 999999999\r\n\r\n"
    assert raw(c.addr, huge).split(b" ")[1] == b"413"
    page = urllib.request.urlopen(c.base + "/", timeout=10).read()
    assert b"kwire console" in page and urllib.request.urlopen(c.base + "/static/app.js", timeout=10).status == 200
    # the Kafka listener is unaffected
    producer = KafkaProducer(bootstrap_servers=b.bootstrap)
    producer.send(topic_name, b"after bad http", partition=0).get(timeout=30)
    producer.close()
    assert c.get(f"/api/topics/{topic_name}")[1]["partitions"][0]["end_offset"] == 31
