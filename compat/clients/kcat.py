"""kcat facade: the Debian ``kcat`` binary (librdkafka), driven through its command line.

kcat produces from stdin (``-K`` key delimiter, ``-H`` headers for the whole
invocation, ``-Z`` empty means NULL), consumes with ``-J`` (one JSON envelope a
line, headers as a flat name/value list), lists metadata with ``-L -J``, looks
up offsets with ``-Q`` and joins groups with ``-G``. What it cannot express
shapes its ``Caps``: no chosen timestamps, text only, no offsets reported to
the producer, no commit metadata.

kcat has no admin API. Topics are created and removed, and groups deleted,
through librdkafka's admin API (the confluent-kafka package, the same library
kcat is built on); the admin scenarios are N/A for kcat.
"""

from __future__ import annotations

import json
import shutil
import subprocess

from compat.clients.base import OP_TIMEOUT, Caps, Client, Delivery, NotApplicable, Rec, Skipped


class KcatClient(Client):
    name = "kcat"
    caps = Caps(binary=False, timestamps=False, null_values=True, offsets_known=False,
                commit_metadata=False)

    def __init__(self, bootstrap: str) -> None:
        super().__init__(bootstrap)
        self.exe = shutil.which("kcat") or shutil.which("kafkacat")
        if self.exe is None:
            raise Skipped("kcat is not installed (Debian package kcat)")

    def version(self) -> str:
        out = subprocess.run([self.exe, "-V"], capture_output=True, text=True, timeout=10).stdout
        line = next((ln for ln in out.splitlines() if ln.startswith("Version")), "?")
        return line.replace("Version ", "").split(" (")[0] + (
            " (librdkafka " + line.split("librdkafka ")[1].split()[0] + ")" if "librdkafka " in line else "")

    def _kcat(self, *args: str, input: bytes | None = None, timeout: float = OP_TIMEOUT + 10):
        argv = [self.exe, "-b", self.bootstrap, "-X", "client.id=kwire-compat", *args]
        try:
            return subprocess.run(argv, input=input, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            raise TimeoutError(f"kcat {' '.join(args[:6])} did not finish within {timeout:.0f}s; "
                               f"stderr: {_tail(e.stderr)}") from None

    # -- what kcat cannot do: librdkafka's admin API -----------------------------------
    def _admin(self):
        from compat.clients.confluent import ConfluentClient

        return ConfluentClient(self.bootstrap)

    def create_topic(self, topic, partitions, configs=None):
        self._admin().create_topic(topic, partitions, configs)

    def delete_topics(self, topics):
        self._admin().delete_topics(topics)

    def delete_group(self, group):
        self._admin().delete_group(group)

    def committed(self, group, topic):
        raise NotApplicable("kcat cannot read committed offsets")

    def describe_configs(self, topic):
        raise NotApplicable("kcat has no admin API")

    def delete_records(self, topic, before):
        raise NotApplicable("kcat has no admin API")

    def create_partitions(self, topic, total):
        raise NotApplicable("kcat has no admin API")

    # -- kcat itself --------------------------------------------------------------------
    def partition_leaders(self, topic):
        p = self._kcat("-L", "-J", "-t", topic, "-m", str(int(OP_TIMEOUT)))
        if p.returncode != 0:
            raise AssertionError(f"kcat -L exited {p.returncode}: {_tail(p.stderr)}")
        (tm,) = json.loads(p.stdout)["topics"]
        if tm.get("error"):
            raise AssertionError(f"kcat -L {topic}: {tm['error']}")
        return {pm["partition"]: pm["leader"] for pm in tm["partitions"]}

    def produce(self, topic, msgs, *, compression="none", acks="all"):
        # One kcat run per run of records sharing partition and headers (-p and -H are
        # per invocation); records are lines "key<TAB>value", empty meaning NULL (-Z).
        groups: list[tuple[tuple, list]] = []
        for m in msgs:
            k = (m.partition, m.headers)
            if not groups or groups[-1][0] != k:
                groups.append((k, []))
            groups[-1][1].append(m)
        out: list[Delivery] = []
        for (partition, headers), ms in groups:
            args = ["-P", "-t", topic, "-K", "\t", "-Z", "-X", f"acks={acks}",
                    "-X", f"compression.codec={compression}", "-X", "linger.ms=20"]
            if partition is not None:
                args += ["-p", str(partition)]
            for name, value in headers:
                args += ["-H", f"{name}={(value or b'').decode()}"]
            lines = b"".join((m.key or b"") + b"\t" + (m.value or b"") + b"\n" for m in ms)
            for m in ms:
                for field in (m.key, m.value):
                    if field and (b"\n" in field or b"\t" in field):
                        raise ValueError("kcat records cannot contain tab or newline")
            p = self._kcat(*args, input=lines)
            err = _tail(p.stderr) if p.returncode != 0 or b"Delivery failed" in p.stderr else None
            too_large = err is not None and ("too large" in err.lower() or "MSG_SIZE_TOO_LARGE" in err)
            out += [Delivery(partition, None, err, too_large) for _ in ms]
        return out

    @staticmethod
    def _rec(env: dict) -> Rec:
        hs = env.get("headers") or []
        headers = tuple((hs[i], None if hs[i + 1] is None else hs[i + 1].encode())
                        for i in range(0, len(hs), 2))
        enc = (lambda s: None if s is None else s.encode())
        return Rec(env["partition"], env["offset"], enc(env["key"]), enc(env["payload"]), headers, env["ts"])

    def _consume(self, *args: str, timeout: float) -> list[Rec]:
        p = self._kcat("-C", "-J", "-Z", "-q", *args, timeout=timeout)
        recs = [self._rec(json.loads(line)) for line in p.stdout.decode().splitlines() if line.startswith("{")]
        if p.returncode != 0 and not recs:
            raise AssertionError(f"kcat -C {' '.join(args)} exited {p.returncode}: {_tail(p.stderr)}")
        return recs

    def fetch(self, topic, starts, count, timeout=OP_TIMEOUT):
        out: list[Rec] = []
        for partition, start in starts.items():
            offset = "beginning" if start == "earliest" else str(start)
            out += self._consume("-t", topic, "-p", str(partition), "-o", offset, "-e", timeout=timeout)
        return out[:count]

    def list_offsets(self, topic, partitions, spec):
        ts = {"earliest": -2, "latest": -1}.get(spec, spec)
        out = {}
        for partition in partitions:  # -Q takes each partition once per run
            p = self._kcat("-Q", "-t", f"{topic}:{partition}:{ts}")
            text = p.stdout.decode()
            if p.returncode != 0 or " offset " not in text:
                raise AssertionError(f"kcat -Q {topic}:{partition}:{ts} exited {p.returncode}: "
                                     f"{text.strip()} {_tail(p.stderr)}")
            off = int(text.rsplit(" offset ", 1)[1].split()[0])
            out[partition] = None if off < 0 else off
        return out

    def group_read(self, topic, group, count, *, metadata, timeout=45.0):
        # -G: subscribe; -c: stop after ``count`` records; on exit librdkafka commits the
        # offsets of the records kcat printed (enable.auto.commit, the default).
        p = self._kcat("-G", group, "-J", "-Z", "-q", "-c", str(count),
                       "-X", "auto.offset.reset=earliest", "-X", "session.timeout.ms=10000",
                       "-X", "heartbeat.interval.ms=1000", topic, timeout=timeout)
        recs = [self._rec(json.loads(line)) for line in p.stdout.decode().splitlines() if line.startswith("{")]
        if p.returncode != 0:
            raise AssertionError(f"kcat -G exited {p.returncode} after {len(recs)} records: {_tail(p.stderr)}")
        return recs


def _tail(b: bytes | str | None, n: int = 400) -> str:
    if not b:
        return ""
    s = b.decode("utf-8", "replace") if isinstance(b, bytes) else b
    return " ".join(s.split())[-n:]
