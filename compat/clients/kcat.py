"""kcat facade: the Debian ``kcat`` binary (librdkafka), driven through its command line.

kcat produces from stdin (``-K`` key delimiter, ``-H`` headers for the whole
invocation, ``-Z`` empty means NULL), consumes with ``-J`` (one JSON envelope a
line, headers as a flat name/value list), lists metadata with ``-L -J``, looks
up offsets with ``-Q`` and joins groups with ``-G``. What it cannot express
shapes its ``Caps``: no chosen timestamps, text only, no offsets reported to
the producer, no commit metadata.

kcat has no admin API. Topics are created and removed, and groups deleted,
through librdkafka's admin API (the confluent-kafka package, the same library
kcat is built on); the admin scenarios are N/A for kcat. error-unknown-topic
reads the broker's auto.create.topics.enable (``broker_config``) the same way.

Two things kcat shows only on stderr: the producer id of an idempotent
producer (librdkafka's ``-d eos`` log, "Acquired PID{Id:N,Epoch:E}") and a
group member's assignment ("% Group G rebalanced (memberid M): assigned: T [0],
T [1]"), which ``group_member`` follows while ``kcat -G`` runs.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import threading
import time

from compat.clients.base import (OP_TIMEOUT, Caps, Client, Delivery, ErrorSeen, GroupMember, NotApplicable, Rec,
                                 Skipped)


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

    def alter_topic_configs(self, topic, set_, delete):
        raise NotApplicable("kcat has no admin API")

    def create_topic_error(self, topic, partitions, replication_factor):
        raise NotApplicable("kcat has no admin API")

    def broker_config(self, broker_id, key):
        return self._admin().broker_config(broker_id, key)

    # -- kcat itself --------------------------------------------------------------------
    def _metadata(self, *args: str) -> dict:
        p = self._kcat("-L", "-J", *args, "-m", str(int(OP_TIMEOUT)))
        if p.returncode != 0:
            raise AssertionError(f"kcat -L exited {p.returncode}: {_tail(p.stderr)}")
        return json.loads(p.stdout)

    def list_topics(self):
        return {tm["topic"] for tm in self._metadata()["topics"]}

    def broker_ids(self):
        return sorted(b["id"] for b in self._metadata()["brokers"])

    def missing_topic_error(self, topic):
        (tm,) = self._metadata("-t", topic, "-X", "allow.auto.create.topics=false")["topics"]
        return ErrorSeen(None, tm["error"]) if tm.get("error") else None

    def partition_leaders(self, topic):
        (tm,) = self._metadata("-t", topic)["topics"]
        if tm.get("error"):
            raise AssertionError(f"kcat -L {topic}: {tm['error']}")
        return {pm["partition"]: pm["leader"] for pm in tm["partitions"]}

    def produce(self, topic, msgs, *, compression="none", acks="all"):
        return self._produce(topic, msgs, ["-X", f"acks={acks}", "-X", f"compression.codec={compression}"])[0]

    def produce_idempotent(self, topic, batches):
        # Each kcat run is a producer of its own: the id shown is the last run's.
        msgs = [m for b in batches for m in b]
        ds, stderr = self._produce(topic, msgs, ["-X", "enable.idempotence=true", "-X", "acks=all", "-d", "eos"])
        pids = re.findall(r"Acquired PID\{Id:(-?\d+),Epoch:(-?\d+)\}", stderr)
        return ds, (int(pids[-1][0]) if pids else -1)

    def produce_to_missing(self, topic, msg):
        ds, _ = self._produce(topic, [msg], ["-X", "topic.metadata.propagation.max.ms=3000",
                                             "-X", "message.timeout.ms=5000"])
        err = ds[0].error
        return None if err is None else ErrorSeen(None, err, timeout="timed out" in err.lower())

    def _produce(self, topic, msgs, extra: list[str]) -> tuple[list[Delivery], str]:
        # One kcat run per run of records sharing partition and headers (-p and -H are
        # per invocation); records are lines "key<TAB>value", empty meaning NULL (-Z).
        groups: list[tuple[tuple, list]] = []
        for m in msgs:
            k = (m.partition, m.headers)
            if not groups or groups[-1][0] != k:
                groups.append((k, []))
            groups[-1][1].append(m)
        out: list[Delivery] = []
        stderr = ""
        for (partition, headers), ms in groups:
            args = ["-P", "-t", topic, "-K", "\t", "-Z", *extra, "-X", "linger.ms=20"]
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
            stderr += p.stderr.decode("utf-8", "replace")
            failed = p.returncode != 0 or b"Delivery failed" in p.stderr
            err = _tail(b"\n".join(ln for ln in p.stderr.splitlines() if not ln.startswith(b"%7|"))) \
                if failed else None
            too_large = err is not None and ("too large" in err.lower() or "MSG_SIZE_TOO_LARGE" in err)
            out += [Delivery(partition, None, err, too_large) for _ in ms]
        return out, stderr

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

    def fetch(self, topic, starts, count, timeout=OP_TIMEOUT, *, max_partition_fetch_bytes=None):
        # ``-e`` stops at the high watermark as it is when kcat gets there. Records that are
        # sent but not yet committed (acks=0 or 1 on a cluster: the followers have not fetched
        # them yet) come later, so read on from where each partition got to until ``count``
        # records are in or the time is up, as the other clients' fetch polls until then.
        out: list[Rec] = []
        size = ["-X", f"max.partition.fetch.bytes={max_partition_fetch_bytes}"] if max_partition_fetch_bytes else []
        nxt = {p: ("beginning" if s == "earliest" else str(s)) for p, s in starts.items()}
        deadline = time.monotonic() + timeout
        while True:
            for partition, offset in nxt.items():
                got = self._consume("-t", topic, "-p", str(partition), "-o", offset, "-e", *size,
                                    timeout=max(1.0, deadline - time.monotonic()))
                out += got
                if got:
                    nxt[partition] = str(got[-1].offset + 1)
            if len(out) >= count or time.monotonic() >= deadline:
                return out[:count]
            time.sleep(0.2)

    def _partition_args(self, topic, partitions) -> list[str]:
        """One partition is ``-p P``; several must be all of the topic's (kcat -C without -p)."""
        if len(partitions) == 1:
            return ["-p", str(partitions[0])]
        have = sorted(self.partition_leaders(topic))
        if sorted(partitions) != have:
            raise ValueError(f"kcat reads one partition or all of them ({have}), not {sorted(partitions)}")
        return []

    _EOF = re.compile(r"^% Reached end of topic (\S+) \[(\d+)\] at offset (\d+)")

    def read_from_end(self, topic, partitions, produce, count, timeout=OP_TIMEOUT):
        # ``-o end`` without -e: kcat waits at the end. Where it got to shows on stderr
        # ("% Reached end of topic T [P] at offset N", kcat's partition-EOF message), which
        # is when it is safe to produce; -c stops it after ``count`` records.
        argv = [self.exe, "-b", self.bootstrap, "-X", "client.id=kwire-compat", "-C", "-J", "-Z",
                "-t", topic, *self._partition_args(topic, partitions), "-o", "end", "-c", str(count)]
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        positions: dict[int, int] = {}
        stderr: list[str] = []
        ready = threading.Event()

        def follow() -> None:
            for raw in proc.stderr:
                line = raw.decode("utf-8", "replace").rstrip()
                stderr.append(line)
                m = self._EOF.match(line)
                if m and m.group(1) == topic:
                    positions.setdefault(int(m.group(2)), int(m.group(3)))
                    if len(positions) == len(partitions):
                        ready.set()
            ready.set()

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        try:
            if not ready.wait(OP_TIMEOUT) or len(positions) < len(partitions):
                raise AssertionError(f"kcat -o end did not reach the end of every partition within "
                                     f"{OP_TIMEOUT:.0f}s (reached {positions}): {_tail(' '.join(stderr[-6:]))}")
            at_end = dict(positions)
            produce()
            try:
                out, _ = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, _ = proc.communicate(timeout=5)
            reader.join(5)
            recs = [self._rec(json.loads(ln)) for ln in out.decode().splitlines() if ln.startswith("{")]
            if proc.returncode != 0 and len(recs) < count:
                raise AssertionError(f"kcat -o end -c {count} exited {proc.returncode} after {len(recs)} records: "
                                     f"{_tail(' '.join(stderr[-6:]))}")
            return at_end, recs
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)

    def read_from_timestamp(self, topic, partitions, timestamp, count, timeout=OP_TIMEOUT):
        # ``-o s@TS``: librdkafka looks the offsets up by timestamp (OFFSET_END where there is
        # none); -e stops at the end. kcat does not print the offsets it found.
        recs = self._consume("-t", topic, *self._partition_args(topic, partitions), "-o", f"s@{timestamp}", "-e",
                             timeout=timeout)
        return {}, recs

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

    def group_member(self, topic, group):
        return _Member(self, topic, group).start()


