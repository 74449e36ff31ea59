"""Compile and run the Java client program in ``tests/java`` against a kwire broker.

Jars come from the first of these directories that holds
``kafka-clients-4.3.0.jar``: ``$KWIRE_JAVA_JARS``, ``${KWIRE_CACHE:-~/.cache/kwire}/jars``
(filled by ``scripts/fetch-java-jars.py``), ``/tmp/wheels/jars``. When none
does, ``require_java()`` skips the calling test with a message naming the jar;
that is the only reason a Java test is skipped. A missing JDK or a compile
error fails the test.

The classpath is kafka-clients plus the newest of each runtime dependency it
loads (slf4j-api, lz4-java, snappy-java, zstd-jni) found beside it; other jars
in the directory are ignored (an old ``lz4-*.jar`` would shadow lz4-java's
classes). Sources are compiled with plain ``javac`` once per source+classpath
hash into ``$TMPDIR/kwire-java-<hash>`` (an atomic rename publishes the
classes, so concurrent sessions share them safely).

``run(command, *args)`` runs ``KwireClient <command> <args...>`` and returns its
JSON lines as dicts; a non-zero exit raises ``JavaClientError`` carrying the
program's stdout and stderr. ``java_argv(main_class, *args)`` is the command line
every Java client run of the suite uses.

A JVM start of a client program costs ~1.2 CPU-s, most of it loading and
verifying the JDK's and kafka-clients' classes; with a class-data-sharing
archive of those classes it costs ~0.6 CPU-s. The archive is made once per
machine (per JDK, jars and sources) under ``${KWIRE_CACHE:-~/.cache/kwire}/cds``:
``KwireClient`` creates a topic, produces and consumes against an in-process
broker with ``-XX:DumpLoadedClassList``, and ``java -Xshare:dump`` archives the
union (~10 CPU-s, under a file lock so xdist workers make it once). CDS takes
only jars on the classpath, so the compiled classes are also zipped into a jar.
When the archive cannot be made, runs go on without it (slower, same
behaviour); ``KWIRE_TEST_JAVA_CDS=0`` turns it off; the quick tier uses it but does
not make it. The JVM's own warnings go to
stderr (by default they go to stdout, among the programs' JSON lines).
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
import warnings
import zipfile
from pathlib import Path

import pytest

KAFKA_CLIENTS_JAR = "kafka-clients-4.3.0.jar"
MAIN_CLASS = "KwireClient"
JAVA_SOURCES = Path(__file__).resolve().parent.parent / "java"
RUNTIME_DEPS = ("slf4j-api", "lz4-java", "snappy-java", "zstd-jni")
# short-lived client programs: C1 only; JVM warnings (a stale archive, say) to stderr, not stdout
JVM_FLAGS = ("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Xlog:all=warning:stderr",
             "-Djava.net.preferIPv4Stack=true")
CLASSES_JAR = "kwire-classes.jar"

_compiled: dict[str, Path] = {}
_archives: dict[str, Path | None] = {}


class JavaClientError(AssertionError):
    def __init__(self, argv: list[str], rc: int | None, stdout: str, stderr: str) -> None:
        self.rc, self.stdout, self.stderr = rc, stdout, stderr
        errors = [line for line in stdout.splitlines() if '"type":"error"' in line]
        super().__init__(
            f"java {' '.join(argv[-6:])} exited {rc}\n{chr(10).join(errors)}\n"
            f"--- stderr (tail) ---\n{stderr[-4000:]}"
        )


def candidate_jar_dirs() -> list[Path]:
    dirs = []
    if os.environ.get("KWIRE_JAVA_JARS"):
        dirs.append(Path(os.environ["KWIRE_JAVA_JARS"]))
    dirs.append(cache_dir() / "jars")
    dirs.append(Path("/tmp/wheels/jars"))
    return dirs


def cache_dir() -> Path:
    return Path(os.environ.get("KWIRE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "kwire"))


def jar_dir() -> Path | None:
    for d in candidate_jar_dirs():
        if (d / KAFKA_CLIENTS_JAR).is_file():
            return d
    return None


def _version_key(path: Path, prefix: str) -> tuple:
    rest = path.name[len(prefix) + 1 : -len(".jar")]
    return tuple(int(x) if x.isdigit() else x for x in re.split(r"[.\-]", rest))


def classpath(d: Path) -> list[Path]:
    jars = [d / KAFKA_CLIENTS_JAR]
    for prefix in RUNTIME_DEPS:
        found = [p for p in d.glob(f"{prefix}-*.jar")
                 if re.fullmatch(re.escape(prefix) + r"-\d[\w.\-]*\.jar", p.name)]
        if found:
            jars.append(max(found, key=lambda p: _version_key(p, prefix)))
    return jars


def require_java() -> list[Path]:
    """The classpath to run with; skips the test when kafka-clients is nowhere."""
    d = jar_dir()
    if d is None:
        pytest.skip(f"{KAFKA_CLIENTS_JAR} not found in any of: "
                    + ", ".join(str(p) for p in candidate_jar_dirs())
                    + " (run scripts/fetch-java-jars.py or set KWIRE_JAVA_JARS)")
    for tool in ("javac", "java"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} (JDK 17+) is not on PATH but {KAFKA_CLIENTS_JAR} is in {d}")
    return classpath(d)


def compiled_classes(cp: list[Path]) -> Path:
    """Directory with the compiled classes, compiling at most once per source hash."""
    sources = sorted(JAVA_SOURCES.glob("*.java"))
    h = hashlib.sha256()
    for src in sources:
        h.update(src.name.encode() + b"\0" + src.read_bytes() + b"\0")
    for jar in cp:
        h.update(jar.name.encode() + b"\0")
    key = h.hexdigest()[:16]
    if key in _compiled:
        return _compiled[key]
    out = Path(tempfile.gettempdir()) / f"kwire-java-{key}"
    if not (out / f"{MAIN_CLASS}.class").is_file():
        staging = Path(tempfile.mkdtemp(prefix=f"kwire-java-{key}-"))
        argv = ["javac", "-encoding", "UTF-8", "-Xlint:all", "-cp", os.pathsep.join(map(str, cp)),
                "-d", str(staging)] + [str(s) for s in sources]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=180)
        if proc.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            pytest.fail(f"javac failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        try:
            os.rename(staging, out)
        except OSError:  # another session published the same classes first
            shutil.rmtree(staging, ignore_errors=True)
    _compiled[key] = out
    return out


def classes_jar(cp: list[Path]) -> Path:
    """The compiled classes as a jar (class-data sharing archives classes from jars only)."""
    classes = compiled_classes(cp)
    jar = classes / CLASSES_JAR
    if not jar.is_file():
        fd, tmp = tempfile.mkstemp(dir=classes, suffix=".tmp")
        os.close(fd)
        with zipfile.ZipFile(tmp, "w") as z:
            for cls in sorted(classes.glob("*.class")):
                z.write(cls, cls.name)
        os.replace(tmp, jar)  # atomic: a concurrent maker writes the same classes
    return jar


def java_argv(main_class: str, *args: str) -> list[str]:
    """The command line that runs ``main_class`` of tests/java (skips the test without the jars)."""
    cp = require_java()
    jars = [classes_jar(cp)] + cp
    argv = ["java", *JVM_FLAGS]
    archive = class_archive(jars)
    if archive is not None:
        argv.append(f"-XX:SharedArchiveFile={archive}")
    return argv + ["-cp", os.pathsep.join(map(str, jars)), main_class, *args]


def class_archive(jars: list[Path]) -> Path | None:
    """The class-data-sharing archive for this classpath, made once per machine (None: none)."""
    if os.environ.get("KWIRE_TEST_JAVA_CDS", "1") == "0":
        return None
    java = os.path.realpath(shutil.which("java") or "java")
    h = hashlib.sha256(f"{java}\0{os.stat(java).st_mtime_ns}".encode())
    for jar in jars:  # CDS checks each jar's size and mtime: a changed jar needs a new archive
        st = jar.stat()
        h.update(f"\0{jar}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    key = h.hexdigest()[:16]
    if key in _archives:
        return _archives[key]
    d = cache_dir() / "cds"
    d.mkdir(parents=True, exist_ok=True)
    archive = d / f"kwire-client-{key}.jsa"
    if os.environ.get("KWIRE_TEST_QUICK") == "1" and not archive.is_file():
        return None  # the quick tier's six Java runs would not repay the archive's making
    with open(d / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be making it: wait, then use it
        if not archive.is_file():
            try:
                _make_archive(jars, archive)
            except (OSError, subprocess.SubprocessError, RuntimeError) as e:
                warnings.warn(f"no class-data archive, Java runs go on without it: {e}")
                archive = None
    _archives[key] = archive
    return archive


def _make_archive(jars: list[Path], archive: Path) -> None:
    from kwire.config import BrokerConfig
    from kwire.server.app import ThreadedBroker

    cp = os.pathsep.join(map(str, jars))
    with tempfile.TemporaryDirectory(prefix="kwire-cds-") as tmp:
        broker = ThreadedBroker(BrokerConfig.load(None, {"listeners": "PLAINTEXT://127.0.0.1:0",
                                                         "log.dirs": tmp}))
        try:
            inp = write_produce_input(Path(tmp) / "records", [(b"k", b"v", [("h", b"x")], 1000)] * 3)
            runs = (["create-topic", broker.bootstrap, "warm", "1"],
                    ["produce", broker.bootstrap, "warm", "lz4", str(inp)],
                    ["consume", broker.bootstrap, "warm", "read_committed", "0=b:3"])
            classes: dict[str, None] = {}
            for i, run_args in enumerate(runs):
                listing = Path(tmp) / f"classes-{i}.lst"
                proc = subprocess.run(["java", *JVM_FLAGS, f"-XX:DumpLoadedClassList={listing}", "-cp", cp,
                                       MAIN_CLASS, *run_args], capture_output=True, text=True, timeout=120)
                if proc.returncode != 0:
                    raise RuntimeError(f"{run_args[0]} exited {proc.returncode}: {proc.stdout[-500:]}")
                classes.update(dict.fromkeys(listing.read_text().splitlines()))
        finally:
            broker.stop()
        listing = Path(tmp) / "classes.lst"
        listing.write_text("\n".join(classes) + "\n")
        staging = Path(tmp) / "archive.jsa"
        proc = subprocess.run(["java", "-Xshare:dump", "-Xlog:disable", f"-XX:SharedClassListFile={listing}",
                               f"-XX:SharedArchiveFile={staging}", "-cp", cp],
                              capture_output=True, text=True, timeout=300)
        if proc.returncode != 0 or not staging.is_file():
            raise RuntimeError(f"java -Xshare:dump exited {proc.returncode}: {proc.stderr[-500:]}")
        for old in archive.parent.glob("kwire-client-*.jsa"):  # of other jars or sources, unused a week
            if time.time() - old.stat().st_atime > 7 * 86400:
                old.unlink(missing_ok=True)
        shutil.move(str(staging), archive)


def run(command: str, *args: str, timeout: float = 120) -> list[dict]:
    """Run one KwireClient subcommand; return its JSON lines (raise JavaClientError on failure)."""
    argv = java_argv(MAIN_CLASS, command, *args)
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise JavaClientError(argv, None, _text(e.stdout), _text(e.stderr) + f"\n(timed out after {timeout}s)")
    if proc.returncode != 0:
        raise JavaClientError(argv, proc.returncode, proc.stdout, proc.stderr)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


class Session:
    """One JVM of a program's session mode (``KwireGroups admin-session``, ``KwireShare
    admin-session``): it reads a command a line from stdin and answers with its JSON lines and
    then ``{"type":"end"}``, so a module pays one JVM start (~1 CPU-s, seconds on a loaded
    machine) instead of one per command. An ``error`` line among the answer raises
    ``JavaClientError`` with the program's stderr; so does its exit or ``timeout``."""

    def __init__(self, main_class: str, *args: str) -> None:
        self.argv = java_argv(main_class, *args)
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True, bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _fail(self, what: str, out: list[str]):
        self.stderr.seek(0)
        return JavaClientError([*self.argv, what], self.proc.poll(), "".join(out), self.stderr.read())

    def run(self, *args: str, timeout: float = 120) -> list[dict]:
        self.proc.stdin.write(" ".join(args) + "\n")
        self.proc.stdin.flush()
        out: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise self._fail(" ".join(args), out) from None
            if line is None:
                raise self._fail(" ".join(args), out)
            out.append(line)
            if line.startswith("{") and json.loads(line).get("type") == "end":
                docs = [json.loads(x) for x in out if x.startswith("{")][:-1]
                if any(d.get("type") == "error" for d in docs):
                    raise self._fail(" ".join(args), out)
                return docs

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()


