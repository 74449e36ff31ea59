"""Capture the ApiVersions request frames real clients send, as golden files.

    python tests/golden/capture_apiversions.py [--clients kafka-python,aiokafka,confluent-kafka,java]

A plain TCP listener on a free loopback port reads the first frame of every
connection a client makes (the ApiVersions request every modern client sends
first), closes the connection, and stores the frame without its 4-byte size
prefix as ``tests/golden/<client>/api_versions_v<N>_request.bin``.  Each client
runs in a subprocess that is stopped once a frame has arrived.  Nothing from
kwire is needed to capture; the script only uses kwire's codec to print what
was captured.

File naming (shared with later captures of other APIs):
``<client>/<api in snake case>_v<version>_<request|response>.bin``.

The Java client needs ``javac``/``java`` and the jars in /tmp/wheels/jars
(kafka-clients plus its runtime dependencies).
"""

from __future__ import annotations

import argparse
import socket
import struct
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
JARS = Path("/tmp/wheels/jars")

PY_CLIENTS = {
    "kafka-python": """
        from kafka import KafkaAdminClient
        KafkaAdminClient(bootstrap_servers=BOOTSTRAP, request_timeout_ms=3000)
    """,
    "aiokafka": """
        import asyncio
        from aiokafka import AIOKafkaProducer
        async def main():
            p = AIOKafkaProducer(bootstrap_servers=BOOTSTRAP, request_timeout_ms=3000)
            await p.start()
        asyncio.run(main())
    """,
    "confluent-kafka": """
        from confluent_kafka.admin import AdminClient
        AdminClient({"bootstrap.servers": BOOTSTRAP}).list_topics(timeout=5)
    """,
}

JAVA_SOURCE = """
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

public class Capture {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        try (Admin admin = Admin.create(p)) {
            admin.describeCluster().nodes().get();
        } catch (Exception e) {
            // expected: the capture listener never answers
        }
    }
}
"""


class Listener:
    """Accepts connections and keeps the first frame of each."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.frames: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _read_exact(self, conn, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError("closed early")
            data += chunk
        return data

    def _run(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            try:
                conn.settimeout(5)
                (size,) = struct.unpack(">i", self._read_exact(conn, 4))
                self.frames.append(self._read_exact(conn, size))
            except (OSError, ConnectionError, struct.error):
                pass
            finally:
                conn.close()

    def wait(self, count: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.frames) >= count:
                return True
            time.sleep(0.05)
        return False

    def close(self):
        self._stop.set()
        self._thread.join()
        self.sock.close()


def _java_command(workdir: Path, bootstrap: str) -> list[str] | None:
    jars = sorted(JARS.glob("*.jar"))
    if not jars:
        return None
    cp = ":".join(str(j) for j in jars)
    src = workdir / "Capture.java"
    src.write_text(JAVA_SOURCE)
    subprocess.run(["javac", "-cp", cp, "-d", str(workdir), str(src)], check=True)
    return ["java", "-cp", f"{cp}:{workdir}", "Capture", bootstrap]


def capture(client: str, timeout: float = 30.0) -> list[bytes]:
    listener = Listener()
    bootstrap = f"127.0.0.1:{listener.port}"
    with tempfile.TemporaryDirectory() as tmp:
        if client == "java":
            cmd = _java_command(Path(tmp), bootstrap)
            if cmd is None:
                print("java: no jars, skipped")
                return []
        else:
            code = f"BOOTSTRAP = {bootstrap!r}\n" + textwrap.dedent(PY_CLIENTS[client])
            cmd = [sys.executable, "-c", code]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            listener.wait(1, timeout)
        finally:
            proc.kill()
            proc.wait()
            listener.close()
    return listener.frames


def _describe(frame: bytes) -> tuple[str, int, str]:
    sys.path.insert(0, str(HERE.parents[1]))
    from kwire.codegen.model import snake
    from kwire.protocol import codec

    header, _ = codec.decode_request_header(frame)
    spec = codec.APIS[header.request_api_key]
    return snake(spec.name), header.request_api_version, header.client_id


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", default="kafka-python,aiokafka,confluent-kafka,java")
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)
    status = 0
    for client in args.clients.split(","):
        frames = capture(client)
        if not frames:
            print(f"{client}: nothing captured")
            status = 1
            continue
        frame = frames[0]
        api, version, client_id = _describe(frame)
        path = args.out / client / f"{api}_v{version}_request.bin"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(frame)
        print(f"{client}: {path.relative_to(args.out)} ({len(frame)} bytes, client_id={client_id!r})")
    return status


if __name__ == "__main__":
    sys.exit(main())