class _Member(GroupMember):
    """``kcat -G GROUP -J -u TOPIC`` running until ``close()`` (SIGTERM: kcat closes the
    consumer, which commits and leaves the group). Offsets are committed by librdkafka's
    auto-commit every 100 ms, on every revocation and on close."""

    _REBALANCED = re.compile(r"^% Group (\S+) rebalanced \(memberid [^)]*\): (assigned|revoked): (.*)$")

    def __init__(self, client: KcatClient, topic: str, group: str) -> None:
        super().__init__(topic, group)
        self.client = client
        self.stderr: list[str] = []
        argv = [client.exe, "-b", client.bootstrap, "-X", "client.id=kwire-compat", "-G", group, "-J", "-Z", "-u",
                "-X", "auto.offset.reset=earliest", "-X", "session.timeout.ms=10000",
                "-X", "heartbeat.interval.ms=1000", "-X", "auto.commit.interval.ms=100", topic]
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def _run(self):
        threading.Thread(target=self._read_stderr, daemon=True).start()
        for line in self.proc.stdout:
            if line.startswith(b"{"):
                self._got([KcatClient._rec(json.loads(line))])
        code = self.proc.wait()
        if code != 0 and not self._stop.is_set():
            raise AssertionError(f"kcat -G exited {code}: {_tail(' '.join(self.stderr[-6:]))}")

    def _read_stderr(self):
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip()
            self.stderr.append(line)
            m = self._REBALANCED.match(line)
            if m and m.group(2) == "assigned":
                self._got(assigned=[int(p) for p in re.findall(r" \[(\d+)\]", m.group(3))])
            elif m:
                self._got(assigned=[])

    def close(self, timeout=OP_TIMEOUT + 5):
        self._stop.set()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            raise TimeoutError(f"kcat -G {self.group} did not exit within {timeout:.0f}s of SIGTERM") from None
        super().close(timeout)


def _tail(b: bytes | str | None, n: int = 400) -> str:
    if not b:
        return ""
    s = b.decode("utf-8", "replace") if isinstance(b, bytes) else b
    return " ".join(s.split())[-n:]