def session(sessions: dict, main_class: str, *args: str) -> Session:
    """The live ``Session`` of ``main_class args`` in ``sessions`` (keyed by the args), started if
    there is none or it exited. The caller closes them (``close_sessions``) with its broker."""
    s = sessions.get(args)
    if s is None or s.proc.poll() is not None:
        s = sessions[args] = Session(main_class, *args)
    return s


def run_in_session(sessions: dict, main_class: str, session_args: tuple, *args: str,
                   timeout: float = 120) -> list[dict]:
    """``args`` run by the session of ``main_class session_args`` (see ``session``); its JSON
    lines. On a failure (an error line, the JVM's exit, the timeout) the session is killed
    before ``JavaClientError`` is raised: one still busy with a run must not get the next."""
    s = session(sessions, main_class, *session_args)
    try:
        return s.run(*args, timeout=timeout)
    except JavaClientError:
        s.proc.kill()
        s.close()
        sessions.pop(session_args, None)
        raise


def close_sessions(sessions: dict) -> None:
    for s in sessions.values():
        s.close()
    sessions.clear()


def run_class(main_class: str, *args: str, timeout: float = 120, check: bool = False) -> list[dict]:
    """Run another program of tests/java (its ``main``); return its JSON lines.

    ``check``: fail the test, with the program's stderr, unless it exits 0 (without it the
    caller asserts on the lines, which carry the program's own outcome)."""
    proc = subprocess.run(java_argv(main_class, *args), capture_output=True, text=True, timeout=timeout)
    out = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if check and proc.returncode != 0:
        pytest.fail(f"{main_class} exited {proc.returncode}: {out}\n{proc.stderr[-2000:]}")
    return out


def _text(b) -> str:
    if b is None:
        return ""
    return b.decode("utf-8", "replace") if isinstance(b, bytes) else b


# -- the produce input format (see KwireClient.java) ------------------------------------

def _b64(b: bytes | None) -> str:
    return "-" if b is None else base64.b64encode(b).decode("ascii")


def write_produce_input(path: Path, records) -> Path:
    """Write ``(key, value, headers, timestamp)`` records in the program's input format."""
    lines = []
    for key, value, headers, ts in records:
        hs = ",".join(f"{_b64(name.encode('utf-8'))}:{_b64(hv)}" for name, hv in headers) or "-"
        lines.append(f"{_b64(key)}\t{_b64(value)}\t{int(ts)}\t{hs}")
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def unb64(s: str | None) -> bytes | None:
    return None if s is None else base64.b64decode(s)
