#!/usr/bin/env python3
"""Capture real clients' request frames as golden bytes for the codec tests.

    python tests/golden/capture_frames.py [--clients kafka-python,aiokafka,confluent-kafka,java,kcat]
                                          [--overwrite] [--out tests/golden]

For each client this starts a kwire broker (``ThreadedBroker``) and, in front
of it, a recording TCP proxy on another loopback port::

    client ──► proxy 127.0.0.1:P ──► broker 127.0.0.1:B
                 │ writes <out>/<client>/<api>_v<N>_request.bin

The proxy forwards bytes unchanged in both directions. On the way in it cuts
the stream into frames (int32 size + payload) and writes each request payload
(the frame without its 4-byte size: request header + body) for the first
request of every (api key, version) pair. ``<api>`` is the name of the
generated request module without ``_request`` (``list_offsets_v9_request.bin``).

Clients that learn broker addresses from Metadata (librdkafka, Java, and the
Python clients too) must keep talking through the proxy, so the broker
advertises the proxy: ``advertised.listeners=PLAINTEXT://127.0.0.1:P``.

The client then creates a topic, produces keyed records with headers (gzip and
uncompressed), reads them back with assign + seek, and asks for offsets by
time, earliest and latest: ApiVersions, Metadata, CreateTopics, Produce,
(InitProducerId), ListOffsets and Fetch at least.

Clients: the Python facades of tests/integration/clients.py (kafka-python,
aiokafka, confluent-kafka); ``java``, the Kafka Java client through
tests/java/KwireClient.java (``javaclient.run``: create-topic, produce,
consume, offsets; needs a JDK and kafka-clients-4.3.0.jar, see javaclient.py);
and ``kcat`` (the kcat binary on PATH, its own librdkafka). The Java client's
ApiVersions frame comes from this script too when no file holds it yet
(capture_apiversions.py captured the existing one).

Existing files are kept unless ``--overwrite`` (frames carry client ids,
correlation ids and timestamps, so a rerun would change every file).
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import struct
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "integration"))

from clients import CLIENTS, Msg, make_msgs  # noqa: E402

REQUIRED = ("metadata", "produce", "fetch", "list_offsets")


def api_name(api_key: int) -> str:
    try:
        from kwire.protocol.generated import APIS

        return APIS[api_key][1].removesuffix("_request")
    except (ImportError, KeyError):
        return f"api{api_key}"


class RecordingProxy:
    """A loopback TCP proxy on its own event loop thread, recording request frames."""

    def __init__(self, out_dir: Path, overwrite: bool) -> None:
        self.out_dir = out_dir
        self.overwrite = overwrite
        self.seen: dict[tuple[int, int], str] = {}   # (api key, version) -> file name
        self.upstream: tuple[str, int] | None = None
        self.errors: list[str] = []
        self._lock = threading.Lock()
        # Bind now so the broker can advertise the port before it starts.
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.loop = asyncio.new_event_loop()
        self._server = None
        self._thread = threading.Thread(target=self.loop.run_forever, name="golden-proxy", daemon=True)

    def start(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self._thread.start()
        fut = asyncio.run_coroutine_threadsafe(self._serve(), self.loop)
        fut.result(10)

    async def _serve(self) -> None:
        self._server = await asyncio.start_server(self._handle, sock=self.sock)

    async def _handle(self, c_reader: asyncio.StreamReader, c_writer: asyncio.StreamWriter) -> None:
        try:
            u_reader, u_writer = await asyncio.open_connection(*self.upstream)
        except OSError as e:
            self.errors.append(f"upstream connect failed: {e}")
            c_writer.close()
            return
        await asyncio.gather(self._pump(c_reader, u_writer, record=True),
                             self._pump(u_reader, c_writer, record=False))

    async def _pump(self, reader, writer, record: bool) -> None:
        buf = bytearray()
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
                if record:
                    buf += data
                    while len(buf) >= 4:
                        (size,) = struct.unpack_from(">i", buf, 0)
                        if len(buf) < 4 + size:
                            break
                        self._record(bytes(buf[4:4 + size]))
                        del buf[:4 + size]
        except (ConnectionError, OSError):
            pass
        finally:
            try:
                writer.close()
            except RuntimeError:
                pass

    def _record(self, frame: bytes) -> None:
        if len(frame) < 4:
            self.errors.append(f"short frame {frame!r}")
            return
        api_key, version = struct.unpack_from(">hh", frame, 0)
        with self._lock:
            if (api_key, version) in self.seen:
                return
            name = f"{api_name(api_key)}_v{version}_request.bin"
            self.seen[(api_key, version)] = name
        path = self.out_dir / name
        if path.exists() and not self.overwrite:
            return
        self.out_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(frame)
        tmp.replace(path)

    def stop(self) -> None:
        async def close():
            if self._server is not None:
                self._server.close()
        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(close(), self.loop).result(5)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5)
        self.loop.close()


def start_broker(data_dir: str, advertised_port: int, extra: dict | None = None):
    from kwire.config import BrokerConfig
    from kwire.server.app import ThreadedBroker

    cfg = {"listeners": "PLAINTEXT://127.0.0.1:0",
           "advertised.listeners": f"PLAINTEXT://127.0.0.1:{advertised_port}",
           "log.dirs": data_dir, "group.initial.rebalance.delay.ms": "0", **(extra or {})}
    tb = ThreadedBroker(BrokerConfig.load(None, cfg))
    return tb, tb.server.bound[0]


def java_workload(bootstrap: str) -> None:
    import javaclient

    if javaclient.jar_dir() is None:
        raise SystemExit(f"java: {javaclient.KAFKA_CLIENTS_JAR} not found in "
                         f"{[str(d) for d in javaclient.candidate_jar_dirs()]}")
    topic = f"golden-java-{int(time.time())}"
    base = int(time.time() * 1000) - 3_600_000
    javaclient.run("create-topic", bootstrap, topic, "3")
    ends = {0: 0, 1: 0, 2: 0}
    with tempfile.TemporaryDirectory(prefix="kwire-golden-java-") as tmp:
        for codec, msgs in (("none", make_msgs(12, tag="golden", base_ts=base)),
                            ("gzip", make_msgs(6, tag="gz", base_ts=base + 1000))):
            inp = javaclient.write_produce_input(
                Path(tmp) / f"{codec}.tsv", [(m.key, m.value, m.headers, m.timestamp) for m in msgs])
            for x in javaclient.run("produce", bootstrap, topic, codec, str(inp)):
                if x["type"] == "sent":
                    ends[x["partition"]] = max(ends[x["partition"]], x["offset"] + 1)
    spec = ",".join(f"{p}=b:{n}" for p, n in ends.items())
    got = [x for x in javaclient.run("consume", bootstrap, topic, "read_uncommitted", spec)
           if x["type"] == "record"]
    if len(got) != sum(ends.values()):
        raise SystemExit(f"java: produced {sum(ends.values())} records, consumed {len(got)}")
    javaclient.run("offsets", bootstrap, topic, f"{base + 5},{base}")


def kcat_workload(bootstrap: str) -> None:
    from clients import kcat

    topic = f"golden-kcat-{int(time.time())}"
    base = int(time.time() * 1000) - 3_600_000
    # kcat has no admin command: its first produce auto-creates the topic
    # (BROKER_CONFIG below turns auto-creation on for kcat's broker only).
    lines = "".join(f"key-{i % 5}:golden-value-{i} {'payload ' * 10}\n" for i in range(12))
    for codec in ("none", "gzip"):
        r = kcat("-b", bootstrap, "-P", "-t", topic, "-K:", "-H", "seq=1", "-H", "trace=abc-1",
                 "-z", codec, "-X", "message.timeout.ms=15000", input=lines)
        if r.returncode != 0:
            raise SystemExit(f"kcat produce: {r}")
    r = kcat("-b", bootstrap, "-C", "-t", topic, "-e", "-q", "-f", "%p|%o|%k\n")
    if r.returncode != 0 or len(r.stdout.splitlines()) != 24:
        raise SystemExit(f"kcat consume: {r}")
    for args in (["-L", "-J", "-t", topic], ["-C", "-t", topic, "-p", "0", "-o", f"s@{base}", "-e", "-q"]):
        r = kcat("-b", bootstrap, *args)
        if r.returncode != 0:
            raise SystemExit(f"kcat {' '.join(args)}: {r}")


EXTRA_CLIENTS = {"java": java_workload, "kcat": kcat_workload}
# Broker settings a client's workload needs beyond start_broker's.
BROKER_CONFIG = {"kcat": {"auto.create.topics.enable": "true", "num.partitions": "3"}}


def workload(client_name: str, bootstrap: str) -> None:
    if client_name in EXTRA_CLIENTS:
        return EXTRA_CLIENTS[client_name](bootstrap)
    c = CLIENTS[client_name](bootstrap)
    topic = f"golden-{client_name}-{int(time.time())}"
    base = int(time.time() * 1000) - 3_600_000
    c.create_topic(topic, partitions=3)
    msgs = make_msgs(12, tag="golden", base_ts=base)
    sent = c.produce(topic, msgs, compression="none")
    sent += c.produce(topic, make_msgs(6, tag="gz", base_ts=base + 1000), compression="gzip")
    sent += c.produce(topic, [Msg(None, b"acks1", (("h", b"1"),), base + 2000, 0)], acks="1")
    got = c.consume(topic, [0, 1, 2], len(sent))
    if len(got) != len(sent):
        raise SystemExit(f"{client_name}: produced {len(sent)} records, consumed {len(got)}")
    c.offsets_for_times(topic, {0: base + 5, 1: base})
    c.end_offsets(topic, [0, 1, 2])
    c.beginning_offsets(topic, [0, 1, 2])


def capture(client_name: str, out: Path, overwrite: bool) -> dict[tuple[int, int], str]:
    proxy = RecordingProxy(out / client_name, overwrite)
    with tempfile.TemporaryDirectory(prefix="kwire-golden-") as data_dir:
        tb, bound = start_broker(data_dir, proxy.port, BROKER_CONFIG.get(client_name))
        try:
            proxy.start(bound)
            workload(client_name, f"127.0.0.1:{proxy.port}")
        finally:
            tb.stop()
            proxy.stop()
    if proxy.errors:
        raise SystemExit(f"{client_name}: proxy errors: {proxy.errors}")
    return proxy.seen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", default=",".join([*CLIENTS, *EXTRA_CLIENTS]))
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--overwrite", action="store_true", help="replace existing files")
    args = ap.parse_args(argv)
    missing = []
    for name in args.clients.split(","):
        t0 = time.monotonic()
        seen = capture(name, args.out, args.overwrite)
        files = sorted(seen.values())
        print(f"{name}: {len(files)} request kinds in {time.monotonic() - t0:.1f}s: {' '.join(files)}")
        apis = {f.rsplit("_v", 1)[0] for f in files}
        missing += [f"{name}:{a}" for a in REQUIRED if a not in apis]
    if missing:
        print(f"missing required captures: {' '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
